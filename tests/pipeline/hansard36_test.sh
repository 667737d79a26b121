#!/usr/bin/env bash
# make -f Makefile.pipeline hansard36, shrunk (the first 20,000 Hansard pairs, 300 valid and
# test lines, a tiny model, a few hundred updates) to test the plumbing, not the scores:
#   - raw text -> tokenize -> nmt-clean -> joint BPE -> train -> valid and test translated
#     and scored -> BLEU by source length (buckets up to 60+, table and SVG) -> the report
#     with the training figures (validation share) and the cleaning summary;
#   - a run interrupted during training resumes from its checkpoint;
#   - a second run does nothing;
#   - the peer target would train the PyTorch model on the very files ours trained on.
# Environment (set by ctest): NMT_SOURCE_DIR, NMT_BIN_DIR, NMT_SHARED.
set -euo pipefail
source "$(dirname "$0")/test_env.sh"
require_shared "${NMT_SHARED:?}/data/hansard36/train.en.gz"
out=$work/out

vars=(BUILD="$build" CONFIG=hansard36 THREADS=1 HANSARD36_LINES=20000 HANSARD36_EVAL_LINES=300 BPE_MERGES=2000
      "MODEL_OPTS=--dim-emb 16 --dim-enc 16 --dim-dec 32 --dim-att 16 --dim-maxout 16"
      "TRAIN_OPTS=--mini-batch 32 --max-length 80 --max-updates 400 --valid-freq 200 --save-freq 10 --log-freq 100 --final-model last")
run() { make --no-print-directory -C "$src" -f Makefile.pipeline "${vars[@]}" OUT="$out" "$@"; }

echo "== interrupted during training"
setsid make --no-print-directory -C "$src" -f Makefile.pipeline "${vars[@]}" OUT="$out" pipeline > "$work/first.out" 2>&1 &
first=$!
for _ in $(seq 600); do
  [ -f "$out/train.en-fr/model.bin.ckpt" ] && break
  kill -0 $first 2> /dev/null || break
  sleep 0.1
done
[ -f "$out/train.en-fr/model.bin.ckpt" ] || { tail -20 "$work/first.out"; fail "no checkpoint appeared"; }
kill -TERM -- -$first 2> /dev/null || true
wait $first && fail "the interrupted run succeeded (it should have been stopped during training)"
[ -f "$out/model.en-fr.bin" ] && fail "an interrupted training run left a model"

echo "== resumed to the end"
run pipeline > "$work/second.out" 2>&1 || { tail -30 "$work/second.out"; fail "the resumed run"; }
grep -q "resuming at update" "$out/log/train.en-fr.log" || fail "training did not resume: $(head -5 "$out/log/train.en-fr.log")"
[ "$(wc -l < "$out/raw/train.en")" -eq 20000 ] || fail "HANSARD36_LINES was not applied"
[ "$(wc -l < "$out/raw/test.fr")" -eq 300 ] || fail "HANSARD36_EVAL_LINES was not applied"
kept=$(wc -l < "$out/clean/train.en")
[ "$kept" -eq "$(wc -l < "$out/clean/train.fr")" ] && [ "$kept" -lt 20000 ] && [ "$kept" -gt 19000 ] ||
  fail "nmt-clean kept $kept of 20000 pairs"
grep -qP '^kept\t'"$kept"'$' "$out/clean/summary.txt" || fail "the cleaning summary disagrees: $(cat "$out/clean/summary.txt")"
for s in valid test; do
  [ "$(wc -l < "$out/$s.beam5.fr")" -eq 300 ] || fail "$s translations lost lines"
done
report=$out/report.txt
for expected in "-- valid, beam 5" "-- test, beam 5" "BLEU|nrefs:1" "chrF2|" "60+" "-- training: training ended at update 400" \
                "validations taking" "-- data: 20000 training pairs, $kept after nmt-clean" "-- decoding test: 300 sentences"; do
  grep -qF -- "$expected" "$report" || { cat "$report"; fail "the report lacks '$expected'"; }
done
grep -q "<svg" "$out/length.svg" || fail "no length chart"

echo "== a second run does nothing"
run -q "$out/report.txt" || fail "make -q says the report is not up to date"
touch "$work/marker"
sleep 1
run pipeline > "$work/rerun.out" 2>&1
changed=$(find "$out" -newer "$work/marker" -type f)
[ -z "$changed" ] || fail "the second run changed: $changed"

echo "== the peer trains on the same files"
run -n hansard36-peer > "$work/peer.dry" 2>&1 || { cat "$work/peer.dry"; fail "make -n hansard36-peer"; }
grep -qF -- "--train-src $out/bpe/train.en --train-tgt $out/bpe/train.fr" "$work/peer.dry" ||
  fail "the peer does not read our training files: $(cat "$work/peer.dry")"
echo "OK"
