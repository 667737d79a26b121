#!/usr/bin/env bash
# Streaming translation of raw text, one sentence per line, stdin to stdout:
#   nmt-tokenize | nmt-bpe apply | nmt-decode | nmt-bpe undo | nmt-detokenize
# Every stage answers a line as soon as it arrives, so the recipe serves a pipe that
# waits for each translation as well as a whole file. Long sentences are translated whole
# (nmt-decode --max-length 0), as Makefile.pipeline translates them; -q silences progress
# only, never the warnings (unknown words, a translation cut at the length limit).
# Installed as rnnsearch-translate (cmake --install).
set -euo pipefail
source "$(dirname "$(readlink -f "$0")")/common.sh"
USAGE="$NAME -m MODEL -c CODES -s SRC -t TGT [-b BEAM] [-j THREADS] < raw.SRC > raw.TGT
Translates raw text, one sentence a line, from standard input to standard output.
  -m MODEL    the model, from nmt-train
  -c CODES    the BPE codes the model was trained with, from nmt-bpe learn
  -s SRC      the source language's code, for nmt-tokenize (as in training)
  -t TGT      the target language's code, for nmt-detokenize
  -b BEAM     beam size (default 5)
  -j THREADS  nmt-decode's threads (default 1)
  -h, --help  this message
  --version   the recipe's version (rnnsearch's)"
model= codes= src= tgt= beam=5 threads=1
while getopts ":m:c:s:t:b:j:h-:" opt; do
  case $opt in
    m) model=$OPTARG ;; c) codes=$OPTARG ;; s) src=$OPTARG ;; t) tgt=$OPTARG ;;
    b) beam=$OPTARG ;; j) threads=$OPTARG ;; *) common_option "$opt" "${OPTARG:-}" ;;
  esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || die_usage "unexpected argument '$1' (the text comes on standard input)"
[ -n "$model" ] && [ -n "$codes" ] && [ -n "$src" ] && [ -n "$tgt" ] || die_usage "-m, -c, -s and -t are required"
need_file model "$model"
need_file codes "$codes"

translate() {
  "$(nmt_tool nmt-tokenize)" -l "$src" --no-escape -q |
    "$(nmt_tool nmt-bpe)" apply -c "$codes" |
    "$(nmt_tool nmt-decode)" -m "$model" -b "$beam" --max-length 0 --threads "$threads" -q |
    "$(nmt_tool nmt-bpe)" undo |
    "$(nmt_tool nmt-detokenize)" -l "$tgt" -q
}
run_job translate
