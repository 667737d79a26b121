#!/usr/bin/env bash
# The plumbing of make -f Makefile.pipeline hansard36-study and scripts/bench-marian.sh,
# without training anything (seconds):
#   - STUDY_VARIANTS and MARIAN_SYSTEMS items ("name:options", an item starting at each word
#     with a colon) reach nmt-train and bench-marian.sh with exactly their options, one
#     thread each, and every system is a column of the by-length table; decoding is int8
#     with a shortlist (--first 500 --best 20) unless STUDY_PRECISION and STUDY_SHORTLIST=no
#     say otherwise; a
#     word before any name and a name given twice are errors naming the mistake;
#   - pipelines/stages/study-table.sh: one row per system from the logs, scores and Marian's
#     summary; the best valid BLEU of ours is the pick, never a Marian row; without Marian
#     the table says it was not run;
#   - bench-marian.sh build, on a stand-in source tree with cmake replaced by a recorder: the
#     edits go to a copy (the source is untouched), a second run changes nothing, Marian's
#     CPU-only flags and targets reach cmake; a missing intgemm or MARIAN_DIR is named.
# Environment (set by ctest): NMT_SOURCE_DIR, NMT_BIN_DIR.
set -euo pipefail
source "$(dirname "$0")/test_env.sh"
out=$work/out

echo "== variants and Marian systems reach their commands"
vars=(BUILD="$build" CONFIG=hansard36 NMT_SHARED="$work/shared" OUT="$out" STUDY_MINUTES=3
      "STUDY_VARIANTS=a: b:--tied-embeddings --seed 7" MARIAN_BUILD=/opt/marian "MARIAN_SYSTEMS=x:--type amun")
plan=$(make --no-print-directory -C "$src" -f Makefile.pipeline "${vars[@]}" -n study-report)
train_line() { grep -E "^pipelines/stages/train-model.sh \S*/study/$1/model.bin" <<< "$plan"; }
train_line a | grep -Eq -- '--max-minutes 3 --threads 1 *$' || fail "variant a: $(train_line a)"
train_line b | grep -Eq -- '--max-minutes 3 --threads 1 --tied-embeddings --seed 7$' || fail "variant b: $(train_line b)"
grep -E '^MARIAN_BUILD=/opt/marian scripts/bench-marian.sh run .*--minutes 3 --threads 1 .*-- --type amun 2>&1' \
  <<< "$plan" > /dev/null || fail "no bench-marian.sh run of x: $(grep bench-marian <<< "$plan")"
grep -q -- '-n a b marian-x ' <<< "$plan" || fail "by-length columns: $(grep nmt-by-length <<< "$plan")"
grep -Eq -- "nmt-decode -m \S*/study/b/model.bin .*--precision int8 --shortlist $out/study/shortlist --max-length 0" \
  <<< "$plan" || fail "int8 and shortlist: $(grep -m1 'nmt-decode' <<< "$plan")"
grep -Eq -- "nmt-shortlist --table $out/study/lex/table --target-vocab $out/vocab.fr --first 500 --best 20" \
  <<< "$plan" || fail "no shortlist made: $(grep nmt-shortlist <<< "$plan")"
plan=$(make --no-print-directory -C "$src" -f Makefile.pipeline "${vars[@]}" STUDY_SHORTLIST=no STUDY_PRECISION=fp32 \
  -n study-report)
grep -Eq -- "^start=.*nmt-decode -m \S*/study/a/model.bin .*-b 5 --precision fp32 --max-length 0 --threads 1 -q" <<< "$plan" ||
  fail "decoding: $(grep -m1 'nmt-decode' <<< "$plan")"
grep -q 'nmt-shortlist' <<< "$plan" && fail "a shortlist with STUDY_SHORTLIST=no"
[ ! -e "$out" ] || fail "make -n wrote $out"

expect_error() {
  local message
  message=$(make --no-print-directory -C "$src" -f Makefile.pipeline "${vars[@]}" "$1" -n study-report 2>&1) &&
    fail "$1 was accepted"
  grep -q -- "$2" <<< "$message" || fail "$1: $message"
}
expect_error "STUDY_VARIANTS=--seed 7 a:" '--seed comes before any name:'
expect_error "STUDY_VARIANTS=a: a:--seed 7" 'name a system twice'
expect_error "STUDY_VARIANTS=a: marian-x:" 'name a system twice: a marian-x marian-x'

echo "== the table: a row per system, the pick among ours"
study=$work/study logs=$work/log
mkdir -p "$study/a" "$study/b" "$study/marian-x" "$logs"
scores() { printf '  BLEU|nrefs:1|case:mixed = %s 50.0/30.0/20.0/10.0 (BP = 1.000)\nchrF2|nrefs:1|case:mixed = %s\n' "$1" "$2"; }
for v in a b; do
  printf 'model: emb 16, 1234 parameters; 1 thread(s)\ntraining ended at update 100 (--max-minutes 2.0) after 2.0 minutes, 24000 target tokens seen\n' \
    > "$logs/study.$v.train.log"
  echo "300 sentences in 6000 ms, beam 5, 1 threads" > "$study/$v/decode.test.log"
done
scores 12.5 40.1 > "$study/a/valid.scores"; scores 11.0 39.0 > "$study/a/test.scores"
scores 13.0 41.0 > "$study/b/valid.scores"; scores 10.5 38.0 > "$study/b/test.scores"
printf '%s\n' "name: marian-x" "options: --type amun" "minutes: 2" "updates: 90" "parameters: 999" \
  "train target tokens/s: 180" "valid BLEU: 20.0" "test BLEU: 19.0" "test chrF: 45.0" \
  "test decode sentences/s: 80.00" "int8: marian-conv --gemm-type intgemm8 failed (x)" "with the defaults: --dim-rnn 256" > "$study/marian-x/summary.txt"
table() { "$src/pipelines/stages/study-table.sh" --study "$study" --logs "$logs" --minutes 2 --threads 1 --beam 5 \
  --decode-options "--max-length 0" "$@"; }
table --marian /opt/marian 'a ' 'b --tied-embeddings' marian-x > "$work/table.txt"
row() { grep -E "^$1 " "$work/table.txt"; }
row 'b \*' | grep -Eq '2\.0 +100 +1234 +200 +13\.0 +10\.5 +38\.0 +50\.0 +--tied-embeddings$' || fail "row b: $(row b)"
row a | grep -q '(the 2015 model)$' || fail "row a: $(row a)"
row 'a \*' && fail "a is marked though b has the better valid BLEU"
row marian-x | grep -Eq '2\.0 +90 +999 +180 +20\.0 +19\.0 +45\.0 +80\.0 +--type amun$' || fail "row marian-x: $(row marian-x)"
grep -q 'fp32, no shortlist' "$work/table.txt" || fail "the decoding precision is not named"
grep -q -- '-- marian-x: with --dim-rnn 256; int8: marian-conv --gemm-type intgemm8 failed (x)' "$work/table.txt" ||
  fail "no defaults and int8 line for marian-x"
table --marian '' 'a ' 'b --tied-embeddings' | grep -q 'Marian: not run' || fail "no 'Marian: not run' line"

echo "== bench-marian.sh build: edits on a copy, once; cmake gets the CPU-only build"
marian=$work/marian intgemm=$work/intgemm fake=$work/fakebin
mkdir -p "$marian/src/3rd_party/SQLiteCpp" "$marian/src/3rd_party/intgemm" "$marian/src/common" "$intgemm/intgemm" "$fake"
printf '%s\n' 'set(EXT_LIBS ${EXT_LIBS} ${CMAKE_DL_LIBS})' \
  '  list(APPEND ALL_WARNINGS -Wall; -Werror; -Wextra; -Wno-unused-result;' > "$marian/CMakeLists.txt"
printf '%s\n' 'set(SQLITECPP_SRC' ' src/Transaction.cpp' ' sqlite3/sqlite3.c' ')' > "$marian/src/3rd_party/SQLiteCpp/CMakeLists.txt"
echo 'v1.12.0' > "$marian/VERSION"
echo '  add_compile_options(-Wall -Wextra -pedantic -Werror -Wno-unknown-pragmas)' > "$intgemm/CMakeLists.txt"
printf '#!/bin/sh\necho "$*" >> %s\n' "$work/cmake.calls" > "$fake/cmake"
chmod +x "$fake/cmake"
cp -r "$marian" "$work/marian.orig"
bench() { PATH="$fake:$PATH" "$src/scripts/bench-marian.sh" build; }
message=$(MARIAN_DIR=$marian bench 2>&1) && fail "built without intgemm"
grep -q 'set INTGEMM_DIR' <<< "$message" || fail "missing intgemm: $message"
message=$(bench 2>&1) && fail "built without MARIAN_DIR"
grep -q 'set MARIAN_DIR' <<< "$message" || fail "missing MARIAN_DIR: $message"
MARIAN_DIR=$marian INTGEMM_DIR=$intgemm bench > "$work/build.out" 2>&1 || { cat "$work/build.out"; fail "build"; }
copy=$marian/build/source
diff -r "$work/marian.orig" "$marian" -x build > /dev/null || fail "MARIAN_DIR was changed"
grep -q 'CMAKE_DL_LIBS} sqlite3)' "$copy/CMakeLists.txt" || fail "the copy does not link libsqlite3"
grep -q -- '-Werror' "$copy/CMakeLists.txt" "$copy/src/3rd_party/intgemm/CMakeLists.txt" && fail "-Werror left in the copy"
grep -q 'sqlite3.c' "$copy/src/3rd_party/SQLiteCpp/CMakeLists.txt" && fail "sqlite3.c left in the copy"
grep -q 'GIT_REVISION "v1.12.0 source copy"' "$copy/src/common/git_revision.h" || fail "no version header: $(cat "$copy/src/common/git_revision.h")"
[ "$copy/src/common/git_revision.h" -nt "$copy/.git/logs/HEAD" ] || fail "the version header would be regenerated"
cp -r "$copy" "$work/copy.once"
MARIAN_DIR=$marian INTGEMM_DIR=$intgemm bench > /dev/null 2>&1 || fail "second build"
diff -r "$work/copy.once" "$copy" > /dev/null || fail "a second run edited the copy again"
grep -q -- "-S $copy -B $marian/build .*-DCOMPILE_CPU=on -DCOMPILE_CUDA=off -DUSE_SENTENCEPIECE=off -DUSE_FBGEMM=off -DCOMPILE_SERVER=off -DUSE_MKL=off" \
  "$work/cmake.calls" || fail "configure: $(head -n 1 "$work/cmake.calls")"
grep -q -- "--build $marian/build .*--target marian_train marian_decoder marian_conv" "$work/cmake.calls" ||
  fail "build: $(sed -n 2p "$work/cmake.calls")"
echo PASS
