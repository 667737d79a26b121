#!/usr/bin/env bash
# scripts/lib-layers.sh passes on lib/ and fails, naming the include lines, on a folder cycle.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
"$root/scripts/lib-layers.sh" "$root/lib"

fake=$(mktemp -d)
trap 'rm -rf "$fake"' EXIT
mkdir -p "$fake/low" "$fake/mid" "$fake/high"
printf '#pragma once\n#include "mid/b.h"\n' > "$fake/low/a.h"
printf '#pragma once\n#include "low/a.h"\n' > "$fake/mid/b.h"
printf '#include "mid/b.h"\n#include <vector>\n' > "$fake/high/c.cc"
if "$root/scripts/lib-layers.sh" "$fake" > "$fake/out" 2> "$fake/err"; then
  echo "FAIL: a cycle low <-> mid passed" >&2; exit 1
fi
grep -q 'low -> mid: low/a.h:2' "$fake/err" || { echo "FAIL: the cycle's include line not named:" >&2; cat "$fake/err" >&2; exit 1; }
grep -q 'mid -> low: mid/b.h:2' "$fake/err" || { echo "FAIL: the cycle's include line not named:" >&2; cat "$fake/err" >&2; exit 1; }
grep -q '^high -> mid$' "$fake/out" || { echo "FAIL: high's edge not printed:" >&2; cat "$fake/out" >&2; exit 1; }

rm "$fake/mid/b.h" && printf '#pragma once\n' > "$fake/mid/b.h"
"$root/scripts/lib-layers.sh" "$fake" | grep -q '^layers, lowest first: mid low high$' \
  || { echo "FAIL: layer order of the acyclic fake:" >&2; "$root/scripts/lib-layers.sh" "$fake" >&2; exit 1; }
echo "lib_layers: ok"
