#!/usr/bin/env bash
# make -f Makefile.pipeline paper (pipelines/paper.mk), shrunk to the plumbing: the first
# 4,000 Hansard pairs, 400 test lines, tiny models, 40 updates each, two jobs at a time:
#   - the 30- and 50-word training sets hold exactly the cleaned pairs of at most 30 or 50
#     tokenized words a side, and their BPE lines are those pairs' lines;
#   - four models (RNNsearch with attention, RNNencdec without), each translating the whole
#     test set; the by-length table's pooled row equals nmt-bleu on the whole set for each;
#     the chart has the four names and the sentences per bucket;
#   - figure 3: four word-level heatmaps (the paper's sentence first), no BPE joints left;
#   - the report names what each model saw; a second run does nothing;
#   - the PyTorch peer would train on the 50-word files; a test line that does not exist
#     is an error naming PAPER_FIGURE_LINES;
#   - a PAPER_VARIANTS model would train with its options beside the four (which stay
#     trained) and be a column of figure 2; a name without its limit is an error.
# Environment (set by ctest): NMT_SOURCE_DIR, NMT_BIN_DIR, NMT_SHARED.
set -euo pipefail
source "$(dirname "$0")/test_env.sh"
require_shared "${NMT_SHARED:?}/data/hansard36/train.en.gz"
out=$work/out
paper=$out/paper

vars=(BUILD="$build" CONFIG=hansard36 THREADS=1 HANSARD36_LINES=4000 HANSARD36_EVAL_LINES=400 BPE_MERGES=800
      NMT_SHARED="$NMT_SHARED" PAPER_PEER=no PAPER_FIGURE_LINES="310 350 398" "PAPER_TRAIN_LIMIT=--max-updates 40"
      "MODEL_OPTS=--dim-emb 16 --dim-enc 16 --dim-dec 32 --dim-att 16 --dim-maxout 16")
run() { make --no-print-directory -C "$src" -f Makefile.pipeline "${vars[@]}" OUT="$out" "$@"; }

echo "== the paper target, shrunk"
run -j2 paper-report > "$work/run.out" 2>&1 || { tail -30 "$work/run.out"; fail "make paper-report"; }

echo "== the training sets: at most 30 or 50 words a side, BPE lines of the same pairs"
for n in 30 50; do
  awk -v n=$n 'NF > n {exit 1}' "$paper/data/$n/words.en" "$paper/data/$n/words.fr" || fail "a $n-word pair is longer"
  # The kept pairs are exactly the cleaned pairs within the limit.
  expected=$(paste -d '\t' "$out/clean/train.en" "$out/clean/train.fr" |
             awk -F '\t' -v n=$n '{a = split($1, x, " "); b = split($2, y, " ")} a <= n && b <= n' | wc -l)
  [ "$(wc -l < "$paper/data/$n/train.en")" -eq "$expected" ] || fail "$n words: $(wc -l < "$paper/data/$n/train.en") pairs, expected $expected"
  diff <(sed 's/@@ //g' "$paper/data/$n/train.fr") "$paper/data/$n/words.fr" > /dev/null ||
    fail "$n words: the BPE lines are not the kept pairs' lines"
done
[ "$(wc -l < "$paper/data/30/train.en")" -lt "$(wc -l < "$paper/data/50/train.en")" ] || fail "30 words kept as many as 50"

echo "== four models, the whole test set each, the pooled row is nmt-bleu"
models=(RNNsearch-50 RNNsearch-30 RNNencdec-50 RNNencdec-30)
header=$(sed -n 2p "$paper/length.txt")
pooled=$(grep '^all ' "$paper/length.txt")
for k in "${!models[@]}"; do
  m=${models[$k]}
  [ -f "$paper/model.$m.bin" ] || fail "no model $m"
  [ "$(wc -l < "$paper/test.$m.fr")" -eq 400 ] || fail "$m: the test translation lost lines"
  legend=${m/RNNencdec/RNNenc}  # the paper's figure legend
  # The header's columns: "source words sentences NAME...", the pooled row's "all N SCORE...".
  [ "$(echo "$header" | awk -v k=$((k + 4)) '{print $k}')" = "$legend" ] || fail "column $((k + 4)) of '$header' is not $legend"
  table=$(echo "$pooled" | awk -v k=$((k + 3)) '{print $k}')
  whole=$("$bin/nmt-bleu" "$out/raw/test.fr" -i "$paper/test.$m.fr" -b -w 2)
  [ "$table" = "$whole" ] || fail "$m: the pooled row says $table, nmt-bleu on the whole test set $whole"
done
grep -q -- "--attention none" <(grep -h "nmt-train" "$work/run.out" | grep RNNencdec-50) || fail "RNNencdec-50 has attention"
grep -q -- "--attention additive" <(grep -h "nmt-train" "$work/run.out" | grep RNNsearch-30) || fail "RNNsearch-30 has no attention"
[ "$(grep -c '^[0-9]' "$paper/length.txt")" -eq 7 ] || fail "not 7 buckets up to 60+: $(cat "$paper/length.txt")"
grep -q '^60+ ' "$paper/length.txt" || fail "no 60+ bucket"
for m in RNNsearch-50 RNNsearch-30 RNNenc-50 RNNenc-30; do
  grep -q ">$m</text>" "$paper/length.svg" || fail "the chart has no legend for $m"
done
grep -q ">n=[0-9]*</text>" "$paper/length.svg" || fail "the chart does not show the sentences per bucket"

echo "== figure 3: word heatmaps of the paper's sentence and three test lines"
for k in 1 2 3 4; do
  svg=$paper/figure3/attention.$k.svg
  grep -q "<svg" "$svg" || fail "no heatmap $k"
  grep -q "@@" "$svg" && fail "heatmap $k shows BPE pieces"
done
grep -q ">European<" "$paper/figure3/attention.1.svg" || fail "heatmap 1 is not the paper's sentence"
[ "$(sed -n 2p "$paper/figure3/source.en")" = "$(sed -n 310p "$out/raw/test.en")" ] || fail "figure line 2 is not test line 310"

echo "== the report"
for expected in "-- RNNsearch-50: 40 updates" "-- RNNencdec-30: 40 updates" "target tokens seen" \
                "-- pairs of at most 30 words a side" "-- decoding RNNencdec-50: 400 sentences" "60+" \
                "1. The agreement on the European Economic Area was signed in August 1992."; do
  grep -qF -- "$expected" "$paper/report.txt" || { cat "$paper/report.txt"; fail "the report lacks '$expected'"; }
done

echo "== a second run does nothing"
run -q "$paper/report.txt" || fail "make -q says the report is not up to date"

echo "== the peer trains on the 50-word files; a missing figure line is named"
run -n paper-report PAPER_PEER=yes > "$work/peer.dry" 2>&1 || { cat "$work/peer.dry"; fail "make -n with the peer"; }
grep -qF -- "--train-src $paper/data/50/train.en --train-tgt $paper/data/50/train.fr" "$work/peer.dry" ||
  fail "the peer does not read the 50-word files: $(grep -m1 rnnsearch.py "$work/peer.dry")"
if run "$paper/figure3/source.en" PAPER_FIGURE_LINES="5 401 7" > "$work/bad.out" 2>&1; then
  fail "a figure line past the test set was accepted"
fi
grep -q "PAPER_FIGURE_LINES" "$work/bad.out" || fail "the error does not name PAPER_FIGURE_LINES: $(tail -3 "$work/bad.out")"

echo "== a variant trains beside the four with its options and is a column of figure 2"
run -n paper-report "PAPER_VARIANTS=RNNsearch-LN-50:--layer-normalization --enc-cell-depth 2" > "$work/variant.dry" 2>&1 ||
  { cat "$work/variant.dry"; fail "make -n with a variant"; }
grep -E -- "nmt-train -t $paper/data/50/train.en .*-m $paper/train.RNNsearch-LN-50/model.bin .*--attention additive .*--threads 1 --layer-normalization --enc-cell-depth 2 2>&1" \
  "$work/variant.dry" > /dev/null || fail "the variant's training: $(grep -m1 'RNNsearch-LN-50/model.bin' "$work/variant.dry")"
grep -q -- "-n RNNsearch-50 RNNsearch-30 RNNenc-50 RNNenc-30 RNNsearch-LN-50 " "$work/variant.dry" ||
  fail "the variant is not a column: $(grep -m1 nmt-by-length "$work/variant.dry")"
grep -q "train.RNNsearch-30/model.bin" "$work/variant.dry" && fail "a variant retrains the paper's models"
if run -n paper-report "PAPER_VARIANTS=RNNsearch-50b:--seed 3" > "$work/badname.out" 2>&1; then
  fail "a variant name without its limit was accepted"
fi
grep -q "PAPER_VARIANTS names must read" "$work/badname.out" || fail "the bad name is not named: $(tail -2 "$work/badname.out")"
echo "OK"
