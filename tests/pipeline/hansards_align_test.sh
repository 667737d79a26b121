#!/usr/bin/env bash
# make -f Makefile.pipeline hansards-align, shrunk (the first 1,500 Hansards pairs, tiny
# models, a few dozen updates) to test the plumbing, not the scores:
#   - the preparation keeps the gold sentences' tokens (their last 484 lines have the gold's
#     word counts) and folds accents;
#   - the report has IBM Model 2, unguided, guided and alignment-head rows with P, R and
#     AER, and the rules and threshold the study chose on dev;
#   - the head models carry an alignment head over their guided model's parameters;
#   - the shared-task gold file scores every variant as its Pharaoh form does;
#   - a second run does nothing.
# Environment (set by ctest): NMT_SOURCE_DIR, NMT_BIN_DIR, NMT_SHARED.
set -euo pipefail
source "$(dirname "$0")/test_env.sh"
gold=${NMT_SHARED:?}/data/hansards
require_shared "$gold/hansards.en.gz"

mkdir -p "$work/hansards/wpt03"
for l in en fr; do zcat "$gold/hansards.$l.gz" | sed -n 1,1500p | gzip > "$work/hansards/hansards.$l.gz"; done
for f in "$gold"/wpt03/*; do ln -s "$f" "$work/hansards/wpt03/"; done
vars=(BUILD="$build" CONFIG=hansards-align HANSARDS_DIR="$work/hansards" BPE_MERGES=500 ROUND1_MINUTES=5
      GUIDED_MINUTES=5 HEAD_DIM=8 HEAD_MINUTES=5 "MODEL_OPTS=--dim-emb 16 --dim-enc 16 --dim-dec 32 --dim-att 16 --dim-maxout 16"
      "ALIGN_TRAIN_OPTS=--mini-batch 32 --max-updates 40 --log-freq 20 --final-model last")
run() { make --no-print-directory -C "$src" -f Makefile.pipeline "${vars[@]}" OUT="$work/out" "$@"; }

echo "== the shrunk study, -j2"
run -j2 hansards-report > "$work/run.out" 2>&1 || { tail -30 "$work/run.out"; fail "hansards-report"; }
out=$work/out
[ "$(wc -l < "$out/tok/train.fr")" -eq $((1500 + 484)) ] || fail "the prepared corpus has the wrong number of lines"
diff <(cat "$gold/wpt03/dev.fr" "$gold/wpt03/test.fr" | awk '{print NF}') \
     <(tail -n 484 "$out/tok/train.fr" | awk '{print NF}') > /dev/null || fail "the gold sentences' tokens changed"
grep -q 'é' "$out/tok/train.fr" && fail "accents were not folded"
report=$out/alignment-report.txt
for row in "IBM Model 2" "unguided models" "guided models" "head models" "grow-diag-final-and" "combine" "training"; do
  grep -qF "$row" "$report" || fail "the report lacks '$row'"
done
[ "$(grep -cE '^(forward|reverse|intersect|union|grow-diag|grow-diag-final|grow-diag-final-and) +0\.[0-9]+ ' \
      "$report")" -ge 26 ] || { cat "$report"; fail "the report lacks scored rows"; }
for s in unguided guided head; do
  grep -qE -- '--step (emit|next) --merge (pieces|words) --eos (ignore|renormalize|null)' "$out/study.$s/rules.forward" ||
    fail "no rules chosen for $s"
  for a in "$out"/study.$s/test.{forward,reverse,grow-diag-final-and,combine}; do
    # Files, not process substitutions: each command's exit code is checked (set -e).
    "$bin/nmt-align" eval -g "$gold/wpt03/test.wa.nonullalign" -a "$a" > "$out/eval.pharaoh"
    "$bin/nmt-align" eval -g "$gold/wpt03/test.gold.en-fr" -a "$a" > "$out/eval.shared-task"
    [ -s "$out/eval.pharaoh" ] || fail "nmt-align eval printed nothing for $a"
    cmp "$out/eval.pharaoh" "$out/eval.shared-task" || fail "the two gold formats disagree on $a"
  done
done

grep -q 'alignment head 8' "$out/log/head.en-fr.log" || fail "the head model has no alignment head"
set +e
"$bin/nmt-align" -m "$out/guided.en-fr.bin" -s "$out/gold/dev.en" -t "$out/gold/dev.fr" --attention-source head \
  > /dev/null 2> "$out/no-head.err"
code=$?
set -e
[ "$code" -eq 1 ] && grep -q 'no alignment head' "$out/no-head.err" ||
  fail "a guided model claims an alignment head (exit $code: $(cat "$out/no-head.err"))"

echo "== a second run does nothing"
run -q "$out/alignment-report.txt" || fail "make -q says the report is not up to date"
echo "PASS"
