#!/usr/bin/env bash
# The dependency graph of lib/'s folders, read from the #include lines: one "folder -> the
# folders it includes" line each, then the folders in layer order (each above all it uses).
# Fails (exit 1) when the folders form a cycle, naming the include lines of the cycle's
# edges. ctest runs it (test lib_layers).
#   scripts/lib-layers.sh [LIB_DIR]
set -euo pipefail
lib=${1:-$(dirname "$0")/../lib}
cd "$lib"

# "from to file:line" for every include of another lib/ folder's header.
edges() {
  local folder
  for folder in */; do
    folder=${folder%/}
    { grep -Hn '^#include "[a-z_]*/' "$folder"/*.h "$folder"/*.cc 2>/dev/null || true; } |
      sed -E 's|^([^:]*):([0-9]*):#include "([a-z_]*)/.*|\3 \1:\2|' |
      while read -r to where; do
        if [ "$to" != "$folder" ] && [ -d "$to" ]; then echo "$folder $to $where"; fi
      done
  done
}
all=$(edges)
pairs=$(echo "$all" | awk '{ print $1, $2 }' | sort -u)

for folder in */; do
  folder=${folder%/}
  echo "$folder -> $(echo "$pairs" | awk -v f="$folder" '$1 == f { printf "%s%s", sep, $2; sep = " " }')"
done

# tsort lists a node before the nodes it points at; reversed, every folder comes after all
# it depends on. A cycle makes tsort complain and name its members.
complaints=$(mktemp)
trap 'rm -f "$complaints"' EXIT
order=$( (echo "$pairs"; for folder in */; do echo "${folder%/} ${folder%/}"; done) | tsort 2>"$complaints") || true
if [ -s "$complaints" ]; then
  echo "lib-layers: the folders form a cycle:" >&2
  sed -n 's/^tsort: //p' "$complaints" | grep -v 'input contains a loop' >&2 || true
  members=$(sed -n 's/^tsort: //p' "$complaints" | grep -v 'input contains a loop' | tr '\n' ' ')
  for from in $members; do
    for to in $members; do
      echo "$all" | awk -v f="$from" -v t="$to" '$1 == f && $2 == t { print "  " f " -> " t ": " $3 }' | head -n 3 >&2
    done
  done
  exit 1
fi
echo "layers, lowest first: $(echo "$order" | tac | tr '\n' ' ' | sed 's/ $//')"
