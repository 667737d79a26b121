#!/usr/bin/env bash
# What makes attention alignments good, one choice at a time: the rules that turn a
# forward and a reverse model's attention into word links (nmt-align --step, --merge,
# --eos, --mode/--threshold), chosen one after the other on a dev set, then the
# symmetrizations and the soft combination of both directions (nmt-align combine, its
# threshold chosen on dev). Every row gives dev AER and test precision, recall and AER;
# every choice is made on dev only. A model with an alignment head (nmt-train
# --alignment-head) is read through its head, nmt-align's default.
#
#   alignment-study.sh -f model.en-fr.bin -r model.fr-en.bin -d DIR -s en -t fr -o study/
#
# DIR holds dev.SRC dev.TGT test.SRC test.TGT (BPE'd as in training) and dev.gold,
# test.gold (gold links, source index first: Pharaoh with i?j possible links, or the
# shared-task format). Writes OUT/study.txt (the table), OUT/rules.{forward,reverse}
# (the chosen nmt-align options), OUT/combine.threshold, and the test alignments of every
# final variant as OUT/test.NAME.
set -euo pipefail
USAGE="alignment-study.sh -f FWD_MODEL -r REV_MODEL -d DIR -s SRC -t TGT -o OUT_DIR"
. "$(dirname "$0")/common.sh"
ALIGN=$(nmt_tool nmt-align)

fwd= rev= dir= src= tgt= out=
while getopts ":f:r:d:s:t:o:h-:" opt; do
  case $opt in
    f) fwd=$OPTARG ;; r) rev=$OPTARG ;; d) dir=$OPTARG ;; s) src=$OPTARG ;; t) tgt=$OPTARG ;; o) out=$OPTARG ;;
    *) common_option "$opt" "${OPTARG:-}" ;;
  esac
done
[ -n "$fwd" ] && [ -n "$rev" ] && [ -n "$dir" ] && [ -n "$src" ] && [ -n "$tgt" ] && [ -n "$out" ] ||
  die_usage "-f, -r, -d, -s, -t and -o are required"
for f in "$fwd" "$rev" "$dir"/{dev,test}.{"$src","$tgt",gold}; do need_file file "$f"; done
mkdir -p "$out/work"
work=$out/work
dev_lines=$(wc -l < "$dir/dev.$src")
cat "$dir/dev.$src" "$dir/test.$src" > "$work/both.$src"
cat "$dir/dev.$tgt" "$dir/test.$tgt" > "$work/both.$tgt"

row() { printf '%-58s %8s %8s %8s %8s\n' "$@" >> "$out/study.txt"; }
# record NAME FILE: a table row (alignment-scores.sh), the test alignments kept as
# test.NAME; prints the dev AER.
record() {
  local line
  line=$("$(dirname "$0")/alignment-scores.sh" -d "$dir/dev.gold" -t "$dir/test.gold" "$1=$2" | tail -n 1)
  echo "$line" >> "$out/study.txt"
  tail -n +$((dev_lines + 1)) "$2" > "$out/test.$1"
  awk '{print $2}' <<< "$line"
}

# extract DIRECTION FILE OPTIONS...: the direction's links of dev and test lines.
extract() {
  local direction=$1 file=$2
  shift 2
  if [ "$direction" = forward ]; then
    "$ALIGN" -m "$fwd" -s "$work/both.$src" -t "$work/both.$tgt" -q -o "$file" "$@"
  else
    "$ALIGN" -m "$rev" -s "$work/both.$tgt" -t "$work/both.$src" --invert -q -o "$file" "$@"
  fi
}

: > "$out/study.txt"
row "alignment (nmt-align options)" "dev AER" "test P" "test R" "test AER"

# One choice after another, each kept only when it lowers dev AER.
for direction in forward reverse; do
  declare -A rule=([step]=emit [merge]=pieces [eos]=ignore [mode]="--mode hard")
  best=
  options() { echo "--step ${rule[step]} --merge ${rule[merge]} --eos ${rule[eos]} ${rule[mode]}"; }
  try() {  # try KEY VALUE: evaluate the current rules with KEY set to VALUE
    local old=${rule[$1]} name aer
    rule[$1]=$2
    name="$direction $(options)"
    extract "$direction" "$work/try" $(options)
    aer=$(record "${name// /_}" "$work/try")
    if [ -z "$best" ] || awk -v a="$aer" -v b="$best" 'BEGIN {exit !(a < b)}'; then best=$aer; else rule[$1]=$old; fi
  }
  try step emit
  try step next
  try merge words
  try eos renormalize
  try eos null
  for t in 0.1 0.2 0.3 0.4 0.5 0.6 0.7 0.8 0.9; do try mode "--mode threshold --threshold $t"; done
  options > "$out/rules.$direction"
  extract "$direction" "$work/$direction" $(options)
  record "$direction" "$work/$direction" > /dev/null
done

for heuristic in intersect union grow-diag grow-diag-final grow-diag-final-and grow-diag-and; do
  "$ALIGN" symmetrize -i "$work/forward" -j "$work/reverse" -c "$heuristic" -o "$work/$heuristic"
  record "$heuristic" "$work/$heuristic" > /dev/null
done

# Soft combination of both directions, with each direction's --step and --eos.
soft_options() { sed -E 's/--mode [a-z]+( --threshold [0-9.]+)?//; s/--merge [a-z]+//' "$out/rules.$1"; }
"$ALIGN" -m "$fwd" -s "$work/both.$src" -t "$work/both.$tgt" -q --mode soft $(soft_options forward) -o "$work/forward.soft"
"$ALIGN" -m "$rev" -s "$work/both.$tgt" -t "$work/both.$src" -q --mode soft $(soft_options reverse) -o "$work/reverse.soft"
best= best_threshold=
for t in 0.1 0.15 0.2 0.25 0.3 0.35 0.4 0.45 0.5 0.55 0.6 0.65 0.7 0.75 0.8 0.85 0.9; do
  "$ALIGN" combine -i "$work/forward.soft" -j "$work/reverse.soft" --threshold "$t" -o "$work/combine"
  aer=$(record "combine_--threshold_$t" "$work/combine")
  if [ -z "$best" ] || awk -v a="$aer" -v b="$best" 'BEGIN {exit !(a < b)}'; then best=$aer best_threshold=$t; fi
done
echo "$best_threshold" > "$out/combine.threshold"
"$ALIGN" combine -i "$work/forward.soft" -j "$work/reverse.soft" --threshold "$best_threshold" -o "$work/combine"
record combine "$work/combine" > /dev/null
cat "$out/study.txt"
