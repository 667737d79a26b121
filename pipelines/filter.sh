#!/usr/bin/env bash
# Dual conditional cross-entropy filtering (Junczys-Dowmunt 2018, the best WMT18 filter):
# a forward model (source -> target) and a reverse one (target -> source) each give a pair
# its cross-entropy per target piece (nmt-score --normalize: H_fwd, H_rev, in nats, </s>
# counted). A good pair gets low and equal ones:
#   score = |H_fwd - H_rev| + (H_fwd + H_rev) / 2        (lower is better)
# The kept pairs are written line-aligned in corpus order: the best --keep percent (ties
# to the earlier line), or those with a score at most --threshold.
#   pipelines/filter.sh --forward FWD.bin --reverse REV.bin (--keep PERCENT | --threshold T)
#                       [--scores FILE] [--kept-lines FILE] [--threads N] [--mini-batch N]
#                       SRC TGT OUT_SRC OUT_TGT
# SRC and TGT are BPE'd as the models were trained. --scores: one line per input pair,
# "score<TAB>H_fwd<TAB>H_rev". --kept-lines: the line numbers kept, one per line. An empty
# side gets no score from the models and is never kept. Outputs are written to temporary
# files and renamed into place.
set -euo pipefail
source "$(dirname "$0")/common.sh"
USAGE="filter.sh --forward FWD.bin --reverse REV.bin (--keep PERCENT | --threshold T) [--scores FILE]
       [--kept-lines FILE] [--threads N] [--mini-batch N] SRC TGT OUT_SRC OUT_TGT"
forward='' reverse='' keep='' threshold='' scores='' kept_lines='' threads=1 batch=64 files=()
while [ $# -gt 0 ]; do
  case "$1" in
    --forward) forward=${2:?}; shift 2 ;;
    --reverse) reverse=${2:?}; shift 2 ;;
    --keep) keep=${2:?}; shift 2 ;;
    --threshold) threshold=${2:?}; shift 2 ;;
    --scores) scores=${2:?}; shift 2 ;;
    --kept-lines) kept_lines=${2:?}; shift 2 ;;
    --threads) threads=${2:?}; shift 2 ;;
    --mini-batch) batch=${2:?}; shift 2 ;;
    -h|--help) echo "usage: $USAGE"; exit 0 ;;
    -*) die_usage "unknown option $1" ;;
    *) files+=("$1"); shift ;;
  esac
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
for f in "$forward" "$reverse"; do need_file model "$f"; done
for f in "$src" "$tgt"; do need_file corpus "$f"; done
lines=$(wc -l < "$src")
[ "$lines" -eq "$(wc -l < "$tgt")" ] || { echo "filter.sh: $src has $lines lines, $tgt $(wc -l < "$tgt")" >&2; exit 1; }

score=$(nmt_tool nmt-score)
work=$(mktemp -d "${TMPDIR:-/tmp}/filter.XXXXXX")
trap 'rm -rf "$work"' EXIT
score_opts=(--normalize --threads "$threads" --mini-batch "$batch" -q)
"$score" -m "$forward" -s "$src" -t "$tgt" "${score_opts[@]}" > "$work/forward" &
"$score" -m "$reverse" -s "$tgt" -t "$src" "${score_opts[@]}" > "$work/reverse"
wait $!
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
# Each output is written beside its final name and renamed: no half-written file.
publish() {  # FROM TO
  cp "$1" "$2.tmp.$$"
  mv "$2.tmp.$$" "$2"
}
awk 'FILENAME == ARGV[1] { kept[$1] = 1; next } FNR in kept' "$work/kept" "$src" > "$work/out_src"
awk 'FILENAME == ARGV[1] { kept[$1] = 1; next } FNR in kept' "$work/kept" "$tgt" > "$work/out_tgt"
if [ -n "$scores" ]; then publish "$work/scores" "$scores"; fi
if [ -n "$kept_lines" ]; then publish "$work/kept" "$kept_lines"; fi
publish "$work/out_src" "$out_src"
publish "$work/out_tgt" "$out_tgt"
echo "filter.sh: kept $(wc -l < "$out_src") of $lines pairs" >&2
