#!/usr/bin/env bash
# Prepares Multi30k De-En the way the benchmarks and the PyTorch peer use it: Moses-style
# tokenization (cased, --no-escape) with nmt-tokenize, a joint BPE of 8000 merges learned
# on train de+en with nmt-bpe, applied to train, val and test_2016_flickr.
#   scripts/prepare-multi30k.sh OUT_DIR [BIN_DIR]
# Reads $NMT_SHARED/data/multi30k (default ../shared). Does nothing for files already made.
set -euo pipefail
out=${1:?usage: prepare-multi30k.sh OUT_DIR [BIN_DIR]}
bin=${2:-build/bin}
raw=${NMT_SHARED:-../shared}/data/multi30k
mkdir -p "$out"
for split in train val test_2016_flickr; do
  for lang in de en; do
    [ -s "$out/$split.tok.$lang" ] || zcat "$raw/$split.$lang.gz" | "$bin/nmt-tokenize" -l "$lang" --no-escape \
      -o "$out/$split.tok.$lang"
  done
done
[ -s "$out/codes" ] || cat "$out/train.tok.de" "$out/train.tok.en" | "$bin/nmt-bpe" learn -s 8000 -o "$out/codes"
for split in train val test_2016_flickr; do
  for lang in de en; do
    [ -s "$out/$split.bpe.$lang" ] || "$bin/nmt-bpe" apply -c "$out/codes" -i "$out/$split.tok.$lang" \
      -o "$out/$split.bpe.$lang"
  done
done
