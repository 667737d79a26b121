#!/usr/bin/env bash
# make -f Makefile.pipeline hansard36-align and hansard36-align-prep, shrunk (the first
# 1,500 hansard36 pairs, tiny models, a few dozen updates, one preparation variant), to
# test the plumbing, not the scores:
#   - the corpus is written in the gold's spelling: French contractions written out
#     ("du", "des", "au", "aux", "l'" never stand alone), hyphens split as a plain "-",
#     lowercase, accents kept; the gold sentences keep their tokens;
#   - the report has IBM Model 2 rows with grow-diag-and, the HMM aligners' rows with the one
#     chosen on dev, and unguided, guided and head rows, and those of a head variant trained
#     on from the heads (HEAD_VARIANTS);
#   - the guided models and the heads learn from the HMM's chosen links, read off with its
#     saved parameters;
#   - the heads' combination merged with the HMM's links: 4 ways at each threshold scored,
#     one chosen on dev;
#   - the preparation report has the recipe's row and the variant's, with dev and test AER;
#   - a second run does nothing.
# Environment (set by ctest): NMT_SOURCE_DIR, NMT_BIN_DIR, NMT_SHARED.
set -euo pipefail
source "$(dirname "$0")/test_env.sh"
gold=${NMT_SHARED:?}/data/hansards
require_shared "$NMT_SHARED/data/hansard36/train.en.gz"
require_shared "$gold/wpt03/test.gold.en-fr"

mkdir -p "$work/hansard36"
for l in en fr; do zcat "$NMT_SHARED/data/hansard36/train.$l.gz" | sed -n 1,1500p | gzip > "$work/hansard36/train.$l.gz"; done
vars=(BUILD="$build" CONFIG=hansard36-align HANSARD36_DIR="$work/hansard36" BPE_MERGES=500 ROUND1_MINUTES=5
      GUIDED_MINUTES=5 HEAD_DIM=8 HEAD_MINUTES=5 PREP_VARIANTS=folded HEAD_VARIANTS=again
      HEAD_again_SYMMETRIZATION=grow-diag-and HEAD_again_MINUTES=5 HEAD_again_BASE=head HMM_PARAMS_THRESHOLD=0
      "MODEL_OPTS=--dim-emb 16 --dim-enc 16 --dim-dec 32 --dim-att 16 --dim-maxout 16"
      "ALIGN_TRAIN_OPTS=--mini-batch 32 --max-updates 40 --log-freq 20 --final-model last")
run() { make --no-print-directory -C "$src" -f Makefile.pipeline "${vars[@]}" OUT="$work/out" "$@"; }

echo "== the shrunk study and the preparation report, -j2"
run -j2 hansards-report prep-report > "$work/run.out" 2>&1 || { tail -30 "$work/run.out"; fail "hansards-report prep-report"; }
out=$work/out
[ "$(wc -l < "$out/tok/train.fr")" -eq $((1500 + 484)) ] || fail "the prepared corpus has the wrong number of lines"
diff <(cat "$gold/wpt03/dev.fr" "$gold/wpt03/test.fr" | awk '{print NF}') \
     <(tail -n 484 "$out/tok/train.fr" | awk '{print NF}') > /dev/null || fail "the gold sentences' tokens changed"
# Files, not pipes into grep -q: grep -q leaves early, and pipefail would count the writer's SIGPIPE.
corpus_fr=$work/corpus.fr
head -n 1500 "$out/tok/train.fr" > "$corpus_fr"
# A contraction may stand only at the start of a compound ("au - dessus").
grep -qE "(^| )(du|des|au|aux|l'|d'|qu'|n'|c'|s'|j')( [^-]|$)" "$corpus_fr" && fail "a French contraction was left"
grep -qw 'de le' "$corpus_fr" || fail "no 'de le' in the French corpus"
grep -q '@-@' "$corpus_fr" && fail "hyphens are marked @-@, not written as the gold's -"
grep -q 'é' "$corpus_fr" || fail "the accents were folded"
grep -q '[A-Z]' "$corpus_fr" && fail "the corpus is not lowercased"
grep -q 'é' "$out/prep/folded/tok/train.fr" && fail "the folded variant kept accents"

report=$out/alignment-report.txt
grep -q "== hansard36-align" "$report" || fail "the report lacks its title"
for row in "IBM Model 2" "HMM aligners trained by agreement" "agreed-0.3" "hmm training: real" "unguided models" "guided models" "head models" "again models" "grow-diag-and" "combine" \
           "training" "again.fr-en: training ended"; do
  grep -qF "$row" "$report" || fail "the report lacks '$row'"
done
[ "$(grep -cE '^grow-diag-and +0\.[0-9]+ ' "$report")" -eq 6 ] || { cat "$report"; fail "grow-diag-and is not scored for each system"; }
grep -qF -- "--pretrained-model $out/head.en-fr.bin --alignment-head 8 --guided-alignment $out/ibm2/guide-grow-diag-and.en-fr.align" \
  "$work/run.out" || fail "the head variant is not trained on from the heads with the grow-diag-and links"
prep=$out/prep/report.txt
for v in recipe folded; do
  grep -qE "^$v +0\.[0-9]+/0\.[0-9]+" "$prep" || { cat "$prep"; fail "the preparation report lacks $v"; }
done
grep -qE "^chosen: head-combine-[0-9.]+\+hmm_by_[a-z-]+ +0\.[0-9]+ " "$out/mix/study.txt" ||
  { cat "$out/mix/study.txt"; fail "no merge of the two aligners chosen on dev"; }
# 4 merges at each of 6 thresholds, and at the heads' own when it is another.
rows=$(grep -c '^head-combine-' "$out/mix/study.txt")
[ "$rows" -eq 24 ] || [ "$rows" -eq 28 ] || fail "the merges of the two aligners are not all scored ($rows rows)"
grep -qF "combine merged with the links of hmm" "$report" || fail "the report lacks the merged aligners"
chosen=$(awk '$1 == "chosen:" {print $2}' "$out/hmm/study.txt")
[ -n "$chosen" ] && [ -f "$out/hmm/$chosen" ] || { cat "$out/hmm/study.txt"; fail "no HMM links chosen on dev"; }
cmp "$out/hmm/chosen" "$out/hmm/$chosen" || fail "hmm/chosen is not the chosen candidate's links"
cmp "$out/hmm/chosen" "$out/ibm2/guide.en-fr.align" || fail "the guided models do not learn from the HMM's links"
cmp "$out/hmm/chosen" "$out/ibm2/guide-hmm.en-fr.align" || fail "the heads do not learn from the HMM's links"
[ "$(wc -l < "$out/hmm/chosen")" -eq $((1500 + 484)) ] || fail "the HMM's links do not cover the corpus"
# Read off with the saved parameters, the forward links are the trained run's own.
cmp "$out/hmm/forward" "$out/hmm/trained.forward" || fail "the saved HMM parameters align otherwise than the trained model"
cmp <(grep -E '^grow-diag-and ' "$out/ibm2/study.txt") <(grep -E '^grow-diag-and ' "$report" | head -n 1) ||
  fail "the report's IBM grow-diag-and row is not the study's"

echo "== a second run does nothing"
run -q "$out/alignment-report.txt" "$out/prep/report.txt" || fail "make -q says the reports are not up to date"
echo "PASS"
