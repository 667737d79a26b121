#!/usr/bin/env bash
# The study's table rows for whole-corpus alignments whose last lines are the gold dev then
# test sentences (as hansards-align appends them), in both protocols of the WPT-2003 set:
# lilt's (most papers since): dev AER on the dev file, then test precision, recall and AER
# on the whole test file; then Liang, Taskar and Klein's (2006): dev AER on the dev file
# with the first 100 test sentences (137 for WPT-2003), then test precision, recall and AER
# on the rest (the last 347). Columns 2-5 are the first protocol, 6-9 the second ("-" when
# the test file has no more than 100 sentences).
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

# counts GOLD FILE [RANGE]: "links sure matching-sure matching-possible" of FILE against GOLD
# (nmt-align eval --sentences RANGE).
counts() {
  "$ALIGN" eval -q -g "$1" -a "$2" ${3:+--sentences "$3"} |
    awk '/^links/ {gsub(",", ""); print $2, $4, $7, $10}'
}
# scores COUNTS...: "precision recall AER" of the summed counts, as nmt-align eval prints them.
scores() {
  awk '{for (i = 1; i <= NF; i += 4) {a += $i; s += $(i + 1); ms += $(i + 2); mp += $(i + 3)}}
       END {printf "%.4f %.4f %.4f\n", a ? mp / a : 0, s ? ms / s : 0, a + s ? 1 - (ms + mp) / (a + s) : 1}' <<< "$*"
}
liang_dev=100  # the test sentences Liang et al. tune on, with the dev file
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '%-58s %8s %8s %8s %8s %8s %8s %8s %8s\n' "alignment" "dev AER" "test P" "test R" "test AER" \
  "L dev" "L test P" "L test R" "L AER"
for pair in "$@"; do
  name=${pair%%=*} file=${pair#*=}
  need_file file "$file"
  [ "$(wc -l < "$file")" -ge $((dev_lines + test_lines)) ] ||
    { echo "alignment-scores.sh: $file has fewer lines than the $((dev_lines + test_lines)) gold sentences" >&2; exit 1; }
  # sed, not head: head would leave tail writing to a closed pipe (SIGPIPE under pipefail).
  tail -n $((dev_lines + test_lines)) "$file" | sed -n "1,${dev_lines}p" > "$work/dev"
  tail -n "$test_lines" "$file" > "$work/test"
  dev_counts=$(counts "$dev_gold" "$work/dev")
  dev=($(scores "$dev_counts"))
  test=($(scores "$(counts "$test_gold" "$work/test")"))
  liang=(- - - -)
  if [ "$test_lines" -gt "$liang_dev" ]; then
    liang_dev_scores=($(scores "$dev_counts" "$(counts "$test_gold" "$work/test" "1-$liang_dev")"))
    liang=("${liang_dev_scores[2]}" $(scores "$(counts "$test_gold" "$work/test" "$((liang_dev + 1))-$test_lines")"))
  fi
  printf '%-58s %8s %8s %8s %8s %8s %8s %8s %8s\n' "$name" "${dev[2]}" "${test[0]}" "${test[1]}" "${test[2]}" "${liang[@]}"
done
