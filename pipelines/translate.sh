#!/usr/bin/env bash
# Streaming translation of raw text, one sentence per line, stdin to stdout:
#   nmt-tokenize | nmt-bpe apply | nmt-decode | nmt-bpe undo | nmt-detokenize
# With a glossary (--glossary FILE, raw "source term<TAB>target term" lines), its sides are
# tokenized as the text is, and each line's terms become constraints that every
# translation carries:
#   nmt-tokenize | nmt-glossary match | nmt-bpe apply |
#     nmt-decode --constraints unordered --constraints-if-missing | ...
# (a translation that holds its terms already is kept as the model made it).
# Every stage answers a line as soon as it arrives, so the recipe serves a pipe that
# waits for each translation as well as a whole file. Long sentences are translated whole
# (nmt-decode --max-length 0), as Makefile.pipeline translates them; -q silences progress
# only, never the warnings (unknown words, a translation cut at the length limit).
# Installed as rnnsearch-translate (cmake --install).
set -euo pipefail
source "$(dirname "$(readlink -f "$0")")/common.sh"
USAGE="$NAME -m MODEL -c CODES -s SRC -t TGT [-b BEAM] [-j THREADS] [-g GLOSSARY] < raw.SRC > raw.TGT
Translates raw text, one sentence a line, from standard input to standard output.
  -m MODEL    the model, from nmt-train
  -c CODES    the BPE codes the model was trained with, from nmt-bpe learn
  -s SRC      the source language's code, for nmt-tokenize (as in training)
  -t TGT      the target language's code, for nmt-detokenize
  -b BEAM     beam size (default 5)
  -j THREADS  nmt-decode's threads (default 1)
  -g, --glossary GLOSSARY
              raw \"source term<TAB>target term\" lines: each source term found in a
              sentence puts its target term into the translation (default: none)
  -h, --help  this message
  --version   the recipe's version (rnnsearch's)"
model= codes= src= tgt= beam=5 threads=1 glossary=
while getopts ":m:c:s:t:b:j:g:h-:" opt; do
  case $opt in
    m) model=$OPTARG ;; c) codes=$OPTARG ;; s) src=$OPTARG ;; t) tgt=$OPTARG ;;
    b) beam=$OPTARG ;; j) threads=$OPTARG ;; g) glossary=$OPTARG ;;
    -) case $OPTARG in
         glossary=*) glossary=${OPTARG#glossary=} ;;
         glossary)
           [ "$OPTIND" -le $# ] || die_usage "option --glossary needs a value"
           glossary=${!OPTIND} OPTIND=$((OPTIND + 1)) ;;
         *) common_option "$opt" "$OPTARG" ;;
       esac ;;
    *) common_option "$opt" "${OPTARG:-}" ;;
  esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || die_usage "unexpected argument '$1' (the text comes on standard input)"
[ -n "$model" ] && [ -n "$codes" ] && [ -n "$src" ] && [ -n "$tgt" ] || die_usage "-m, -c, -s and -t are required"
need_file model "$model"
need_file codes "$codes"

tokenize() {  # LANGUAGE: raw text to the model's tokens
  "$(nmt_tool nmt-tokenize)" -l "$1" --no-escape -q
}

# check_glossary FILE SHOWN: nmt-glossary reads FILE (its status and messages, FILE called
# SHOWN in them).
check_glossary() {
  local message
  message=$("$(nmt_tool nmt-glossary)" match -g "$1" -q < /dev/null 2>&1) || { echo "${message//"$1"/$2}" >&2; exit 1; }
}

# The glossary checked as given (its messages name its lines), then each side tokenized as
# its text is, line for line: nmt-glossary match's glossary.
if [ -n "$glossary" ]; then
  need_file glossary "$glossary"
  check_glossary "$glossary" "$glossary"
  work=$(mktemp -d)
  remove_on_exit "$work"
  awk -F '\t' '{ print $1 }' "$glossary" | tokenize "$src" > "$work/source"
  awk -F '\t' '{ print $2 }' "$glossary" | tokenize "$tgt" > "$work/target"
  paste "$work/source" "$work/target" > "$work/glossary"
  check_glossary "$work/glossary" "$glossary (tokenized)"
fi

# BPE'd and translated (with the terms as constraints when there is a glossary), detokenized.
translate_tokens() {
  local constraints=()
  [ -z "$glossary" ] || constraints=(--constraints unordered --constraints-if-missing)
  "$(nmt_tool nmt-bpe)" apply -c "$codes" |
    "$(nmt_tool nmt-decode)" -m "$model" -b "$beam" --max-length 0 --threads "$threads" "${constraints[@]}" -q |
    "$(nmt_tool nmt-bpe)" undo |
    "$(nmt_tool nmt-detokenize)" -l "$tgt" -q
}

translate() {
  if [ -n "$glossary" ]; then
    tokenize "$src" | "$(nmt_tool nmt-glossary)" match -g "$work/glossary" -q | translate_tokens
  else
    tokenize "$src" | translate_tokens
  fi
}
run_job translate
