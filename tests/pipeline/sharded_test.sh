#!/usr/bin/env bash
# pipelines/sharded.sh: nmt-decode and nmt-align over N shards give, joined, the bytes of
# one process over the whole input:
#   - decode from stdin and from -i into -o, beam and greedy, n-best lists (renumbered),
#     attention alignments appended, empty lines kept;
#   - align (hard and soft links) with -s and -t cut at the same lines;
#   - more processes than lines, an empty input;
#   - unaligned align inputs, a failing shard and usage errors end with a message.
# A tiny model (a reversal task, a few seconds of nmt-train) is trained first.
# Environment (set by ctest): NMT_SOURCE_DIR, NMT_BIN_DIR.
set -euo pipefail
src=${NMT_SOURCE_DIR:?}
bin=${NMT_BIN_DIR:?}
export NMT_BIN=$bin
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
sharded=$src/pipelines/sharded.sh

echo "== a tiny reversal model"
# Sentences of 2-7 words over w0..w9, target reversed; every 13th line of the test input empty.
awk -v seed=7 -v n=1500 'BEGIN { srand(seed); for (i = 0; i < n; ++i) { len = 2 + int(rand() * 6); s = "";
  for (k = 0; k < len; ++k) s = s (k ? " " : "") "w" int(rand() * 10); print s } }' > "$work/train.src"
awk '{ for (k = NF; k >= 1; --k) printf "%s%s", $k, (k > 1 ? " " : "\n") }' "$work/train.src" > "$work/train.tgt"
awk -v seed=8 -v n=103 'BEGIN { srand(seed); for (i = 0; i < n; ++i) { if (i % 13 == 5) { print ""; continue }
  len = 2 + int(rand() * 6); s = ""; for (k = 0; k < len; ++k) s = s (k ? " " : "") "w" int(rand() * 10); print s } }' \
  > "$work/test.src"
awk '{ for (k = NF; k >= 1; --k) printf "%s%s", $k, (k > 1 ? " " : ""); print "" }' "$work/test.src" > "$work/test.tgt"
"$bin/nmt-train" -t "$work/train.src" "$work/train.tgt" -m "$work/model.bin" --dim-emb 16 --dim-enc 16 \
  --dim-dec 32 --dim-att 16 --dim-maxout 16 --mini-batch 32 --dropout 0 -l 0.003 --max-updates 150 --quiet
model=$work/model.bin

echo "== decode: sharded equals one process"
"$bin/nmt-decode" -m "$model" -q < "$work/test.src" > "$work/one.out"
"$sharded" -n 3 decode -m "$model" -q < "$work/test.src" > "$work/three.out"
cmp "$work/one.out" "$work/three.out" || fail "decode over 3 shards differs from one process"
[ "$(wc -l < "$work/three.out")" -eq 103 ] || fail "decode lost lines"

"$bin/nmt-decode" -m "$model" -b 1 --alignment hard -q < "$work/test.src" > "$work/one.greedy"
"$sharded" -n 4 -d "$work/kept" decode -m "$model" -b 1 --alignment hard -q -i "$work/test.src" -o "$work/four.greedy"
cmp "$work/one.greedy" "$work/four.greedy" || fail "greedy decode with alignments over 4 shards (-i, -o) differs"
[ "$(ls "$work/kept"/out.* | wc -l)" -eq 4 ] || fail "-d kept $(ls "$work/kept")"

"$bin/nmt-decode" -m "$model" --n-best 3 -q < "$work/test.src" > "$work/one.nbest"
"$sharded" -n 5 decode -m "$model" --n-best 3 -q < "$work/test.src" > "$work/five.nbest"
cmp "$work/one.nbest" "$work/five.nbest" || fail "n-best over 5 shards differs (numbering?)"
grep -q '^102 |||' "$work/five.nbest" || fail "the last sentence's n-best number is not 102"

echo "== the same bytes whatever the mini-batch and the threads (a sentence's numbers ignore its neighbours)"
# --maxi-batch 1 keeps the input order inside each mini-batch, so mini-batches of 7
# and 32 put each sentence beside other sentences, at other rows.
for what in "nbest" "soft" "align-soft" "align-hard"; do
  first=""
  for batch in 1 7 32 64; do
    for threads in 1 2; do
      out=$work/inv.$what.$batch.$threads
      case $what in
        nbest) "$bin/nmt-decode" -m "$model" --n-best 3 --mini-batch "$batch" --maxi-batch 1 --threads "$threads" -q \
                 < "$work/test.src" > "$out" ;;
        soft) "$bin/nmt-decode" -m "$model" -b 4 --alignment soft --mini-batch "$batch" --threads "$threads" -q \
                < "$work/test.src" > "$out" ;;
        align-*) "$bin/nmt-align" -m "$model" -s "$work/test.src" -t "$work/test.tgt" --mode "${what#align-}" \
                   --mini-batch "$batch" --threads "$threads" -q > "$out" ;;
      esac
      if [ -z "$first" ]; then first=$out; continue; fi
      cmp -s "$first" "$out" || fail "$what: --mini-batch $batch --threads $threads differs from --mini-batch 1 --threads 1"
    done
  done
done
grep -q 'F0=' "$work/inv.nbest.1.1" && grep -q ' ||| 0\.[0-9]' "$work/inv.soft.1.1" \
  || fail "the n-best lists or the soft alignments have no scores to compare"

echo "== decode: more processes than lines, an empty input"
head -3 "$work/test.src" > "$work/three-lines.src"
"$bin/nmt-decode" -m "$model" -q < "$work/three-lines.src" > "$work/three-lines.one"
"$sharded" -n 8 decode -m "$model" -q < "$work/three-lines.src" > "$work/three-lines.eight"
cmp "$work/three-lines.one" "$work/three-lines.eight" || fail "3 lines over 8 processes differ"
"$sharded" -n 2 decode -m "$model" -q < /dev/null > "$work/empty.out"
[ ! -s "$work/empty.out" ] || fail "an empty input gave output"

echo "== align: sharded equals one process"
for mode in hard soft; do
  "$bin/nmt-align" -m "$model" -s "$work/test.src" -t "$work/test.tgt" --mode "$mode" -q > "$work/one.$mode"
  "$sharded" -n 3 align -m "$model" -s "$work/test.src" -t "$work/test.tgt" --mode "$mode" -q > "$work/three.$mode"
  cmp "$work/one.$mode" "$work/three.$mode" || fail "align --mode $mode over 3 shards differs"
done
[ "$(wc -l < "$work/three.hard")" -eq 103 ] || fail "align lost lines"

echo "== errors"
set +e
head -50 "$work/test.tgt" > "$work/short.tgt"
"$sharded" -n 2 align -m "$model" -s "$work/test.src" -t "$work/short.tgt" 2> "$work/err"; code=$?
[ "$code" -eq 1 ] && grep -q "line-aligned" "$work/err" || fail "unaligned align input: exit $code, $(cat "$work/err")"
"$sharded" -n 2 decode -m "$work/no-such-model.bin" < "$work/test.src" > /dev/null 2> "$work/err"; code=$?
[ "$code" -eq 1 ] && grep -q "no-such-model.bin" "$work/err" || fail "a failing shard: exit $code, $(cat "$work/err")"
"$sharded" decode -m "$model" < /dev/null 2> "$work/err"; code=$?
[ "$code" -eq 2 ] && grep -q "usage:" "$work/err" || fail "no -n: exit $code"
"$sharded" -n 2 translate < /dev/null 2> "$work/err"; code=$?
[ "$code" -eq 2 ] || fail "an unknown mode: exit $code"
"$sharded" -n 2 align -m "$model" -s "$work/test.src" 2> "$work/err"; code=$?
[ "$code" -eq 2 ] && grep -q -- "-t TARGET" "$work/err" || fail "align without -t: exit $code"
set -e
echo "PASS"
