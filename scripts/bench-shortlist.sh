#!/usr/bin/env bash
# Usage: scripts/bench-shortlist.sh DATA WORK THREADS
# The benchmarks' lexical shortlist of Multi30k De-En (DATA, scripts/prepare-multi30k.sh):
# nmt-align ibm2's table of the training text, then nmt-shortlist --first 100 --best 100
# (Marian's usual setting), written once to WORK/shortlist.100-100, whose path it prints.
set -euo pipefail
cd "$(dirname "$0")/.."
data=$1 work=$2 threads=$3
shortlist=$work/shortlist.100-100
if [ ! -f "$shortlist" ]; then
  mkdir -p "$work"
  cmake --build build -j "$(nproc)" --target nmt-align nmt-vocab nmt-shortlist > /dev/null
  build/bin/nmt-align ibm2 -s "$data/train.bpe.de" -t "$data/train.bpe.en" --save-table "$work/lex.de-en" \
    --threads "$threads" -q -o /dev/null
  build/bin/nmt-vocab -i "$data/train.bpe.en" -o "$work/vocab.en" -q
  build/bin/nmt-shortlist --table "$work/lex.de-en" --target-vocab "$work/vocab.en" --first 100 --best 100 \
    -o "$shortlist" -q
fi
echo "$shortlist"
