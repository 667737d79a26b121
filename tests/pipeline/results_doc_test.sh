#!/usr/bin/env bash
# scripts/check-docs.sh passes on the user-facing documents (README.md, CONTRIBUTING.md,
# pipelines/README.md, data/README.md, data/results/*.md, man pages) and fails, naming file and line, on each kind of problem:
# a table with no provenance line, a bad date, an unknown commit, a date before its commit,
# a command whose script does not exist, an undefined machine kind, development-log wording
# and clock times without a date, a history out of date order, a front page over 300 lines.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
check=$root/scripts/check-docs.sh
fail() { echo "FAIL: $*" >&2; exit 1; }

"$check" || fail "the documents of the checkout do not pass (above)"

fake=$(mktemp -d)
trap 'rm -rf "$fake"' EXIT
mkdir -p "$fake/data/results"
for d in scripts pipelines tests tools Makefile.pipeline; do ln -s "$root/$d" "$fake/$d"; done
# A commit of this repository, when there is one, and its day.
commit="" day=2026-11-26
if git -C "$root" rev-parse --git-dir > /dev/null 2>&1 && [ -e "$root/.git" ]; then
  commit=$(git -C "$root" log -1 --format=%h) day=$(git -C "$root" log -1 --format=%cs)
fi
good_doc() {  # a results document that passes; $1 replaces its provenance line, $2 adds a line
  cat << EOF
# Results

## Machines

- **Box, 2 cores**: the machine.

### Speed

${1:-Date: $day · Command: \`scripts/bench-train.sh --peer-minutes 3\` · Commit: ${commit:-0000000} · Machine: Box, 2 cores; quiet}

| a | b |
|---|---|
| 1 | 2 |
${2:-}
EOF
}
expect() {  # expect FILE-NAME WORDS-OF-THE-MESSAGE: check-docs.sh fails naming it
  local out
  if out=$("$check" --root "$fake" --git "$root" "$fake/$1" 2>&1); then fail "passed: $(cat "$fake/$1")"; fi
  grep -q -- "$2" <<< "$out" || fail "expected '$2' in: $out"
}
r=data/results/README.md
good_doc > "$fake/$r"
if [ -n "$commit" ]; then
  "$check" --root "$fake" --git "$root" "$fake/$r" > /dev/null || fail "a good results document fails"
  good_doc "Date: $day · Command: \`scripts/bench-train.sh\` · Commit: 0123abc · Machine: Box, 2 cores" > "$fake/$r"
  expect $r "commit 0123abc is not in the repository"
  first=$(git -C "$root" rev-list --max-parents=0 HEAD | head -1 | cut -c1-7)
  good_doc "Date: 2000-01-01 · Command: \`scripts/bench-train.sh\` · Commit: $first · Machine: Box, 2 cores" > "$fake/$r"
  expect $r "date 2000-01-01 is before commit $first"
fi
good_doc "Date: 26.11.2026 · Command: \`scripts/bench-train.sh\` · Commit: ${commit:-0000000} · Machine: Box, 2 cores" > "$fake/$r"
expect $r "date '26.11.2026' is not YYYY-MM-DD"
good_doc "Date: $day · Command: \`scripts/bench-nothing.sh\` · Commit: ${commit:-0000000} · Machine: Box, 2 cores" > "$fake/$r"
expect $r "no file scripts/bench-nothing.sh"
good_doc "Date: $day · Command: \`make -f Makefile.pipeline no-such-target\` · Commit: ${commit:-0000000} · Machine: Box, 2 cores" > "$fake/$r"
expect $r "Makefile.pipeline has no target no-such-target"
good_doc "Date: $day · Command: \`scripts/bench-train.sh\` · Commit: ${commit:-0000000} · Machine: a laptop" > "$fake/$r"
expect $r "machine 'a laptop' is not a kind"
good_doc "Date: $day · Commit: ${commit:-0000000} · Machine: Box, 2 cores" > "$fake/$r"
expect $r "provenance line needs"
good_doc "Measured on $day with scripts/bench-train.sh." > "$fake/$r"
expect $r "$r:11: table without a provenance line"
good_doc "Date: per row · Command: \`scripts/bench-train.sh\` · Commit: ${commit:-0000000} · Machine: Box, 2 cores" > "$fake/$r"
expect $r "Date is 'per row' but the table has no Date column"
good_doc "" "This ran in the last session." > "$fake/$r"
expect $r "$r:14: development-log wording"

printf 'Fixed in issue 9.\n' > "$fake/README.md"; expect README.md "README.md:1: development-log wording"
printf 'As the peer does.\n' > "$fake/README.md"; expect README.md "development-log wording"
printf 'One run, 10:05-10:11 UTC, quiet.\n' > "$fake/README.md"; expect README.md "clock time without a date"
printf 'One run, 2026-11-26 10:05-10:11 UTC, quiet.\n' > "$fake/README.md"
"$check" --root "$fake" "$fake/README.md" > /dev/null || fail "a clock time after a date is refused"
printf '| what | Commit |\n|---|---|\n| x | zz99 |\n' > "$fake/README.md"; expect README.md "commit 'zz99' is not a hash"
seq 301 > "$fake/README.md"; expect README.md "301 lines: the front page has at most 300"
seq 300 > "$fake/README.md"
"$check" --root "$fake" "$fake/README.md" > /dev/null || fail "a front page of 300 lines is refused"

h=data/results/HISTORY.md
printf '# History\n\n## 2026-11-24\n\n### a\n\nCommit: %s\n\n## 2026-11-25\n\n### b\n\nCommit: %s\n' \
  "${commit:-0000000}" "${commit:-0000000}" > "$fake/$h"
expect $h "2026-11-25 comes after 2026-11-24"
printf '# History\n\n## 2026-11-26\n\n### a\n\nNo hash here.\n' > "$fake/$h"
expect $h "entry without a 'Commit: HASH' line"
echo "results_doc: ok"
