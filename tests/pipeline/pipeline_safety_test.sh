#!/usr/bin/env bash
# Makefile.pipeline is safe to look at and safe on your own corpus:
#   - make -n and make -q on a finished pipeline change no file under OUT, also with a
#     changed variable (which they show as work to do), and the next make does nothing;
#   - a trained model whose stored options equal the requested ones is kept when only its
#     options file is newer, and one that is discarded is named on one line;
#   - CONFIG=custom reads plain and .gz files, requires SRC and TGT, passes TRAIN_MINUTES
#     (as --max-minutes) and EXTRA_TRAIN_OPTS (added to TRAIN_OPTS) to nmt-train, decodes
#     whole sentences, and its report gives the command that translates new text (the
#     installed rnnsearch-translate, and the checkout's pipelines/translate.sh);
#   - a .gz that is not gzip leaves no temporary file, options holding shell characters are
#     refused naming the variable;
#   - make help lists the targets and variables; a target that hands over to a make of its
#     own CONFIG (hansard36-study, paper, ...) writes no options file under OUT itself.
# Environment (set by ctest): NMT_SOURCE_DIR, NMT_BIN_DIR.
set -euo pipefail
source "$(dirname "$0")/test_env.sh"

vars=(BUILD="$build" THREADS=2 BPE_MERGES=300
      "MODEL_OPTS=--dim-emb 16 --dim-enc 32 --dim-dec 32 --dim-att 32 --dim-maxout 16"
      "TRAIN_OPTS=--mini-batch 32 --max-updates 60 --valid-freq 30 --log-freq 30")
demo_vars=(DEMO_TRAIN=800 DEMO_VALID=30 DEMO_TEST=30)
pipeline() { make --no-print-directory -C "$src" -f Makefile.pipeline "${vars[@]}" OUT="$1" "${@:2}"; }

# state DIR: every file under DIR with its modification time and checksum.
state() { (cd "$1" && find . -type f -printf '%p %T@\n' | sort && find . -type f -exec md5sum {} + | sort); }

echo "== make help"
pipeline "$work/demo" help > "$work/help" || fail "make help exits non-zero"
for expected in pipeline multi30k custom TRAIN_MINUTES EXTRA_TRAIN_OPTS CORPUS_DIR HEATMAP_LINES; do
  grep -q "$expected" "$work/help" || fail "make help does not mention $expected"
done
[ ! -e "$work/demo" ] || fail "make help created $work/demo"

echo "== a target that hands over to its own CONFIG writes nothing under OUT itself"
# hansard36-study with OUT given: this make parses the demo's configuration, whose options
# files would overwrite the hansard36 make's own (the tools' build is taken as done and the
# handed-over make is 'true', so only this make's parse runs).
for goal in hansard36-study hansard36 paper multi30k; do
  pipeline "$work/handover" -o build MAKE=true "$goal" > /dev/null || fail "make $goal (handed over to true) failed"
  [ ! -e "$work/handover" ] || fail "make $goal wrote $(ls -R "$work/handover" | head -5)"
done

echo "== a finished demo pipeline"
out=$work/demo
pipeline "$out" "${demo_vars[@]}" pipeline > "$work/run.out" 2>&1 || { tail -30 "$work/run.out"; fail "pipeline"; }
grep -q "^-- test, beam 5: BLEU" "$work/run.out" || fail "the run does not print the test BLEU as it is scored"
grep -qx "   rnnsearch-translate -m $out/model.xa-xb.bin -c $out/bpe/codes -s xa -t xb < in.xa > out.xb" "$out/report.txt" ||
  fail "the report does not give the command that translates new text: $(tail -4 "$out/report.txt")"
tail -1 "$out/report.txt" | grep -qxF "   pipelines/translate.sh in the checkout with the same options" ||
  fail "the report does not end with the checkout's recipe: $(tail -2 "$out/report.txt")"
state "$out" > "$work/before"

echo "== make -n and make -q change nothing"
pipeline "$out" "${demo_vars[@]}" -n pipeline > "$work/dry" 2>&1 || fail "make -n exits non-zero"
grep -q "nmt-" "$work/dry" && fail "make -n on a finished pipeline would run: $(grep nmt- "$work/dry" | head -3)"
pipeline "$out" "${demo_vars[@]}" -q "$out/report.txt" || fail "make -q says the finished report is out of date"
pipeline "$out" "${demo_vars[@]}" -n pipeline EXTRA_TRAIN_OPTS="--seed 7" > "$work/dry" 2>&1 ||
  fail "make -n with another variable exits non-zero"
grep -q "nmt-train" "$work/dry" || fail "make -n does not show the retraining EXTRA_TRAIN_OPTS asks for"
set +e
pipeline "$out" "${demo_vars[@]}" -q "$out/report.txt" EXTRA_TRAIN_OPTS="--seed 7"; code=$?
pipeline "$out" "${demo_vars[@]}" -n pipeline BPE_MERGES=200 TRAIN_MINUTES=3 > /dev/null 2>&1
set -e
[ $code -eq 1 ] || fail "make -q with other training options exits $code, not 1"
state "$out" > "$work/after"
diff "$work/before" "$work/after" > "$work/changes" || { head "$work/changes"; fail "make -n or make -q changed files"; }

echo "== the next make does nothing"
pipeline "$out" "${demo_vars[@]}" pipeline > "$work/rerun.out" 2>&1 || fail "the rerun failed"
grep -q "nmt-" "$work/rerun.out" && fail "the run after make -n ran a tool: $(grep nmt- "$work/rerun.out" | head -3)"
state "$out" > "$work/after"
diff "$work/before" "$work/after" > "$work/changes" || { head "$work/changes"; fail "the rerun changed files"; }

echo "== a model that stores the requested options is kept"
cp "$out/model.xa-xb.bin" "$work/model.before"
sleep 1
touch "$out/config/train.xa-xb.opts"
pipeline "$out" "${demo_vars[@]}" pipeline > "$work/kept.out" 2>&1 || { tail "$work/kept.out"; fail "the run failed"; }
grep -q "kept $out/model.xa-xb.bin" "$work/kept.out" || fail "no line says the model is kept: $(cat "$work/kept.out")"
grep -q "^nmt-train --\|nmt-decode -m" "$work/kept.out" && fail "a kept model was retrained or decoded again"
cmp -s "$work/model.before" "$out/model.xa-xb.bin" || fail "the kept model changed"
pipeline "$out" "${demo_vars[@]}" -q "$out/report.txt" || fail "after keeping the model the report is out of date"

echo "== a discarded model is named"
pipeline "$out" "${demo_vars[@]}" "$out/model.xa-xb.bin" EXTRA_TRAIN_OPTS="--seed 7" > "$work/retrain.out" 2>&1 ||
  { tail "$work/retrain.out"; fail "retraining failed"; }
grep -q "^Makefile.pipeline: .*model.xa-xb.* from scratch" "$work/retrain.out" ||
  fail "nothing says the trained model is discarded: $(head -3 "$work/retrain.out")"
cmp -s "$work/model.before" "$out/model.xa-xb.bin" && fail "other options did not retrain the model"

echo "== CONFIG=custom: your own corpus"
corpus=$work/corpus
"$bin/nmt-demo-corpus" -o "$corpus" --train 800 --valid 30 --test 30 --seed 3 > /dev/null 2>&1
gzip "$corpus/train.xa" "$corpus/valid.xb"
set +e
pipeline "$work/custom" CONFIG=custom CORPUS_DIR="$corpus" pipeline > "$work/nosrc.out" 2>&1; code=$?
set -e
[ $code -ne 0 ] || fail "CONFIG=custom without SRC and TGT succeeded"
grep -q "needs SRC and TGT.*train.xa.gz" "$work/nosrc.out" || fail "no message names SRC, TGT and the files: $(cat "$work/nosrc.out")"
custom=(CONFIG=custom CORPUS_DIR="$corpus" SRC=xa TGT=xb TRAIN_MINUTES=2 EXTRA_TRAIN_OPTS="--seed 11" BEAMS=1)
pipeline "$work/custom" "${custom[@]}" pipeline > "$work/custom.out" 2>&1 || { tail -30 "$work/custom.out"; fail "custom pipeline"; }
stored=$("$bin/nmt-train" --dump-config -m "$work/custom/model.xa-xb.bin")
grep -qx "max-minutes = 2" <<< "$stored" || fail "TRAIN_MINUTES=2 did not reach nmt-train: $(grep minutes <<< "$stored")"
grep -qx "seed = 11" <<< "$stored" || fail "EXTRA_TRAIN_OPTS did not reach nmt-train"
grep -qx "max-updates = 60" <<< "$stored" || fail "EXTRA_TRAIN_OPTS replaced TRAIN_OPTS"
cmp <(zcat "$corpus/train.xa.gz") "$work/custom/raw/train.xa" || fail "train.xa.gz was not read as its text"
[ "$(wc -l < "$work/custom/test.beam1.xb")" -eq 30 ] || fail "the custom translations lost lines"
grep -q -- "--max-length 0" "$work/custom/config/decode.opts" || fail "the pipeline decodes with a source length cap"
grep -q "^   rnnsearch-translate -m $work/custom/model.xa-xb.bin" "$work/custom/report.txt" ||
  fail "the custom report does not give the translate command"
echo "== a .gz that is not gzip, options holding shell characters"
bad=$work/bad-corpus
cp -r "$corpus" "$bad"
echo "not gzip data" > "$bad/train.xa.gz"
set +e
pipeline "$work/bad" CONFIG=custom CORPUS_DIR="$bad" SRC=xa TGT=xb "$work/bad/raw/train.xa" > "$work/bad.out" 2>&1
code=$?
set -e
[ $code -ne 0 ] || fail "a .gz that is not gzip data was taken"
grep -q "train.xa.gz" "$work/bad.out" || fail "no message names the bad .gz: $(cat "$work/bad.out")"
[ -z "$(ls -A "$work/bad/raw")" ] || fail "a failed unpacking left $(ls -A "$work/bad/raw")"
set +e
pipeline "$work/custom" "${custom[@]}" EXTRA_TRAIN_OPTS="--seed 7 #'" pipeline > "$work/quote.out" 2>&1
code=$?
set -e
[ $code -eq 2 ] || fail "EXTRA_TRAIN_OPTS holding a quote exits $code, not make's 2"
grep -q "EXTRA_TRAIN_OPTS=.*holds a shell character" "$work/quote.out" || fail "no message names EXTRA_TRAIN_OPTS: $(cat "$work/quote.out")"
echo "all pipeline safety checks passed"
