#!/usr/bin/env bash
# Word alignments of raw sentence pairs from the attention of two models, one per
# direction, symmetrized: tokenize and BPE both sides, nmt-align with the forward model
# (SRC -> TGT) and with the reverse model (TGT -> SRC, links inverted), then
# nmt-align symmetrize. Links are Pharaoh "i-j" over the tokenized words, source first.
#   pipelines/align-both-ways.sh -f FORWARD_MODEL -r REVERSE_MODEL -c CODES -s SRC -t TGT
#                                -i PAIRS.SRC -j PAIRS.TGT [-h HEURISTIC] [-d DIR] > links
# HEURISTIC: grow-diag-final-and (default), grow-diag-final, grow-diag, intersect, union.
# -d DIR keeps the tokenized, BPE'd text and both directions' links there.
set -euo pipefail
USAGE="align-both-ways.sh -f FORWARD_MODEL -r REVERSE_MODEL -c CODES -s SRC -t TGT -i PAIRS.SRC -j PAIRS.TGT [-h HEURISTIC] [-d DIR]"
source "$(dirname "$0")/common.sh"
forward= reverse= codes= src= tgt= input= target= heuristic=grow-diag-final-and dir=
while getopts "f:r:c:s:t:i:j:h:d:" opt; do
  case $opt in
    f) forward=$OPTARG ;; r) reverse=$OPTARG ;; c) codes=$OPTARG ;; s) src=$OPTARG ;; t) tgt=$OPTARG ;;
    i) input=$OPTARG ;; j) target=$OPTARG ;; h) heuristic=$OPTARG ;; d) dir=$OPTARG ;;
    *) die_usage "unknown option" ;;
  esac
done
[ -n "$forward" ] && [ -n "$reverse" ] && [ -n "$codes" ] && [ -n "$src" ] && [ -n "$tgt" ] &&
  [ -n "$input" ] && [ -n "$target" ] || die_usage "-f, -r, -c, -s, -t, -i and -j are required"
for f in "$forward" "$reverse" "$codes" "$input" "$target"; do need_file file "$f"; done
if [ -z "$dir" ]; then
  dir=$(mktemp -d)
  trap 'rm -rf "$dir"' EXIT
fi
mkdir -p "$dir"
for side in "$src:$input" "$tgt:$target"; do
  lang=${side%%:*} file=${side#*:}
  "$(nmt_tool nmt-tokenize)" -l "$lang" --no-escape -q -i "$file" |
    "$(nmt_tool nmt-bpe)" apply -c "$codes" -o "$dir/pairs.bpe.$lang"
done
align=$(nmt_tool nmt-align)
"$align" -m "$forward" -s "$dir/pairs.bpe.$src" -t "$dir/pairs.bpe.$tgt" -q -o "$dir/forward"
"$align" -m "$reverse" -s "$dir/pairs.bpe.$tgt" -t "$dir/pairs.bpe.$src" --invert -q -o "$dir/reverse"
"$align" symmetrize -i "$dir/forward" -j "$dir/reverse" -c "$heuristic"
