#!/usr/bin/env bash
# Behaviour check for changes of structure: runs every tool's main paths on Multi30k De-En
# (scripts/prepare-multi30k.sh) with the binaries in BIN and writes their outputs and a
# SHA256SUMS to OUT. Run it with the binaries before and after a change and compare:
#   scripts/check-unchanged.sh BIN_BEFORE OUT_BEFORE
#   scripts/check-unchanged.sh BIN_AFTER OUT_AFTER
#   diff OUT_BEFORE/SHA256SUMS OUT_AFTER/SHA256SUMS
# Covers a 600-update training (the benchmark configuration, validation with BLEU), a short
# guided-alignment training and an alignment head on top of it, greedy, beam, n-best and
# alignment decoding of the test set, nmt-align (hard, soft, heatmap, ibm2, symmetrize,
# combine, eval), nmt-bleu (BLEU, chrF, TER, paired tests, confidence), nmt-by-length (table
# and chart), nmt-bpe, nmt-tokenize and nmt-detokenize.
# About 5 minutes on 2 cores.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: scripts/check-unchanged.sh BIN OUT" >&2; exit 2; }
bin=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
cd "$(dirname "$0")/.."
shared=$(cd "${NMT_SHARED:-../shared}" && pwd)
data=build/bench-data/multi30k-de-en
./scripts/prepare-multi30k.sh "$data" >/dev/null
data=$(cd "$data" && pwd)
cd "$out"
find . -mindepth 1 -delete

# Text tools.
head -n 2000 "$data/train.tok.de" | "$bin/nmt-bpe" learn -s 2000 -o codes.txt
"$bin/nmt-bpe" apply -c codes.txt < "$data/val.tok.de" > bpe-apply.txt
"$bin/nmt-bpe" undo < bpe-apply.txt > bpe-undo.txt
zcat "$shared/data/multi30k/val.de.gz" | "$bin/nmt-tokenize" -l de > tokenize.txt
"$bin/nmt-detokenize" -l de < tokenize.txt > detokenize.txt

# Training: 600 updates of the benchmark configuration, on 2 threads.
"$bin/nmt-vocab" < "$data/train.bpe.de" > vocab.de.txt
"$bin/nmt-vocab" < "$data/train.bpe.en" > vocab.en.txt
common=(-t "$data/train.bpe.de" "$data/train.bpe.en" -v vocab.de.txt vocab.en.txt --threads 2 -q)
"$bin/nmt-train" "${common[@]}" -m model.bin --valid-sets "$data/val.bpe.de" "$data/val.bpe.en" \
  --dim-emb 256 --dim-enc 256 --dim-dec 512 --dim-att 512 --dim-maxout 256 --mini-batch 64 \
  --dropout 0.3 --label-smoothing 0.1 --valid-freq 300 --save-freq 300 --max-updates 600 \
  --valid-translation-output valid-translation.txt --final-model last

# Guided alignment (by ibm2 links of the tokenized pairs) and an alignment head: small and short.
"$bin/nmt-align" ibm2 -s "$data/train.tok.de" -t "$data/train.tok.en" -o ibm2-fwd.txt
"$bin/nmt-align" ibm2 -s "$data/train.tok.de" -t "$data/train.tok.en" --reverse -o ibm2-rev.txt
"$bin/nmt-align" symmetrize -i ibm2-fwd.txt -j ibm2-rev.txt -c intersect -o ibm2-intersect.txt
"$bin/nmt-train" "${common[@]}" -m guided.bin --dim-emb 64 --dim-enc 64 --dim-dec 96 --dim-att 64 \
  --dim-maxout 64 --max-updates 150 --guided-alignment ibm2-intersect.txt --final-model last
"$bin/nmt-train" "${common[@]}" -m head.bin --pretrained-model guided.bin --alignment-head 32 \
  --max-updates 100 --guided-alignment ibm2-intersect.txt --final-model last

# Decoding the test set.
test_src=$data/test_2016_flickr.bpe.de
"$bin/nmt-decode" -m model.bin -b 1 --threads 2 < "$test_src" > decode-greedy.txt
"$bin/nmt-decode" -m model.bin -b 5 --threads 2 < "$test_src" > decode-beam5.txt
"$bin/nmt-decode" -m model.bin -b 3 --n-best 3 --mini-batch 7 < "$test_src" > decode-nbest.txt
"$bin/nmt-decode" -m model.bin -b 5 --alignment hard --replace-unk --threads 2 < "$test_src" > decode-align.txt
"$bin/nmt-decode" -m guided.bin head.bin -b 4 < "$test_src" > decode-ensemble.txt
"$bin/nmt-decode" -m head.bin -b 2 --alignment soft < "$test_src" > decode-head-soft.txt

# Alignments of the test pairs.
test_tgt=$data/test_2016_flickr.bpe.en
"$bin/nmt-align" -m model.bin -s "$test_src" -t "$test_tgt" --threads 2 -o align-hard.txt
"$bin/nmt-align" -m model.bin -s "$test_src" -t "$test_tgt" --mode soft --merge words -o align-soft.txt
"$bin/nmt-align" -m head.bin -s "$test_src" -t "$test_tgt" --mode threshold -o align-head.txt
"$bin/nmt-train" -t "$data/train.bpe.en" "$data/train.bpe.de" -v vocab.en.txt vocab.de.txt --threads 2 -q -m reverse.bin \
  --dim-emb 64 --dim-enc 64 --dim-dec 96 --dim-att 64 --dim-maxout 64 --max-updates 100 --final-model last
"$bin/nmt-align" -m reverse.bin -s "$test_tgt" -t "$test_src" --mode soft --merge words -o align-reverse-soft.txt
"$bin/nmt-align" combine -i align-soft.txt -j align-reverse-soft.txt -o align-combine.txt
"$bin/nmt-align" heatmap -m model.bin -s "$test_src" -t "$test_tgt" --lines 1,7 -o heatmap.svg
"$bin/nmt-align" symmetrize -i align-hard.txt -j align-head.txt -c grow-diag-final-and -o align-gdfa.txt
"$bin/nmt-align" eval -g align-hard.txt -a align-gdfa.txt > align-eval.txt

# Scoring.
"$bin/nmt-bpe" undo < decode-beam5.txt > hyp-beam5.txt
"$bin/nmt-bpe" undo < decode-greedy.txt > hyp-greedy.txt
"$bin/nmt-bleu" "$data/test_2016_flickr.tok.en" < hyp-beam5.txt > bleu.txt
"$bin/nmt-bleu" "$data/test_2016_flickr.tok.en" -i hyp-beam5.txt hyp-greedy.txt -m bleu chrf ter \
  --paired-bs --paired-bs-n 200 -j 2 > bleu-paired.txt
"$bin/nmt-bleu" "$data/test_2016_flickr.tok.en" -i hyp-beam5.txt hyp-greedy.txt --paired-ar --paired-ar-n 300 \
  -j 2 > bleu-paired-ar.txt
"$bin/nmt-bleu" "$data/test_2016_flickr.tok.en" -i hyp-greedy.txt --confidence --confidence-n 200 -m bleu chrf \
  > bleu-confidence.txt
"$bin/nmt-by-length" -s "$data/test_2016_flickr.tok.de" -r "$data/test_2016_flickr.tok.en" -i hyp-beam5.txt hyp-greedy.txt \
  -n 'beam "5" & <co>' greedy --svg by-length.svg --bucket-width 5 --max-length 20 -o by-length.txt
"$bin/nmt-by-length" -s "$data/test_2016_flickr.tok.de" -r "$data/test_2016_flickr.tok.en" -i hyp-greedy.txt -m chrf \
  --decimals 3 -o by-length-chrf.txt

sha256sum ./*.txt ./*.bin ./*.svg > SHA256SUMS
wc -l < SHA256SUMS | sed 's/$/ files in SHA256SUMS/'
