#!/usr/bin/env bash
# scripts/bench-aligners.sh on a small corpus laid out as the hansards-align recipes lay out
# theirs (the first 2,000 Hansards pairs, then the 37 dev and 447 test gold sentences):
#   - the table has every alignment row and the time and memory rows; nmt-align ibm2's
#     links are those nmt-align ibm2 writes when run directly, and its intersect cell is
#     the test (dev) AER nmt-align eval gives their intersection;
#   - eflomal without EFLOMAL_DIR, or with a directory that is no eflomal checkout, is
#     skipped with a line saying what to do, and fails the run under --require-eflomal;
#   - nmt-align hmm runs when the tool has the command (the agreed links among its rows),
#     else it is skipped with a line saying so;
#   - --lines N aligns only the last N lines, the gold sentences at their end;
#   - usage errors exit 2 and name the option.
# Environment (set by ctest): NMT_SOURCE_DIR, NMT_BIN_DIR, NMT_SHARED.
set -euo pipefail
source "$(dirname "$0")/test_env.sh"
gold=${NMT_SHARED:?}/data/hansards
require_shared "$gold/hansards.en.gz"
require_shared "$gold/wpt03/test.gold.en-fr"
unset EFLOMAL_DIR
bench=$src/scripts/bench-aligners.sh

mkdir -p "$work/corpus/tok"
for l in en fr; do
  { zcat "$gold/hansards.$l.gz" | sed -n 1,2000p; cat "$gold/wpt03/dev.$l" "$gold/wpt03/test.$l"; } \
    > "$work/corpus/tok/train.$l"
done
has_hmm=no
[[ $("$bin/nmt-align" hmm --help 2>&1 || true) == *--load-params* ]] && has_hmm=yes

echo "== ibm2, hmm and eflomal without EFLOMAL_DIR"
out=$work/out
"$bench" --corpus-dir "$work/corpus" --bin "$bin" --threads 2 -o "$out" > "$work/table" 2> "$work/err" ||
  { cat "$work/err"; fail "the run failed"; }
cat "$work/table"
grep -q "skipped: eflomal: EFLOMAL_DIR is not set: git clone https://github.com/robertostling/eflomal" "$work/err" ||
  fail "no line saying how to get eflomal"
grep -qE "^Date: [0-9]{4}-[0-9]{2}-[0-9]{2} · Command: \`scripts/bench-aligners.sh .*\` · Commit: [0-9a-f]{7}.* · Machine: .*, [0-9]+ cores, AVX" \
  "$work/table" || fail "the table lacks its date, command, commit and machine line"
for row in forward reverse intersect grow-diag grow-diag-final-and grow-diag-and; do
  grep -qE "^$row +skipped +[0-9]+\.[0-9]{2} \([0-9]+\.[0-9]{2}\)" "$work/table" || fail "row $row lacks ibm2's AERs"
done
grep -qE "^wall time +- +[0-9]+\.[0-9] s" "$work/table" || fail "no wall time for ibm2"
grep -qE "^CPU time, user\+sys +- +[0-9]+\.[0-9] s" "$work/table" || fail "no CPU time for ibm2"
grep -qE "^peak RSS +- +[1-9][0-9]* MB" "$work/table" || fail "no peak memory for ibm2"
cmp -s "$out/report.txt" "$work/table" || fail "OUT/report.txt is not the table printed"

"$bin/nmt-align" ibm2 -s "$work/corpus/tok/train.en" -t "$work/corpus/tok/train.fr" -o "$work/forward" -q
cmp -s "$work/forward" "$out/ibm2/forward" || fail "the ibm2 forward links differ from nmt-align ibm2's own"
"$bin/nmt-align" ibm2 -r -s "$work/corpus/tok/train.en" -t "$work/corpus/tok/train.fr" -o "$work/reverse" -q
"$bin/nmt-align" symmetrize -i "$work/forward" -j "$work/reverse" -c intersect -q -o "$work/intersect"
aer() { "$bin/nmt-align" eval -q -g "$1" -a "$2" | awk '$1 == "AER" { printf "%.2f", 100 * $2 }'; }
tail -n 447 "$work/intersect" > "$work/test.links"
tail -n 484 "$work/intersect" | sed -n 1,37p > "$work/dev.links"
want="$(aer "$gold/wpt03/test.gold.en-fr" "$work/test.links") ($(aer "$gold/wpt03/dev.gold.en-fr" "$work/dev.links"))"
grep -E "^intersect " "$work/table" > "$work/row"
grep -qF "$want" "$work/row" || fail "ibm2's intersect cell is not $want"

if [ $has_hmm = yes ]; then
  grep -qE "^agreed +skipped +- +[0-9]+\.[0-9]{2} \(" "$work/table" || fail "no agreed row for hmm"
  grep -qE "^intersect +skipped +[0-9.]+ \([0-9.]+\) +[0-9]+\.[0-9]{2} \(" "$work/table" || fail "no hmm column"
else
  grep -q "skipped: hmm: .* has no hmm command" "$work/err" || fail "hmm's absence is not said"
  grep -qE "^forward +skipped +[0-9.]+ \([0-9.]+\) +skipped$" "$work/table" || fail "hmm's column does not say skipped"
fi

echo "== --require-eflomal, EFLOMAL_DIR not a checkout, --lines"
if "$bench" --corpus-dir "$work/corpus" --bin "$bin" --only eflomal,ibm2 --require-eflomal -o "$work/req" \
    > /dev/null 2> "$work/err"; then
  fail "--require-eflomal without EFLOMAL_DIR succeeded"
fi
grep -q "require-eflomal: eflomal cannot run" "$work/err" || fail "--require-eflomal does not say why it failed"
[ ! -e "$work/req/ibm2" ] || fail "--require-eflomal ran the other aligners before failing"
EFLOMAL_DIR=$work "$bench" --corpus-dir "$work/corpus" --bin "$bin" --only eflomal,ibm2 --lines 600 \
  -o "$work/short" > "$work/table" 2> "$work/err" || { cat "$work/err"; fail "the --lines run failed"; }
grep -q "skipped: eflomal: $work (EFLOMAL_DIR) is not an eflomal checkout" "$work/err" || fail "a wrong EFLOMAL_DIR is not said"
[ "$(wc -l < "$work/short/ibm2/forward")" -eq 600 ] || fail "--lines 600 did not align 600 lines"
cmp -s <(tail -n 484 "$work/corpus/tok/train.fr") <(tail -n 484 "$work/short/corpus/train.fr") ||
  fail "--lines lost the gold sentences"
grep -qE "^== bench-aligners: 600 lines" "$work/table" || fail "the table does not say 600 lines"
grep -q "^agreed" "$work/table" && fail "an agreed row without hmm"

echo "== usage errors"
for args in "--lines 100" "--only giza" "--threads 0" "--bogus" "--threads"; do
  status=0
  # shellcheck disable=SC2086
  "$bench" $args > /dev/null 2> "$work/err" || status=$?
  [ $status -eq 2 ] || fail "$args: status $status, not 2"
  grep -q "bench-aligners.sh: " "$work/err" || fail "$args: no message"
done
echo "PASS"
