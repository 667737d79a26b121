#!/usr/bin/env bash
# Dual conditional cross-entropy filtering (Junczys-Dowmunt 2018, the best WMT18 filter):
# a forward model (source -> target) and a reverse one (target -> source) each give a pair
# its cross-entropy per target piece (nmt-score --normalize: H_fwd, H_rev, in nats, </s>
# counted). A good pair gets low and equal ones:
#   score = |H_fwd - H_rev| + (H_fwd + H_rev) / 2        (lower is better)
# The kept pairs are written line-aligned in corpus order: the best --keep percent (ties
# to the earlier line), or those with a score at most --threshold. An empty side gets no
# score from the models and is never kept. Outputs follow the tools' rule (common.sh): files
# are written beside their names and renamed into place together, devices and FIFOs directly.
# Installed as rnnsearch-filter (cmake --install).
set -euo pipefail
source "$(dirname "$(readlink -f "$0")")/common.sh"
USAGE="$NAME --forward FWD.bin --reverse REV.bin (--keep PERCENT | --threshold T) [options] SRC TGT OUT_SRC OUT_TGT
Keeps the sentence pairs of SRC and TGT (BPE'd as the models were trained) that a forward and
a reverse model both find likely (dual conditional cross-entropy); writes them to OUT_SRC and
OUT_TGT, line-aligned, in corpus order.
  --forward FWD.bin   the SRC -> TGT model, from nmt-train
  --reverse REV.bin   the TGT -> SRC model
  --keep PERCENT      keep the best PERCENT percent of the pairs (0 to 100)
  --threshold T       keep the pairs whose score is at most T (lower is better)
  --scores FILE       write every pair's \"score<TAB>H_fwd<TAB>H_rev\", a line per pair
  --kept-lines FILE   write the line numbers kept, one a line
  --threads N         nmt-score's threads, for each model (default 1)
  --mini-batch N      nmt-score's sentences per batch (default 64)
  -h, --help          this message
  --version           the recipe's version (rnnsearch's)"
forward='' reverse='' keep='' threshold='' scores='' kept_lines='' threads=1 batch=64 files=()
while [ $# -gt 0 ]; do
  case "$1" in
    -h | --help) show_usage ;;
    --version) show_version ;;
    --forward | --reverse | --keep | --threshold | --scores | --kept-lines | --threads | --mini-batch)
      [ $# -ge 2 ] || die_usage "option $1 needs a value" ;;&
    --forward) forward=$2 ;;
    --reverse) reverse=$2 ;;
    --keep) keep=$2 ;;
    --threshold) threshold=$2 ;;
    --scores) scores=$2 ;;
    --kept-lines) kept_lines=$2 ;;
    --threads) threads=$2 ;;
    --mini-batch) batch=$2 ;;
    -*) die_usage "unknown option $1" ;;
    *) files+=("$1"); shift; continue ;;
  esac
  shift 2
done
[ ${#files[@]} -eq 4 ] || die_usage "expected SRC TGT OUT_SRC OUT_TGT"
[ -n "$forward" ] && [ -n "$reverse" ] || die_usage "--forward and --reverse are required"
if [ -n "$keep" ] && [ -n "$threshold" ] || [ -z "$keep$threshold" ]; then die_usage "give one of --keep and --threshold"; fi
if [ -n "$keep" ] && ! awk -v k="$keep" 'BEGIN { exit !(k ~ /^[0-9]+(\.[0-9]+)?$/ && k >= 0 && k <= 100) }'; then
  die_usage "--keep must be a percentage in [0, 100], got '$keep'"
fi
if [ -n "$threshold" ] && ! awk -v t="$threshold" 'BEGIN { exit !(t ~ /^-?[0-9]+(\.[0-9]+)?$/) }'; then
  die_usage "--threshold must be a number, got '$threshold'"
fi
src=${files[0]} tgt=${files[1]} out_src=${files[2]} out_tgt=${files[3]}
check_outputs "--scores=$scores" "--kept-lines=$kept_lines" "OUT_SRC=$out_src" "OUT_TGT=$out_tgt"
for f in "$forward" "$reverse"; do need_file model "$f"; done
for f in "$src" "$tgt"; do need_file corpus "$f"; done
lines=$(wc -l < "$src")
[ "$lines" -eq "$(wc -l < "$tgt")" ] || { echo "$NAME: $src has $lines lines, $tgt $(wc -l < "$tgt")" >&2; exit 1; }

score=$(nmt_tool nmt-score)
work=$(mktemp -d "${TMPDIR:-/tmp}/filter.XXXXXX")
remove_on_exit "$work"
score_opts=(--normalize --threads "$threads" --mini-batch "$batch" -q)
"$score" -m "$forward" -s "$src" -t "$tgt" "${score_opts[@]}" > "$work/forward" &
forward_job=$!
run_job "$score" -m "$reverse" -s "$tgt" -t "$src" "${score_opts[@]}" > "$work/reverse"
wait $forward_job
# Per pair: the combined score and both cross-entropies (an empty side: "inf").
paste "$work/forward" "$work/reverse" "$src" "$tgt" | awk -F '\t' '{
  if ($3 ~ /^ *$/ || $4 ~ /^ *$/) { print "inf\tinf\tinf"; next }
  f = -$1; r = -$2; d = f - r; if (d < 0) d = -d
  printf "%.9g\t%.9g\t%.9g\n", d + (f + r) / 2, f, r }' > "$work/scores"
if [ -n "$keep" ]; then
  count=$(awk -v n="$lines" -v k="$keep" 'BEGIN { printf "%d", n * k / 100 }')
  # awk, not head, takes the first lines: head would stop sort early (SIGPIPE under pipefail).
  awk -F '\t' '$1 != "inf" { print NR "\t" $1 }' "$work/scores" | sort -t $'\t' -k2,2g -k1,1n |
    awk -v n="$count" 'NR <= n' | cut -f1 | sort -n > "$work/kept"
else
  awk -F '\t' -v t="$threshold" '$1 != "inf" && $1 + 0 <= t + 0 { print NR }' "$work/scores" > "$work/kept"
fi
# Every output is written (beside its final name, when a file) before any is renamed into
# place: a failure leaves all the old files, never half a pair.
awk 'FILENAME == ARGV[1] { kept[$1] = 1; next } FNR in kept' "$work/kept" "$src" > "$work/out_src"
awk 'FILENAME == ARGV[1] { kept[$1] = 1; next } FNR in kept' "$work/kept" "$tgt" > "$work/out_tgt"
if [ -n "$scores" ]; then stage_output "$scores" < "$work/scores"; fi
if [ -n "$kept_lines" ]; then stage_output "$kept_lines" < "$work/kept"; fi
stage_output "$out_src" < "$work/out_src"
stage_output "$out_tgt" < "$work/out_tgt"
commit_outputs
echo "$NAME: kept $(wc -l < "$work/out_src") of $lines pairs" >&2
