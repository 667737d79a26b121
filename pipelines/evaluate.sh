#!/usr/bin/env bash
# Evaluates a model on a test set: translates the raw source with translate.sh and scores
# the detokenized, cased output against the raw reference with BLEU and chrF (sacreBLEU's
# defaults, through nmt-bleu).
#   pipelines/evaluate.sh -m MODEL -c CODES -s SRC -t TGT -i TEST.SRC -r TEST.TGT
#                         [-b BEAM] [-j THREADS] [-o TRANSLATIONS]
# Prints the scores; -o keeps the translations (else they go to a temporary file).
set -euo pipefail
USAGE="evaluate.sh -m MODEL -c CODES -s SRC -t TGT -i TEST.SRC -r TEST.TGT [-b BEAM] [-j THREADS] [-o TRANSLATIONS]"
source "$(dirname "$0")/common.sh"
model= codes= src= tgt= input= reference= beam=5 threads=1 output=
while getopts "m:c:s:t:i:r:b:j:o:" opt; do
  case $opt in
    m) model=$OPTARG ;; c) codes=$OPTARG ;; s) src=$OPTARG ;; t) tgt=$OPTARG ;;
    i) input=$OPTARG ;; r) reference=$OPTARG ;; b) beam=$OPTARG ;; j) threads=$OPTARG ;; o) output=$OPTARG ;;
    *) die_usage "unknown option" ;;
  esac
done
[ -n "$input" ] && [ -n "$reference" ] || die_usage "-i and -r are required"
need_file "test source" "$input"
need_file reference "$reference"
hypotheses=$(mktemp)
trap 'rm -f "$hypotheses"' EXIT
"$(dirname "$0")/translate.sh" -m "$model" -c "$codes" -s "$src" -t "$tgt" -b "$beam" -j "$threads" \
  < "$input" > "$hypotheses"
"$(nmt_tool nmt-bleu)" "$reference" -i "$hypotheses" -m bleu chrf -f text
if [ -n "$output" ]; then mv "$hypotheses" "$output"; fi
