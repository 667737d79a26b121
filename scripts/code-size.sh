#!/usr/bin/env bash
# The size limits the code keeps (see CONTRIBUTING.md, "Size limits and behaviour checks"): every tool file at most 150 lines
# (a table of options and library calls), every function in lib/ at most 80 lines.
# nmt-align holds seven subcommands, each a table of options and one library call (about 30
# lines each, most of them --help text): its limit is 240. Prints lines per tool and per lib/ folder and the longest functions; fails
# (exit 1) naming what is over. ctest runs it (test code_size). Needs universal-ctags.
#   scripts/code-size.sh [SOURCE_DIR]
set -euo pipefail
root=${1:-$(dirname "$0")/..}
cd "$root"
max_tool_lines=150
max_function_lines=80
command -v ctags >/dev/null && ctags --version 2>/dev/null | grep -q 'Universal Ctags' || {
  echo "code-size: needs universal-ctags (scripts/install-deps.sh installs it)" >&2; exit 1; }

over=0
echo "lines per tool:"
for tool in tools/*.cc; do
  lines=$(wc -l < "$tool")
  limit=$max_tool_lines
  [ "$tool" = tools/nmt-align.cc ] && limit=240
  flag=""
  if [ "$lines" -gt "$limit" ]; then flag="  (over $limit)"; over=1; fi
  printf '  %5d %s%s\n' "$lines" "$tool" "$flag"
done
echo "lines per lib/ folder:"
for folder in lib/*/; do
  printf '  %5d %s\n' "$(cat "$folder"*.h "$folder"*.cc 2>/dev/null | wc -l)" "${folder%/}"
done

# "lines file:line name" of every function definition (ctags' end field gives its last line).
functions=$(ctags -R --languages=C++ --kinds-C++=f --fields=+ne -o - lib | awk -F'\t' '{
  line = ""; end = ""
  for (i = 4; i <= NF; ++i) { if ($i ~ /^line:/) line = substr($i, 6); if ($i ~ /^end:/) end = substr($i, 5) }
  if (line != "" && end != "") print end - line + 1, $2 ":" line, $1 }' | sort -k1,1nr -k2,2)
echo "longest functions in lib/:"
awk 'NR <= 5 { print "  " $0 }' <<< "$functions"  # awk reads it all: head would close the pipe early (SIGPIPE)
long=$(echo "$functions" | awk -v max="$max_function_lines" '$1 > max')
if [ -n "$long" ]; then
  echo "code-size: functions in lib/ over $max_function_lines lines:" >&2
  echo "$long" | sed 's/^/  /' >&2
  over=1
fi
if [ "$over" -ne 0 ]; then
  [ -z "$long" ] && echo "code-size: tools over their limit (above)" >&2
  exit 1
fi
echo "code-size: ok (tools <= $max_tool_lines lines, lib/ functions <= $max_function_lines lines)"
