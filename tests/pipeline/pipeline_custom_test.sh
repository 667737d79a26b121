#!/usr/bin/env bash
# Makefile.pipeline CONFIG=custom on a small generated corpus, as a new user runs it:
#   - both directions by default (two nmt-train commands in make -n), one with
#     DIRECTIONS=forward; a bad DIRECTIONS, and GOLD with DIRECTIONS=forward, are refused;
#   - sides of a set with different line counts (plain or .gz) stop the run before any
#     tokenizing, one line naming the user's two files and their counts;
#   - CORPUS_DIR and OUT holding spaces run to the report, which names the user's paths
#     and trains and scores both directions; a missing file is named as the user wrote it;
#   - make -q with no target (and with pipeline) exits 0 on the finished report, 1 when a
#     variable changes what it shows or OUT is another folder, and changes nothing;
#   - the report gives the installed rnnsearch-translate with the model and codes, the
#     checkout's pipelines/translate.sh, and the update each model comes from when the
#     training log says it (the last "final model:" and "training ended at" lines).
# Environment (set by ctest): NMT_SOURCE_DIR, NMT_BIN_DIR.
set -euo pipefail
source "$(dirname "$0")/test_env.sh"
# The pipeline works on these paths through links in the checkout's work/.paths: removed
# with the folders they name.
remove_links() {
  local link
  for link in "$src"/work/.paths/*; do
    case $(readlink "$link") in "$work"/*) rm -f "$link" ;; esac
  done
  rm -rf "$work"
}
trap remove_links EXIT

corpus="$work/my corpus" out="$work/my out"
"$bin/nmt-demo-corpus" -o "$corpus" --train 800 --valid 30 --test 30 --seed 7 > /dev/null 2>&1
gzip "$corpus/valid.xb"
vars=(BUILD="$build" THREADS=2 BPE_MERGES=300 CONFIG=custom SRC=xa TGT=xb BEAMS=1 TRAIN_MINUTES=
      "MODEL_OPTS=--dim-emb 16 --dim-enc 32 --dim-dec 32 --dim-att 32 --dim-maxout 16"
      "TRAIN_OPTS=--mini-batch 32 --max-updates 40 --valid-freq 20 --log-freq 20")
pipeline() { make --no-print-directory -C "$src" -f Makefile.pipeline "${vars[@]}" "$@"; }
# state DIR: every file under DIR with its modification time and checksum.
state() { (cd "$1" && find . -type f -printf '%p %T@\n' | sort && find . -type f -exec md5sum {} + | sort); }

echo "== DIRECTIONS: both by default, forward on request"
plain=$work/plain
cp -r "$corpus" "$plain"
[ "$(pipeline -n CORPUS_DIR="$plain" OUT="$work/dry" | grep -c nmt-train)" -eq 2 ] ||
  fail "make -n CONFIG=custom does not train two models"
[ "$(pipeline -n CORPUS_DIR="$plain" OUT="$work/dry" DIRECTIONS=forward | grep -c nmt-train)" -eq 1 ] ||
  fail "make -n CONFIG=custom DIRECTIONS=forward does not train one model"
[ ! -e "$work/dry" ] || fail "make -n created $work/dry"
# The recommended architecture by default (vars hold no ARCH_OPTS); ARCH_OPTS= is the 2015 model.
arch="--layer-normalization --enc-cell-depth 2 --dec-cell-depth 2"
[ "$(make --no-print-directory -C "$src" -f Makefile.pipeline -n CONFIG=custom SRC=xa TGT=xb BUILD="$build" \
      CORPUS_DIR="$plain" OUT="$work/dry" | grep nmt-train | grep -c -- "$arch")" -eq 2 ] ||
  fail "CONFIG=custom does not train the recommended architecture ($arch) by default"
[ "$(pipeline -n CORPUS_DIR="$plain" OUT="$work/dry" ARCH_OPTS= | grep nmt-train | grep -c -- "--layer-normalization")" -eq 0 ] ||
  fail "ARCH_OPTS= still trains with layer normalisation"
pipeline CORPUS_DIR="$plain" OUT="$work/dry" DIRECTIONS=both help | grep "DIRECTIONS.*now: both" > /dev/null ||
  fail "make help does not give DIRECTIONS with its value"
set +e
pipeline -n CORPUS_DIR="$plain" OUT="$work/dry" DIRECTIONS=backward > "$work/err" 2>&1; code=$?
pipeline -n CORPUS_DIR="$plain" OUT="$work/dry" DIRECTIONS=forward GOLD="$plain/test.align" > "$work/err2" 2>&1; code2=$?
set -e
[ $code -eq 2 ] && grep -q "DIRECTIONS must be both or forward, got 'backward'" "$work/err" ||
  fail "DIRECTIONS=backward: exit $code, $(cat "$work/err")"
[ $code2 -eq 2 ] && grep -q "ALIGN=yes.*needs DIRECTIONS=both" "$work/err2" ||
  fail "GOLD with DIRECTIONS=forward: exit $code2, $(cat "$work/err2")"

echo "== sides of different lengths stop the run before tokenizing"
short="$work/short corpus"
cp -r "$corpus" "$short"
sed -i '$d' "$short/train.xb"
set +e
pipeline CORPUS_DIR="$short" OUT="$work/short out" pipeline > "$work/short.out" 2> "$work/short.err"; code=$?
set -e
[ $code -ne 0 ] || fail "train files of 800 and 799 lines were taken"
grep -qxF "Makefile.pipeline: $short/train.xa has 800 lines, $short/train.xb has 799: the two sides of a set need one line per sentence pair" \
  "$work/short.err" || fail "no line names the user's train files and their counts: $(cat "$work/short.err")"
[ ! -e "$work/short out/tok" ] || fail "the corpus was tokenized before its line counts were checked"
grep -q "nmt-" "$work/short.out" && fail "a tool ran before the line counts were checked: $(grep nmt- "$work/short.out")"
head -29 "$corpus/test.xa" | gzip > "$short/test.xa.gz" && rm "$short/test.xa"
sed -n '$p' "$corpus/train.xa" >> "$short/train.xb"
set +e
pipeline CORPUS_DIR="$short" OUT="$work/short out" pipeline > /dev/null 2> "$work/short.err"; code=$?
set -e
[ $code -ne 0 ] && grep -qF "$short/test.xa.gz has 29 lines, $short/test.xb has 30" "$work/short.err" ||
  fail "a .gz side with fewer lines: exit $code, $(cat "$work/short.err")"
set +e
pipeline CORPUS_DIR="$work/no such corpus" OUT="$work/short out" pipeline > /dev/null 2> "$work/missing.err"; code=$?
set -e
[ $code -ne 0 ] && grep -qF "$work/no such corpus/train.xa (or train.xa.gz) does not exist" "$work/missing.err" ||
  fail "a missing corpus folder holding spaces: exit $code, $(cat "$work/missing.err")"

echo "== CORPUS_DIR and OUT holding spaces, both directions"
pipeline CORPUS_DIR="$corpus" OUT="$out" pipeline > "$work/run.out" 2>&1 || { tail -20 "$work/run.out"; fail "pipeline"; }
report=$out/report.txt
[ -f "$report" ] || fail "no report in $out"
[ "$(grep -c '^nmt-train --overwrite' "$work/run.out")" -eq 2 ] || fail "the run did not train two models"
[ -f "$out/model.xa-xb.bin" ] && [ -f "$out/model.xb-xa.bin" ] || fail "the models are not in $out"
cmp <(zcat "$corpus/valid.xb.gz") "$out/raw/valid.xb" || fail "valid.xb.gz was not read as its text"
[ "$(wc -l < "$out/reverse/test.beam1.xa")" -eq 30 ] || fail "the reverse translations lost lines"
for expected in "== custom: xa -> xb, test set $out/raw/test.xa (30 sentences)" \
                "-- test, beam 1 (detokenized, cased):" \
                "-- test, the reverse model xb -> xa, beam 1 (detokenized, cased):" \
                "-- the model: $out/model.xa-xb.bin (BPE codes $out/bpe/codes); translate raw xa text with" \
                "   rnnsearch-translate -m '$out/model.xa-xb.bin' -c '$out/bpe/codes' -s xa -t xb < in.xa > out.xb" \
                "-- the reverse model: $out/model.xb-xa.bin (BPE codes $out/bpe/codes); translate raw xb text with" \
                "   rnnsearch-translate -m '$out/model.xb-xa.bin' -c '$out/bpe/codes' -s xb -t xa < in.xb > out.xa" \
                "   pipelines/translate.sh in the checkout with the same options"; do
  grep -qxF -- "$expected" "$report" || { cat "$report"; fail "the report lacks the line '$expected'"; }
done
grep -q "^-- attention heatmap of test lines [0-9,]*: $out/heatmap.svg$" "$report" || fail "the heatmap's line"
[ "$(grep -c "BLEU|nrefs:1" "$report")" -eq 2 ] || fail "the report does not score both directions"
# The reverse scores are nmt-bleu's against the raw source side.
"$bin/nmt-bleu" "$corpus/test.xa" -i "$out/reverse/test.beam1.xa" -m bleu chrf -f text > "$work/reverse.scores"
cmp "$work/reverse.scores" "$out/reverse/test.beam1.scores" || fail "the reverse scores are not the test set's"

echo "== make -q on the report"
state "$out" > "$work/before"
pipeline -q CORPUS_DIR="$corpus" OUT="$out" || fail "make -q (no target) says the finished report is out of date"
pipeline -q CORPUS_DIR="$corpus" OUT="$out" pipeline || fail "make -q pipeline says the finished report is out of date"
set +e
pipeline -q CORPUS_DIR="$corpus" OUT="$out" DIRECTIONS=forward; code_directions=$?
pipeline -q CORPUS_DIR="$corpus" OUT="$out" BEAMS=2; code_beams=$?
pipeline -q CORPUS_DIR="$corpus" OUT="$work/other out"; code_other=$?
set -e
[ $code_directions -eq 1 ] || fail "make -q with DIRECTIONS=forward exits $code_directions, not 1"
[ $code_beams -eq 1 ] || fail "make -q with BEAMS=2 exits $code_beams, not 1"
[ $code_other -eq 1 ] || fail "make -q with an OUT not yet made exits $code_other, not 1"
[ ! -e "$work/other out" ] || fail "make -q created $work/other out"
state "$out" > "$work/after"
diff "$work/before" "$work/after" > "$work/changes" || { head "$work/changes"; fail "make -q changed files"; }

echo "== the report names the update each model comes from"
grep -q "update [0-9]* of [0-9]*" "$report" && ! grep -q "^final model: update" "$out/log/train.xa-xb.log" &&
  fail "the report names an update its training log does not give"
# nmt-train's last lines, as a resumed run appends them: the report reads the last ones.
for log in "$out/log/train.xa-xb.log" "$out/log/train.xb-xa.log"; do
  printf '%s\n' "final model: update 20 (the best validated; the last update, 40, is worse on valid)" \
    "training ended at update 90 (--max-updates 90) after 0.1 minutes, 1000 target tokens seen" >> "$log"
done
echo "final model: update 90 (the last update; better on valid than the best validated, update 60)" \
  >> "$out/log/train.xa-xb.log"
echo "final model: update 90 (the last update; --final-model last)" >> "$out/log/train.xb-xa.log"
rm "$report"
pipeline CORPUS_DIR="$corpus" OUT="$out" pipeline > "$work/report.out" 2>&1 || fail "the report was not remade"
grep -q "^nmt-" "$work/report.out" && fail "remaking the report ran a tool"
for expected in "-- the model: update 90 of 90 (the last update; better on valid than the best validated, update 60)" \
                "-- the reverse model: update 90 of 90 (the last update; --final-model last)"; do
  grep -qxF -- "$expected" "$report" || { cat "$report"; fail "the report lacks the line '$expected'"; }
done
[ "$(grep -c "update [0-9]* of" "$report")" -eq 2 ] || fail "the report names more updates than its models"
echo "all custom pipeline checks passed"
