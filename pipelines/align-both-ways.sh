#!/usr/bin/env bash
# Word alignments of raw sentence pairs from the attention of two models, one per
# direction, symmetrized: tokenize and BPE both sides, nmt-align with the forward model
# (SRC -> TGT) and with the reverse model (TGT -> SRC, links inverted), then
# nmt-align symmetrize. Links are Pharaoh "i-j" over the tokenized words, source first.
# Installed as rnnsearch-align-both-ways (cmake --install).
set -euo pipefail
source "$(dirname "$(readlink -f "$0")")/common.sh"
USAGE="$NAME -f FORWARD_MODEL -r REVERSE_MODEL -c CODES -s SRC -t TGT -i PAIRS.SRC -j PAIRS.TGT [-H HEURISTIC] [-d DIR] > links
Word alignments of raw sentence pairs from the attention of a SRC -> TGT and a TGT -> SRC
model, symmetrized: Pharaoh \"i-j\" links over the tokenized words, source first, a line per pair.
  -f FORWARD_MODEL  the SRC -> TGT model, from nmt-train
  -r REVERSE_MODEL  the TGT -> SRC model
  -c CODES          the BPE codes both models were trained with, from nmt-bpe learn
  -s SRC            the source language's code, for nmt-tokenize (as in training)
  -t TGT            the target language's code
  -i PAIRS.SRC      the raw source sentences, one a line
  -j PAIRS.TGT      the raw target sentences, line by line with PAIRS.SRC
  -H HEURISTIC      grow-diag-final-and (default), grow-diag-final, grow-diag, grow-diag-and,
                    intersect or union (nmt-align symmetrize -c)
  -d DIR            keep the tokenized, BPE'd text and both directions' links in DIR
  -h, --help        this message
  --version         the recipe's version (rnnsearch's)"
forward= reverse= codes= src= tgt= input= target= heuristic=grow-diag-final-and dir=
while getopts ":f:r:c:s:t:i:j:H:d:h-:" opt; do
  case $opt in
    f) forward=$OPTARG ;; r) reverse=$OPTARG ;; c) codes=$OPTARG ;; s) src=$OPTARG ;; t) tgt=$OPTARG ;;
    i) input=$OPTARG ;; j) target=$OPTARG ;; H) heuristic=$OPTARG ;; d) dir=$OPTARG ;;
    *) common_option "$opt" "${OPTARG:-}" ;;
  esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || die_usage "unexpected argument '$1'"
[ -n "$forward" ] && [ -n "$reverse" ] && [ -n "$codes" ] && [ -n "$src" ] && [ -n "$tgt" ] &&
  [ -n "$input" ] && [ -n "$target" ] || die_usage "-f, -r, -c, -s, -t, -i and -j are required"
for f in "$forward" "$reverse" "$codes" "$input" "$target"; do need_file file "$f"; done
[ "$(wc -l < "$input")" -eq "$(wc -l < "$target")" ] || {
  echo "$NAME: $input has $(wc -l < "$input") lines, $target has $(wc -l < "$target"):" \
    "the pairs must be line-aligned" >&2
  exit 1
}
if [ -z "$dir" ]; then
  dir=$(mktemp -d)
  remove_on_exit "$dir"
fi
mkdir -p "$dir"
# Tokenized and BPE'd as in training.
prepare() {  # LANG FILE
  "$(nmt_tool nmt-tokenize)" -l "$1" --no-escape -q -i "$2" | "$(nmt_tool nmt-bpe)" apply -c "$codes" -o "$dir/pairs.bpe.$1"
}
run_job prepare "$src" "$input"
run_job prepare "$tgt" "$target"
align=$(nmt_tool nmt-align)
run_job "$align" -m "$forward" -s "$dir/pairs.bpe.$src" -t "$dir/pairs.bpe.$tgt" -q -o "$dir/forward"
run_job "$align" -m "$reverse" -s "$dir/pairs.bpe.$tgt" -t "$dir/pairs.bpe.$src" --invert -q -o "$dir/reverse"
run_job "$align" symmetrize -i "$dir/forward" -j "$dir/reverse" -c "$heuristic"
