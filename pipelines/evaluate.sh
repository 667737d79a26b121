#!/usr/bin/env bash
# Evaluates a model on a test set: translates the raw source with translate.sh and scores
# the detokenized, cased output against the raw reference with BLEU and chrF (sacreBLEU's
# defaults, through nmt-bleu).
# Installed as rnnsearch-evaluate (cmake --install).
set -euo pipefail
here=$(dirname "$(readlink -f "$0")")
source "$here/common.sh"
USAGE="$NAME -m MODEL -c CODES -s SRC -t TGT -i TEST.SRC -r TEST.TGT [-b BEAM] [-j THREADS] [-o TRANSLATIONS]
Translates the raw test source as translate.sh does and prints BLEU and chrF against the
raw reference (sacreBLEU's defaults, through nmt-bleu).
  -m MODEL         the model, from nmt-train
  -c CODES         the BPE codes the model was trained with, from nmt-bpe learn
  -s SRC           the source language's code, for nmt-tokenize (as in training)
  -t TGT           the target language's code, for nmt-detokenize
  -i TEST.SRC      the raw test source, one sentence a line
  -r TEST.TGT      the raw reference, line by line with TEST.SRC
  -b BEAM          beam size (default 5)
  -j THREADS       nmt-decode's threads (default 1)
  -o TRANSLATIONS  keep the translations in this file (default: a temporary file, removed)
  -h, --help       this message
  --version        the recipe's version (rnnsearch's)"
model= codes= src= tgt= input= reference= beam=5 threads=1 output=
while getopts ":m:c:s:t:i:r:b:j:o:h-:" opt; do
  case $opt in
    m) model=$OPTARG ;; c) codes=$OPTARG ;; s) src=$OPTARG ;; t) tgt=$OPTARG ;;
    i) input=$OPTARG ;; r) reference=$OPTARG ;; b) beam=$OPTARG ;; j) threads=$OPTARG ;; o) output=$OPTARG ;;
    *) common_option "$opt" "${OPTARG:-}" ;;
  esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || die_usage "unexpected argument '$1'"
[ -n "$model" ] && [ -n "$codes" ] && [ -n "$src" ] && [ -n "$tgt" ] && [ -n "$input" ] && [ -n "$reference" ] ||
  die_usage "-m, -c, -s, -t, -i and -r are required"
need_file "test source" "$input"
need_file reference "$reference"
check_outputs "-o=$output"
work=$(mktemp -d "${TMPDIR:-/tmp}/evaluate.XXXXXX")
remove_on_exit "$work"
# translate.sh beside this file, with the tools found here (it is not called from PREFIX/bin).
NMT_BIN=$(dirname "$(nmt_tool nmt-decode)") run_job "$here/translate.sh" -m "$model" -c "$codes" -s "$src" -t "$tgt" \
  -b "$beam" -j "$threads" < "$input" > "$work/hypotheses"
run_job "$(nmt_tool nmt-bleu)" "$reference" -i "$work/hypotheses" -m bleu chrf -f text
if [ -n "$output" ]; then write_output "$output" < "$work/hypotheses"; fi
