#!/usr/bin/env bash
# Streaming translation of raw text, one sentence per line, stdin to stdout:
#   nmt-tokenize | nmt-bpe apply | nmt-decode | nmt-bpe undo | nmt-detokenize
# Every stage answers a line as soon as it arrives, so the recipe serves a pipe that
# waits for each translation as well as a whole file.
#   pipelines/translate.sh -m MODEL -c CODES -s SRC -t TGT [-b BEAM] [-j THREADS] < in > out
# MODEL from nmt-train, CODES from nmt-bpe learn, SRC/TGT language codes for the
# tokenizer (as in training). Tools: $NMT_BIN, else PATH, else build/bin.
set -euo pipefail
USAGE="translate.sh -m MODEL -c CODES -s SRC -t TGT [-b BEAM] [-j THREADS] < raw.SRC > raw.TGT"
source "$(dirname "$0")/common.sh"
model= codes= src= tgt= beam=5 threads=1
while getopts "m:c:s:t:b:j:" opt; do
  case $opt in
    m) model=$OPTARG ;; c) codes=$OPTARG ;; s) src=$OPTARG ;; t) tgt=$OPTARG ;;
    b) beam=$OPTARG ;; j) threads=$OPTARG ;; *) die_usage "unknown option" ;;
  esac
done
[ -n "$model" ] && [ -n "$codes" ] && [ -n "$src" ] && [ -n "$tgt" ] || die_usage "-m, -c, -s and -t are required"
need_file model "$model"
need_file codes "$codes"

"$(nmt_tool nmt-tokenize)" -l "$src" --no-escape -q |
  "$(nmt_tool nmt-bpe)" apply -c "$codes" |
  "$(nmt_tool nmt-decode)" -m "$model" -b "$beam" --threads "$threads" -q |
  "$(nmt_tool nmt-bpe)" undo |
  "$(nmt_tool nmt-detokenize)" -l "$tgt" -q
