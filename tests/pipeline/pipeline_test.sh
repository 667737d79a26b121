#!/usr/bin/env bash
# Makefile.pipeline and pipelines/ on a small demo corpus:
#   - the pipeline runs to its report (BLEU, AER, heatmap);
#   - a second run does nothing (make -q agrees, no file changes);
#   - -j2 gives the same files as -j1 (all but the logs and the checkpoints, which hold
#     the training time; the models up to the directory their stored options name);
#   - changing one variable reruns only the stages it affects;
#   - each pipelines/ recipe, run as written, reproduces the pipeline's own results, and
#     translate.sh answers a line while its input stays open (streaming);
#   - the attention-variant target trains each form and writes the length table and chart.
# Environment (set by ctest): NMT_SOURCE_DIR, NMT_BIN_DIR.
set -euo pipefail
src=${NMT_SOURCE_DIR:?}
bin=${NMT_BIN_DIR:?}
build=$(dirname "$bin")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# Small and fast: the point is the plumbing, not the scores.
vars=(BUILD="$build" THREADS=2 DEMO_TRAIN=1200 DEMO_VALID=40 DEMO_TEST=40 BPE_MERGES=300
      "MODEL_OPTS=--dim-emb 16 --dim-enc 32 --dim-dec 32 --dim-att 32 --dim-maxout 16"
      "TRAIN_OPTS=--mini-batch 32 --max-updates 90 --valid-freq 45 --log-freq 45")
pipeline() { make --no-print-directory -C "$src" -f Makefile.pipeline "${vars[@]}" OUT="$1" "${@:2}"; }

echo "== the demo pipeline, -j1"
pipeline "$work/j1" -j1 pipeline > "$work/j1.out" 2>&1 || { tail -30 "$work/j1.out"; fail "pipeline -j1"; }
report=$work/j1/report.txt
for expected in "BLEU|nrefs:1" "chrF2|" "grow-diag-final-and" "forward" "reverse" "heatmap.svg"; do
  grep -qF "$expected" "$report" || fail "report lacks '$expected'"
done
[ "$(wc -l < "$work/j1/test.beam5.xb")" -eq 40 ] || fail "translations lost lines"
grep -q "<svg" "$work/j1/heatmap.svg" || fail "no SVG"

echo "== a second run does nothing"
pipeline "$work/j1" -q "$work/j1/report.txt" || fail "make -q says the report is not up to date"
touch "$work/marker"
sleep 1
pipeline "$work/j1" pipeline > "$work/rerun.out" 2>&1
changed=$(find "$work/j1" -newer "$work/marker" -type f)
[ -z "$changed" ] || fail "the second run changed: $changed"
grep -q "nmt-" "$work/rerun.out" && fail "the second run ran a tool: $(cat "$work/rerun.out")"

echo "== -j2 gives the same files as -j1"
pipeline "$work/j2" -j2 pipeline > "$work/j2.out" 2>&1 || { tail -30 "$work/j2.out"; fail "pipeline -j2"; }
diff -r --exclude=log --exclude=report.txt --exclude="*.ckpt" --exclude="*.bin" --exclude="*.bin.best" \
  "$work/j1" "$work/j2" > "$work/j1-j2.diff" || { head -20 "$work/j1-j2.diff"; fail "-j2 and -j1 differ"; }
# The models store nmt-train's options, whose paths name the directory: compared with j1's
# name read as j2's (of the same length, so the payloads line up), after the header (its
# checksum covers the name).
models=$(cd "$work/j1" && find . -name "*.bin" -o -name "*.bin.best")
[ -n "$models" ] || fail "no models in $work/j1"
for m in $models; do
  cmp <(tail -c +41 "$work/j1/$m" | perl -0777 -pe "s|\Q$work/j1\E|$work/j2|g") <(tail -c +41 "$work/j2/$m") ||
    fail "-j2 and -j1 differ: $m (its payload)"
done
# The reports differ only in the directory they name.
diff <(sed "s|$work/j1|OUT|g" "$work/j1/report.txt") <(sed "s|$work/j2|OUT|g" "$work/j2/report.txt") ||
  fail "the reports differ"

echo "== the recipes in pipelines/ reproduce the pipeline's results"
out=$work/j1
export NMT_BIN=$bin
"$src/pipelines/translate.sh" -m "$out/model.xa-xb.bin" -c "$out/bpe/codes" -s xa -t xb -j 2 \
  < "$out/raw/test.xa" > "$work/translated.xb"
cmp "$work/translated.xb" "$out/test.beam5.xb" || fail "translate.sh differs from the pipeline's translations"
"$src/pipelines/evaluate.sh" -m "$out/model.xa-xb.bin" -c "$out/bpe/codes" -s xa -t xb \
  -i "$out/raw/test.xa" -r "$out/raw/test.xb" -o "$work/evaluated.xb" > "$work/scores"
cmp "$work/scores" "$out/test.beam5.scores" || fail "evaluate.sh scores differ from the pipeline's"
cmp "$work/evaluated.xb" "$out/test.beam5.xb" || fail "evaluate.sh -o translations differ"
"$src/pipelines/align-both-ways.sh" -f "$out/model.xa-xb.bin" -r "$out/model.xb-xa.bin" -c "$out/bpe/codes" \
  -s xa -t xb -i "$out/raw/test.xa" -j "$out/raw/test.xb" -d "$work/aligned" > "$work/gdfa"
cmp "$work/gdfa" "$out/align/test.grow-diag-final-and" || fail "align-both-ways.sh differs from the pipeline"
cmp "$work/aligned/forward" "$out/align/test.forward" || fail "align-both-ways.sh forward links differ"
"$src/pipelines/align-both-ways.sh" -f "$out/model.xa-xb.bin" -r "$out/model.xb-xa.bin" -c "$out/bpe/codes" \
  -s xa -t xb -i "$out/raw/test.xa" -j "$out/raw/test.xb" -H intersect > "$work/intersect"
cmp "$work/intersect" "$out/align/test.intersect" || fail "align-both-ways.sh -H intersect differs"

echo "== translate.sh streams: a line comes back while stdin stays open"
coproc TRANSLATE { "$src/pipelines/translate.sh" -m "$out/model.xa-xb.bin" -c "$out/bpe/codes" -s xa -t xb; }
head -1 "$out/raw/test.xa" >&"${TRANSLATE[1]}"
read -r -t 60 answer <&"${TRANSLATE[0]}" || fail "no translation within 60 s while the input stays open"
[ "$answer" = "$(head -1 "$out/test.beam5.xb")" ] || fail "streamed translation differs: $answer"
exec {TRANSLATE[1]}>&-
wait "$TRANSLATE_PID" || fail "translate.sh failed after its input closed"

echo "== usage errors"
set +e
"$src/pipelines/translate.sh" -c "$out/bpe/codes" -s xa -t xb < /dev/null 2> "$work/err"; code=$?
set -e
[ $code -eq 2 ] || fail "translate.sh without -m exited $code, not 2"
grep -q "required" "$work/err" || fail "no usage message: $(cat "$work/err")"

echo "== changing one variable reruns only what it affects"
pipeline "$work/j1" -n pipeline HEATMAP_LINES=2 > "$work/dry-run"
grep -q "nmt-align heatmap" "$work/dry-run" || fail "HEATMAP_LINES did not redo the heatmap"
grep -q "nmt-train\|nmt-decode" "$work/dry-run" && fail "HEATMAP_LINES would retrain or redecode"
pipeline "$work/j1" -n pipeline BPE_MERGES=200 > "$work/dry-run"
grep -q "nmt-bpe learn" "$work/dry-run" || fail "BPE_MERGES did not relearn BPE"
grep -q "nmt-demo-corpus\|nmt-tokenize" "$work/dry-run" && fail "BPE_MERGES would regenerate or retokenize"
echo "== the attention variants and BLEU by sentence length"
pipeline "$work/j1" variants ATTENTIONS="additive none" VARIANT_OPTS="--mini-batch 32 --max-updates 40" \
  "LENGTH_OPTS=--bucket-width 5 --max-length 15" > "$work/variants.out" 2>&1 || {
  tail -30 "$work/variants.out"; fail "make variants"; }
for expected in "source words" "0-5" "15+" "additive" "none" "all"; do
  grep -qF -- "$expected" "$work/j1/variants/length.txt" || fail "length table lacks '$expected'"
done
[ "$(grep -c "<polyline" "$work/j1/variants/length.svg")" -ge 2 ] || fail "the length chart has no lines"
grep -q "att none" "$work/j1/log/variant.none.log" || fail "the none variant's log does not name its attention"
echo "all pipeline checks passed"
