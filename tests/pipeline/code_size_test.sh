#!/usr/bin/env bash
# scripts/code-size.sh passes on the project and fails, naming them, on a tool over 150
# lines and a lib/ function over 80.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
"$root/scripts/code-size.sh" "$root"

fake=$(mktemp -d)
trap 'rm -rf "$fake"' EXIT
mkdir -p "$fake/tools" "$fake/lib/util"
{ echo "int short_one() { return 1; }"; echo "int long_one() {"; for i in $(seq 1 80); do echo "  int x$i = $i;"; done
  echo "  return 0;"; echo "}"; } > "$fake/lib/util/sizes.cc"
for i in $(seq 1 151); do echo "// line $i"; done > "$fake/tools/nmt-fat.cc"
for i in $(seq 1 150); do echo "// line $i"; done > "$fake/tools/nmt-thin.cc"
if "$root/scripts/code-size.sh" "$fake" > "$fake/out" 2> "$fake/err"; then
  echo "FAIL: an 83-line function and a 151-line tool passed" >&2; exit 1
fi
grep -q '83 lib/util/sizes.cc:2 long_one' "$fake/err" || { echo "FAIL: long function not named:" >&2; cat "$fake/err" >&2; exit 1; }
grep -q 'short_one' "$fake/err" && { echo "FAIL: a short function named" >&2; exit 1; }
grep -q '151 tools/nmt-fat.cc  (over 150)' "$fake/out" || { echo "FAIL: fat tool not flagged:" >&2; cat "$fake/out" >&2; exit 1; }
grep -q 'nmt-thin.cc  (over' "$fake/out" && { echo "FAIL: a 150-line tool flagged" >&2; exit 1; }
echo "code_size: ok"
