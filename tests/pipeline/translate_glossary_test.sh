#!/usr/bin/env bash
# rnnsearch-translate --glossary on a small demo model (a demo corpus of 1,200 pairs, a model
# trained for 1,500 updates, about 20 s, which translates the test set at about 30 BLEU):
#   - a glossary extracted from the training data's gold links (nmt-glossary extract), with
#     the target terms of its entries exchanged in pairs so that the model would not write
#     them unasked, is given to the recipe: every glossary term of every input line appears
#     in its detokenized translation (nmt-terms: usage 100%), where the translations made
#     without the glossary miss some;
#   - -g FILE, --glossary FILE and --glossary=FILE give the same bytes, one line per line,
#     and a line is answered while the input stays open;
#   - a malformed glossary is an error naming the file and line, a missing one names the
#     file (status 1), --glossary without a value is a usage error (status 2).
# About 30 s. Environment (set by ctest): NMT_SOURCE_DIR, NMT_BIN_DIR.
set -euo pipefail
source "$(dirname "$0")/test_env.sh"
export NMT_BIN=$bin
translate=$src/pipelines/translate.sh

echo "== a demo corpus, BPE and a small model"
"$bin/nmt-demo-corpus" -o "$work/raw" --train 1200 --valid 20 --test 40 --seed 5 -q
mkdir -p "$work/tok" "$work/bpe"
for split in train valid test; do
  for lang in xa xb; do
    "$bin/nmt-tokenize" -l $lang --no-escape -q -i "$work/raw/$split.$lang" -o "$work/tok/$split.$lang"
  done
done
cat "$work/tok/train.xa" "$work/tok/train.xb" | "$bin/nmt-bpe" learn -s 300 -q -o "$work/codes"
for split in train valid; do
  for lang in xa xb; do
    "$bin/nmt-bpe" apply -c "$work/codes" -q -i "$work/tok/$split.$lang" -o "$work/bpe/$split.$lang"
  done
done
"$bin/nmt-train" -t "$work/bpe/train.xa" "$work/bpe/train.xb" -m "$work/model.bin" --overwrite \
  --dim-emb 32 --dim-enc 64 --dim-dec 64 --dim-att 64 --dim-maxout 32 --mini-batch 32 --max-updates 1500 \
  --threads 2 -q > "$work/train.log" 2>&1 || { tail -20 "$work/train.log"; fail "nmt-train"; }

echo "== a glossary from the training data's links, its target terms exchanged in pairs"
"$bin/nmt-glossary" extract -s "$work/tok/train.xa" -t "$work/tok/train.xb" -a "$work/raw/train.align" \
  --max-length 1 -o "$work/extracted"
[ "$(wc -l < "$work/extracted")" -ge 10 ] || fail "extract found fewer than 10 terms: $(cat "$work/extracted")"
head -10 "$work/extracted" | awk -F '\t' '{ s[NR] = $1; t[NR] = $2 }
  END { for (i = 1; i <= NR; i += 2) { print s[i] "\t" t[i + 1]; print s[i + 1] "\t" t[i] } }' > "$work/glossary"

# The target terms each test line must carry (the glossary's words need no tokenizing).
"$bin/nmt-tokenize" -l xa --no-escape -q < "$work/raw/test.xa" |
  "$bin/nmt-glossary" match -g "$work/glossary" --terms-only > "$work/terms"
with_terms=$(grep -c . "$work/terms" || true)
[ "$with_terms" -ge 10 ] || fail "only $with_terms of 40 test lines have a glossary term"

echo "== every term in the translations"
"$translate" -m "$work/model.bin" -c "$work/codes" -s xa -t xb -g "$work/glossary" \
  < "$work/raw/test.xa" > "$work/with.xb"
[ "$(wc -l < "$work/with.xb")" -eq 40 ] || fail "translations lost lines"
"$bin/nmt-terms" -r "$work/raw/test.xb" -i "$work/with.xb" -t "$work/terms" > "$work/with.scores"
grep -q "^term usage: 100\.0% " "$work/with.scores" || fail "terms missing: $(cat "$work/with.scores")"
grep -q "^exact match: 100\.0% " "$work/with.scores" || fail "terms missing: $(cat "$work/with.scores")"
"$translate" -m "$work/model.bin" -c "$work/codes" -s xa -t xb < "$work/raw/test.xa" > "$work/without.xb"
"$bin/nmt-terms" -r "$work/raw/test.xb" -i "$work/without.xb" -t "$work/terms" > "$work/without.scores"
grep -q "^term usage: 100\.0% " "$work/without.scores" &&
  fail "the translations without the glossary have its exchanged terms too: the test shows nothing"
echo "with the glossary: $(head -1 "$work/with.scores"); without: $(head -1 "$work/without.scores")"

echo "== the long option's two forms, and streaming"
"$translate" -m "$work/model.bin" -c "$work/codes" -s xa -t xb --glossary "$work/glossary" \
  < "$work/raw/test.xa" | cmp - "$work/with.xb" || fail "--glossary FILE differs from -g FILE"
"$translate" -m "$work/model.bin" -c "$work/codes" -s xa -t xb --glossary="$work/glossary" \
  < "$work/raw/test.xa" | cmp - "$work/with.xb" || fail "--glossary=FILE differs from -g FILE"
coproc TRANSLATE { "$translate" -m "$work/model.bin" -c "$work/codes" -s xa -t xb -g "$work/glossary"; }
head -1 "$work/raw/test.xa" >&"${TRANSLATE[1]}"
read -r -t 60 answer <&"${TRANSLATE[0]}" || fail "no translation within 60 s while the input stays open"
[ "$answer" = "$(head -1 "$work/with.xb")" ] || fail "streamed translation differs: $answer"
exec {TRANSLATE[1]}>&-
wait "$TRANSLATE_PID" || fail "the recipe failed after its input closed"

echo "== errors"
expect() {  # STATUS MESSAGE ARGS...: the recipe's status and its one line of stderr
  local status=$1 message=$2 code
  shift 2
  set +e
  "$translate" -m "$work/model.bin" -c "$work/codes" -s xa -t xb "$@" < "$work/raw/test.xa" > "$work/out" 2> "$work/err"
  code=$?
  set -e
  [ $code -eq "$status" ] || fail "$* exited $code, not $status: $(cat "$work/err")"
  grep -qF -- "$message" "$work/err" || fail "$*: no '$message' in: $(cat "$work/err")"
  [ ! -s "$work/out" ] || fail "$*: wrote a translation"
}
printf 'dedu\tkesa\nmoro poso\n' > "$work/bad"
expect 1 "nmt-glossary: $work/bad:2: expected \"source term<TAB>target term\", found no tab" -g "$work/bad"
printf 'dedu\tkesa\ndedu\thiza\n' > "$work/twice"
expect 1 "$work/twice:2: the source term \"dedu\" has another target term at line 1" --glossary "$work/twice"
expect 1 "glossary $work/missing cannot be read" -g "$work/missing"
expect 2 "option --glossary needs a value" --glossary
echo "translate_glossary: all checks passed"
