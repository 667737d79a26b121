# Reads one Markdown document for scripts/check-docs.sh and prints what it must check, one
# record a line: LINE<TAB>KIND<TAB>VALUE, KIND one of date, commit ("HASH [DATE]"), command,
# machine, kind (a machine kind the document defines), error (a structural problem).
# -v results=1: the results document's rules (a provenance line before every table);
# -v kinds_only=1: print only the machine kinds.
function trim(s) { gsub(/^[ \t]+|[ \t]+$/, "", s); gsub(/\*\*/, "", s); return s }
function cells(line, out,   n, i, parts) {
  gsub(/\\\|/, "\001", line)            # an escaped pipe inside a cell
  sub(/^[ \t]*\|/, "", line); sub(/\|[ \t]*$/, "", line)
  n = split(line, parts, "|")
  for (i = 1; i <= n; i++) { out[i] = trim(parts[i]); gsub(/\001/, "|", out[i]) }
  return n
}
function emit(n, kind, value) { if (!kinds_only) printf "%d\t%s\t%s\n", n, kind, value }
# Reads the provenance line into prov[]; "per row" fields are left to the table's columns.
function provenance(line, n,   parts, k, i, key, val, expected) {
  split("", prov); k = split(line, parts, / · /)
  split("Date Command Commit Machine", expected, " ")
  if (k != 4) { emit(n, "error", "provenance line needs Date: · Command: · Commit: · Machine:"); return }
  for (i = 1; i <= 4; i++) {
    key = parts[i]; sub(/:.*/, "", key); val = parts[i]; sub(/^[^:]*:[ ]*/, "", val)
    if (key != expected[i]) {
      emit(n, "error", "provenance field " i " is '" key "', expected Date, Command, Commit, Machine in order"); return
    }
    prov[key] = trim(val)
  }
}
BEGIN { in_table = 0; last = ""; last_n = 0; pending = 0; section = "" }
/^## / { section = $0 }
kinds_only || results {
  if (section ~ /^## Machines/ && match($0, /^- \*\*[^*]+\*\*/))
    printf "%d\tkind\t%s\n", NR, substr($0, RSTART + 4, RLENGTH - 6)
}
kinds_only { next }
/^\|/ {
  if (!in_table) {                               # a header line
    in_table = 1; split("", col); split("", prov); ncol = cells($0, head)
    for (i = 1; i <= ncol; i++) if (head[i] ~ /^(Date|Commit|Command|Machine)$/) col[head[i]] = i
    if (results) {
      if (last !~ /^Date: /) emit(NR, "error", "table without a provenance line (Date: · Command: · Commit: · Machine:) just above it")
      else provenance(last, last_n)
      pending = 0
      for (key in prov) {
        if (prov[key] == "per row") { if (!(key in col)) emit(last_n, "error", key " is 'per row' but the table has no " key " column") }
        else if (key == "Date") emit(last_n, "date", prov[key])
        else if (key == "Commit") emit(last_n, "commit", prov[key] " " (prov["Date"] == "per row" ? "" : prov["Date"]))
        else if (key == "Command") emit(last_n, "command", prov[key])
        else emit(last_n, "machine", prov[key])
      }
    }
    last = $0; last_n = NR
    next
  }
  last = $0; last_n = NR
  if ($0 ~ /^\|[ \t:|-]+$/) next                  # the separator line
  cells($0, row)
  if ("Date" in col) emit(NR, "date", row[col["Date"]])
  if ("Commit" in col) emit(NR, "commit", row[col["Commit"]] " " ("Date" in col ? row[col["Date"]] : \
                                   (prov["Date"] != "per row" ? prov["Date"] : "")))
  if ("Command" in col) emit(NR, "command", row[col["Command"]])
  if ("Machine" in col) emit(NR, "machine", row[col["Machine"]])
  next
}
{ in_table = 0 }
/^[ \t]*$/ { next }
{
  if (results && pending) emit(pending, "error", "provenance line not followed by a table")
  pending = (results && $0 ~ /^Date: /) ? NR : 0
  last = $0; last_n = NR
}
END {
  if (results && pending) emit(pending, "error", "provenance line not followed by a table")
}
