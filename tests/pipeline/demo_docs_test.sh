#!/usr/bin/env bash
# The demo's figures in README.md and data/results/README.md are what command 1 prints:
#   - make -f Makefile.pipeline pipeline runs at the demo's real defaults (OUT in a scratch
#     folder, BUILD the build under test), and its report has every part the documents show
#     (scripts/demo-docs.sh check --structure: each line, numbers masked);
#   - on a CPU of the kind the documents' provenance line names (demo-docs.sh same-machine:
#     its model name and the tools' kernel level), the blocks are the run's bytes (check);
#     elsewhere it says on stdout that the figures were not compared, and why: training's
#     products differ in their last bits from one instruction set to another;
#   - the check can fail: a copy of the run with one AER changed is refused, naming
#     data/results/README.md and the line, and a report without its heatmap line fails even
#     with the numbers masked.
# The demo trains for at most 30 epochs with early stopping and no time limit: its files
# are the same bytes on every run on one kind of CPU, whatever the load. About 90 s on two
# quiet cores. Environment (set by ctest): NMT_SOURCE_DIR, NMT_BIN_DIR.
set -euo pipefail
source "$(dirname "$0")/test_env.sh"
docs=$src/scripts/demo-docs.sh
started=$(date +%s)

echo "== make -f Makefile.pipeline pipeline (the demo, BUILD=$build)"
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -C "$src" -f Makefile.pipeline pipeline \
  BUILD="$build" OUT="$work/demo" > "$work/run.log" 2>&1 || { tail -30 "$work/run.log"; fail "the demo pipeline failed"; }
echo "the pipeline took $(($(date +%s) - started)) s"

echo "== the documents' blocks against the run"
"$docs" check --structure "$work/demo" || fail "the demo's report lacks a part the documents show, or a block is missing"
if why=$("$docs" same-machine --bin "$bin"); then
  echo "$why: the figures are compared"
  "$docs" check "$work/demo" || fail "the documents do not show what the demo prints (above)"
else
  echo "the demo's figures were not compared: $why"
fi

echo "== the check fails on a run that differs"
cp -r "$work/demo" "$work/changed"
awk '$1 == "forward" { $4 = sprintf("%.4f", $4 + 0.01) } { print }' "$work/demo/align/aer.txt" > "$work/changed/align/aer.txt"
if "$docs" check "$work/changed" > "$work/changed.out" 2>&1; then fail "check passed a run with another forward AER"; fi
grep -q '^data/results/README.md:[0-9]*: differs' "$work/changed.out" || fail "check does not name the line: $(cat "$work/changed.out")"
grep -v 'heatmap' "$work/demo/report.txt" > "$work/changed/report.txt"
if "$docs" check --structure "$work/changed" > "$work/structure.out" 2>&1; then fail "check --structure passed a report without its heatmap line"; fi
grep -q '^README.md:[0-9]*: differs' "$work/structure.out" || fail "check --structure does not name README.md: $(cat "$work/structure.out")"
echo "demo_docs: $(($(date +%s) - started)) s"
