#!/usr/bin/env bash
# The study's table rows for whole-corpus alignments whose last lines are the gold dev then
# test sentences (as hansards-align appends them): dev AER, then test precision, recall
# and AER, against the gold links of each.
#
#   alignment-scores.sh -d dev.gold -t test.gold NAME=FILE...
#
# Gold files: Pharaoh with i?j possible links, or the shared-task format (nmt-align eval).
set -euo pipefail
USAGE="alignment-scores.sh -d DEV_GOLD -t TEST_GOLD NAME=FILE..."
. "$(dirname "$0")/common.sh"
ALIGN=$(nmt_tool nmt-align)

dev_gold= test_gold=
while getopts ":d:t:h-:" opt; do
  case $opt in
    d) dev_gold=$OPTARG ;; t) test_gold=$OPTARG ;; *) common_option "$opt" "${OPTARG:-}" ;;
  esac
done
shift $((OPTIND - 1))
[ -n "$dev_gold" ] && [ -n "$test_gold" ] && [ $# -gt 0 ] || die_usage "-d, -t and at least one NAME=FILE are required"
need_file file "$dev_gold"
need_file file "$test_gold"
# Sentences per gold file: the largest sentence number of the shared-task format, else lines.
sentences() { awk 'NF == 4 && $4 ~ /^[SP]$/ {n = $1 + 0 > n ? $1 + 0 : n; task = 1} END {if (!task) n = NR; print n}' "$1"; }
dev_lines=$(sentences "$dev_gold")
test_lines=$(sentences "$test_gold")

# score GOLD: "precision recall AER" of the alignments on stdin.
score() { "$ALIGN" eval -q -g "$1" -a /dev/stdin | awk '/^precision/ {p = $2} /^recall/ {r = $2} /^AER/ {a = $2}
                                                    END {print p, r, a}'; }
printf '%-58s %8s %8s %8s %8s\n' "alignment" "dev AER" "test P" "test R" "test AER"
for pair in "$@"; do
  name=${pair%%=*} file=${pair#*=}
  need_file file "$file"
  [ "$(wc -l < "$file")" -ge $((dev_lines + test_lines)) ] ||
    { echo "alignment-scores.sh: $file has fewer lines than the $((dev_lines + test_lines)) gold sentences" >&2; exit 1; }
  # sed, not head: head would leave tail writing to a closed pipe (SIGPIPE under pipefail).
  dev=($(tail -n $((dev_lines + test_lines)) "$file" | sed -n "1,${dev_lines}p" | score "$dev_gold"))
  test=($(tail -n "$test_lines" "$file" | score "$test_gold"))
  printf '%-58s %8s %8s %8s %8s\n' "$name" "${dev[2]}" "${test[0]}" "${test[1]}" "${test[2]}"
done
