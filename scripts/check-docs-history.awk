# Reads data/results/HISTORY.md for scripts/check-docs.sh and prints what it must check, one
# record a line: LINE<TAB>KIND<TAB>VALUE, KIND one of date, commit ("HASH DATE"), error.
# Every "## " heading after the title is a date (YYYY-MM-DD, optionally followed by text),
# newest first; every "### " entry under it names its commit on a line "Commit: HASH".
function close_entry() {
  if (entry && !commits) printf "%d\terror\tentry without a 'Commit: HASH' line\n", entry
  entry = 0; commits = 0
}
/^## / {
  close_entry()
  if (!match($0, /^## [0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]/)) {
    printf "%d\terror\tdate heading expected (## YYYY-MM-DD)\n", NR; day = ""; next
  }
  day = substr($0, 4, 10)
  printf "%d\tdate\t%s\n", NR, day
  if (previous != "" && day > previous) printf "%d\terror\t%s comes after %s: newest first\n", NR, day, previous
  previous = day; next
}
/^### / {
  close_entry(); entry = NR
  if (day == "") printf "%d\terror\tentry outside a date heading\n", NR
  next
}
entry && /^Commit: / {
  n = split(substr($0, 9), hashes, /[ ,;·]+/)
  for (i = 1; i <= n; i++) if (hashes[i] ~ /^[0-9a-f]+$/ && length(hashes[i]) >= 7) { printf "%d\tcommit\t%s %s\n", NR, hashes[i], day; commits++ }
}
END { close_entry() }
