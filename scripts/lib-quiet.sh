#!/usr/bin/env bash
# The library never prints or exits (lib/util/error.h; CONTRIBUTING.md, "Size limits and
# behaviour checks"): the tools' entry (tools/support/) prints, and turns errors into exit
# codes. Fails (exit 1) naming file:line and the call for every use in lib/ of
#   ending the process:  exit, _exit, _Exit, quick_exit, abort, terminate, raise, exec*
#   the terminal:        printf, puts, putchar, perror, dprintf, the err.h family,
#                        std::cout/cerr/clog (and the wide ones), stdout, stderr,
#                        write() to descriptor 1 or 2
# outside the allow-list below, read with comments, string and character literals blanked
# (a "printf" in a comment or a message is no call). ctest runs it (test lib_quiet).
#   scripts/lib-quiet.sh [SOURCE_DIR]
set -euo pipefail
root=${1:-$(dirname "$0")/..}
cd "$root"

# FILE CALL REASON: the uses that stay, each with why. An entry that matches nothing fails
# the check too, so the list cannot outlive its reason.
allowed='
lib/util/atomic_file.cc stdout the output named "-" is the standard output: data the caller asked for, not a message
lib/train/process_group.h abort ProcessGroup::abort declared: MPI_Abort for the tools entry (tools/support/group_tool.cc)
lib/train/process_group.cc abort ProcessGroup::abort is MPI_Abort, ending every process of a job; only tools/support calls it
'

files=$(find lib -name '*.h' -o -name '*.cc' -o -name '*.inc' | LC_ALL=C sort)
[ -n "$files" ] || { echo "lib-quiet: no sources under $root/lib" >&2; exit 1; }

# "FILE:LINE CALL TEXT" for every use, from the code with comments and literals blanked.
# One line out per line in, so line numbers stay; raw strings R"D(...)D" are blanked too.
# shellcheck disable=SC2086
found=$(awk '
function spaces(k,    s) { s = ""; while (k-- > 0) s = s " "; return s }
function blank(line,    out, i, n, c, next2, close_at) {
  out = ""; n = length(line); i = 1
  while (i <= n) {
    c = substr(line, i, 1); next2 = substr(line, i, 2)
    if (in_comment) {
      if (next2 == "*/") { in_comment = 0; out = out "  "; i += 2 } else { out = out " "; i++ }
    } else if (raw_end != "") {
      close_at = index(substr(line, i), raw_end)
      if (close_at == 0) { out = out spaces(n - i + 1); i = n + 1 }
      else { out = out spaces(close_at + length(raw_end) - 1); i += close_at + length(raw_end) - 1; raw_end = "" }
    } else if (next2 == "//") {
      i = n + 1
    } else if (next2 == "/*") {
      in_comment = 1; out = out "  "; i += 2
    } else if (next2 == "R\"" && (i == 1 || substr(line, i - 1, 1) !~ /[A-Za-z0-9_]/)) {
      close_at = index(substr(line, i + 2), "(")
      raw_end = ")" substr(line, i + 2, close_at - 1) "\""
      out = out "R\""; i += 2 + close_at
    } else if (c == "\"" || (c == "\047" && (i == 1 || substr(line, i - 1, 1) !~ /[0-9A-Fa-f]/))) {
      out = out c; i++
      while (i <= n && substr(line, i, 1) != c) {
        if (substr(line, i, 1) == "\\") { out = out " "; i++ }
        out = out " "; i++
      }
      if (i <= n) { out = out c; i++ }
    } else {
      out = out c; i++
    }
  }
  return out
}
FNR == 1 { in_comment = 0; raw_end = "" }
{
  code = " " blank($0) " "
  for (k = 1; k <= ncalls; ++k) {
    if (match(code, "[^A-Za-z0-9_]" calls[k] "[ \t]*[(]")) print FILENAME ":" FNR " " calls[k] " " $0
  }
  for (k = 1; k <= nnames; ++k) {
    if (match(code, "[^A-Za-z0-9_]" names[k] "[^A-Za-z0-9_]")) print FILENAME ":" FNR " " names[k] " " $0
  }
  if (match(code, "[^A-Za-z0-9_]write[ \t]*[(][ \t]*(1|2|STDOUT_FILENO|STDERR_FILENO)[ \t]*,")) print FILENAME ":" FNR " write " $0
}
BEGIN {
  ncalls = split("exit _exit _Exit quick_exit abort terminate raise execl execlp execle execv execvp execvpe execve fexecve " \
                 "printf vprintf puts putchar perror psignal psiginfo dprintf vdprintf errx warnx verr verrx vwarn vwarnx", calls, " ")
  nnames = split("cout cerr clog wcout wcerr wclog stdout stderr", names, " ")
}
' $files)

bad=0
used=""
while IFS= read -r hit; do
  [ -n "$hit" ] || continue
  place=${hit%% *}
  rest=${hit#* }
  call=${rest%% *}
  file=${place%%:*}
  if cut -d' ' -f1,2 <<< "$allowed" | grep -qxF -- "$file $call"; then
    used+="$file $call"$'\n'
    continue
  fi
  text=${rest#* }
  echo "lib-quiet: $place: $call: ${text#"${text%%[![:space:]]*}"}" >&2
  bad=1
done <<< "$found"

while IFS= read -r entry; do
  [ -n "$entry" ] || continue
  key=$(cut -d' ' -f1,2 <<< "$entry")
  if ! grep -qxF -- "$key" <<< "$used"; then
    echo "lib-quiet: allow-list entry '$key' matches nothing: remove it" >&2
    bad=1
  fi
done <<< "$allowed"

if [ "$bad" -ne 0 ]; then
  echo "lib-quiet: lib/ prints or exits (above); return the text or a util::Error, take a util::Messages or" \
       "util::progress_output(), and leave printing and exiting to tools/support/" >&2
  exit 1
fi
echo "lib-quiet: ok ($(wc -l <<< "$files") files in lib/; allowed: $(sort -u <<< "$used" | grep -v '^$' | paste -sd, | sed 's/,/, /g'))"
