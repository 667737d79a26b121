#!/usr/bin/env bash
# The recipes keep the tools' promises on their outputs and their children (common.sh):
#   - an output that is a character device (a private one, made with mknod in this test's
#     folder: null and full, never the machine's) is written in place and stays a device;
#     a full one fails with the tools' one-line error and status 1;
#   - a FIFO gets the output directly; a symbolic link's file is replaced, the link kept;
#   - two outputs that are one file (the same name, "./" spellings, a symbolic link) are a
#     usage error (2) before anything is written; an output in a missing folder fails (1)
#     before anything is written, so filter.sh never leaves half a pair;
#   - SIGTERM mid-run ends evaluate.sh and sharded.sh with 143, leaves no output and no
#     temporary file, and no process of theirs outlives them (this test runs in a process
#     group of its own, and pgrep looks there);
#   - sharded.sh names a bad model once, align-both-ways.sh names the user's files when
#     their line counts differ.
# Runs as root in CI (mknod); as another user the device cases are skipped.
# Environment (set by ctest): NMT_SOURCE_DIR, NMT_BIN_DIR.
set -euo pipefail
if [ "$(ps -o pgid= $$ | tr -d ' ')" != $$ ]; then exec setsid -w bash "$0" "$@"; fi
source "$(dirname "$0")/test_env.sh"
export NMT_BIN=$bin
P=$src/pipelines

# Processes of the recipes or the tools still in this test's process group.
leftovers() { pgrep -a -g $$ -f -- "$bin/|$P/" || true; }

echo "== a tiny model on the demo languages (seconds)"
"$bin/nmt-demo-corpus" -o "$work/c" --train 1500 --valid 20 --test 40 --seed 5 -q
for side in xa xb; do
  for part in train test; do "$bin/nmt-tokenize" -l $side --no-escape -q -i "$work/c/$part.$side" -o "$work/$part.tok.$side"; done
done
cat "$work/train.tok.xa" "$work/train.tok.xb" | "$bin/nmt-bpe" learn -s 200 -q -o "$work/codes"
for side in xa xb; do "$bin/nmt-bpe" apply -c "$work/codes" -i "$work/train.tok.$side" -o "$work/train.bpe.$side"; done
"$bin/nmt-train" -t "$work/train.bpe.xa" "$work/train.bpe.xb" -m "$work/model.bin" --dim-emb 16 --dim-enc 16 \
  --dim-dec 32 --dim-att 16 --dim-maxout 16 --mini-batch 32 --max-updates 40 -q
model=$work/model.bin
"$bin/nmt-bpe" apply -c "$work/codes" -i "$work/test.tok.xa" -o "$work/test.bpe.xa"
"$bin/nmt-bpe" apply -c "$work/codes" -i "$work/test.tok.xb" -o "$work/test.bpe.xb"
evaluate=("$P/evaluate.sh" -m "$model" -c "$work/codes" -s xa -t xb -i "$work/c/test.xa" -r "$work/c/test.xb" -b 2)
"${evaluate[@]}" -o "$work/expected.xb" > /dev/null 2>&1 || fail "evaluate.sh on a regular file"
[ "$(wc -l < "$work/expected.xb")" -eq 40 ] || fail "evaluate.sh -o wrote $(wc -l < "$work/expected.xb") lines"

# expect CODE PATTERN COMMAND...: the command exits CODE with PATTERN on stderr.
expect() {
  local code=$1 pattern=$2 got
  shift 2
  set +e
  "$@" > "$work/out" 2> "$work/err"
  got=$?
  set -e
  [ "$got" -eq "$code" ] || fail "$* exits $got, not $code: $(cat "$work/err")"
  grep -q -- "$pattern" "$work/err" || fail "$* does not say '$pattern': $(cat "$work/err")"
}

echo "== devices"
devices=$work/dev
mkdir "$devices"
if mknod "$devices/null" c 1 3 2> /dev/null && mknod "$devices/full" c 1 7; then
  "${evaluate[@]}" -o "$devices/null" > /dev/null 2>&1 || fail "evaluate.sh -o a null device failed"
  expect 1 "$devices/full: write failed: No space left on device" "${evaluate[@]}" -o "$devices/full"
  [ "$(grep -c '^evaluate.sh:' "$work/err")" -eq 1 ] || fail "a full device is not one line: $(cat "$work/err")"
  ln -s "$devices/full" "$work/link-to-full"
  expect 1 "write failed: No space left on device" "${evaluate[@]}" -o "$work/link-to-full"
  "$P/sharded.sh" -n 2 decode -m "$model" -q -i "$work/test.bpe.xa" -o "$devices/null" || fail "sharded.sh -o null"
  expect 1 "write failed: No space left on device" "$P/sharded.sh" -n 2 decode -m "$model" -q -i "$work/test.bpe.xa" \
    -o "$devices/full"
  "$P/filter.sh" --forward "$model" --reverse "$model" --keep 50 --scores "$devices/null" \
    "$work/test.bpe.xa" "$work/test.bpe.xb" "$work/f.s" "$work/f.t" 2> /dev/null || fail "filter.sh --scores null"
  [ "$(wc -l < "$work/f.s")" -eq 20 ] || fail "filter.sh kept $(wc -l < "$work/f.s") of 40 at 50%"
  for device in null full; do
    [ -c "$devices/$device" ] || fail "$devices/$device is no longer a character device"
  done
  [ "$(ls -A "$devices")" = "$(printf 'full\nnull')" ] || fail "files left beside the devices: $(ls -A "$devices")"
else
  echo "SKIP: mknod refused (not root): the device cases"
fi

echo "== a FIFO, a symbolic link"
mkfifo "$work/fifo"
cat "$work/fifo" > "$work/from-fifo" &
reader=$!
"${evaluate[@]}" -o "$work/fifo" > /dev/null 2>&1 || fail "evaluate.sh -o a FIFO failed"
wait $reader
cmp "$work/expected.xb" "$work/from-fifo" || fail "the FIFO's reader got other bytes"
[ -p "$work/fifo" ] || fail "the FIFO was replaced"
echo old > "$work/linked.xb"
ln -s linked.xb "$work/link.xb"
"${evaluate[@]}" -o "$work/link.xb" > /dev/null 2>&1 || fail "evaluate.sh -o a symbolic link failed"
[ -L "$work/link.xb" ] && cmp "$work/expected.xb" "$work/linked.xb" || fail "the link's file was not the one replaced"

echo "== one file twice, a missing folder"
filter=("$P/filter.sh" --forward "$model" --reverse "$model" --keep 50 "$work/test.bpe.xa" "$work/test.bpe.xb")
expect 2 "are the same file" "${filter[@]}" "$work/fs.s" "$work/fs.s"
expect 2 "are the same file" "${filter[@]}" "$work/fs.s" "$work/./fs.s"
ln -s fs.t "$work/link-to-fs.t"
expect 2 "are the same file" "${filter[@]}" "$work/fs.t" "$work/link-to-fs.t"
expect 2 "are the same file" "${filter[@]}" --scores "$work/fs.s" "$work/fs.s" "$work/fs.t"
expect 1 "$work/nodir/fn.t: cannot create a temporary file beside it: No such file or directory" \
  "${filter[@]}" "$work/fn.s" "$work/nodir/fn.t"
[ ! -e "$work/fs.s" ] && [ ! -e "$work/fs.t" ] && [ ! -e "$work/fn.s" ] || fail "a refused filter.sh wrote an output"
expect 1 "nodir/out: cannot create a temporary file beside it" "${evaluate[@]}" -o "$work/nodir/out"
expect 1 "nodir/out: cannot create a temporary file beside it" \
  "$P/sharded.sh" -n 2 decode -m "$model" -q -i "$work/test.bpe.xa" -o "$work/nodir/out"
[ -z "$(leftovers)" ] || fail "processes left: $(leftovers)"

echo "== SIGTERM mid-run"
# 40 test lines 150 times over: seconds of decoding, so the signal comes mid-run.
for ((i = 0; i < 150; i++)); do cat "$work/c/test.xa"; done > "$work/long.xa"
for ((i = 0; i < 150; i++)); do cat "$work/c/test.xb"; done > "$work/long.xb"
for ((i = 0; i < 150; i++)); do cat "$work/test.bpe.xa"; done > "$work/long.bpe.xa"
mkdir "$work/outputs"
# interrupt NAME INPUT COMMAND...: starts COMMAND on INPUT, waits for nmt-decode to run
# under it, sends SIGTERM to the recipe alone, and checks the exit status, the output
# folder and this test's process group.
interrupt() {
  local name=$1 input=$2 code i
  shift 2
  "$@" < "$input" > /dev/null 2> "$work/err.$name" &
  local recipe=$!
  for ((i = 0; i < 300; i++)); do
    pgrep -g $$ -f -- "$bin/nmt-decode" > /dev/null && break
    sleep 0.05
  done
  sleep 0.3
  kill -TERM $recipe 2> /dev/null || fail "$name ended before the signal: make its input longer"
  set +e
  wait $recipe
  code=$?
  set -e
  [ $code -eq 143 ] || fail "$name exits $code after SIGTERM, not 143: $(cat "$work/err.$name")"
  [ -z "$(leftovers)" ] || fail "$name left processes running: $(leftovers)"
  [ -z "$(ls -A "$work/outputs")" ] || fail "$name left files in the output folder: $(ls -A "$work/outputs")"
  if grep -q "cannot rename" "$work/err.$name"; then fail "$name: $(cat "$work/err.$name")"; fi
}
interrupt evaluate /dev/null "$P/evaluate.sh" -m "$model" -c "$work/codes" -s xa -t xb -i "$work/long.xa" \
  -r "$work/long.xb" -b 4 -o "$work/outputs/translations"
interrupt sharded /dev/null "$P/sharded.sh" -n 2 decode -m "$model" -b 4 -q -i "$work/long.bpe.xa" \
  -o "$work/outputs/translations"
interrupt translate "$work/long.xa" "$P/translate.sh" -m "$model" -c "$work/codes" -s xa -t xb -b 4
sleep 0.5
[ -z "$(leftovers)" ] || fail "processes still running a moment later: $(leftovers)"

echo "== messages"
expect 1 "no-such-model.bin" "$P/sharded.sh" -n 3 decode -m "$work/no-such-model.bin" -i "$work/test.bpe.xa"
[ "$(grep -c "no-such-model.bin" "$work/err")" -eq 1 ] || fail "sharded.sh names a bad model more than once: $(cat "$work/err")"
head -39 "$work/c/test.xb" > "$work/short.xb"
expect 1 "$work/c/test.xa has 40 lines, $work/short.xb has 39" "$P/align-both-ways.sh" -f "$model" -r "$model" \
  -c "$work/codes" -s xa -t xb -i "$work/c/test.xa" -j "$work/short.xb"
echo "PASS"
