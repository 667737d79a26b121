#!/usr/bin/env bash
# How well dual conditional cross-entropy filtering (pipelines/filter.sh) catches known
# noise, and what it does for a model trained on the noisy corpus. On the hansard36 files
# of `make -f Makefile.pipeline hansard36` (work/hansard36: BPE'd train/test, vocabularies):
#   1. noisy corpus: the first NOISY_PAIRS training pairs, with the French side of NOISE_PERCENT
#      percent of them shuffled among themselves (a fixed seed); noise.lines lists the pairs
#      whose French line changed (a line that drew itself is not noise);
#   2. scorers: en->fr and fr->en models trained on the rest of the training pairs
#      (disjoint from the noisy corpus) for SCORER_UPDATES updates each, side by side;
#   3. filter.sh scores the noisy corpus with both and keeps KEEP_PERCENT percent; the
#      removed pairs against noise.lines give precision and recall;
#   4. two en->fr models trained for FINAL_UPDATES updates each, side by side, on the noisy
#      corpus and on the filtered one; BLEU of each on the first TEST_LINES test sentences
#      (beam 5, detokenized, cased, against the raw reference).
# Every stage keeps its result in OUT and is skipped when it is there: rerunning resumes.
#   pipelines/filter-study.sh [OUT]        (default work/filter-study; report in OUT/report.txt)
set -euo pipefail
cd "$(dirname "$0")/.."
source pipelines/common.sh
USAGE="pipelines/filter-study.sh [OUT]
Measures dual conditional cross-entropy filtering (filter.sh) on the hansard36 files;
OUT defaults to work/filter-study, the report is OUT/report.txt. Rerunning resumes.
Settings, from the environment (defaults in brackets): HANSARD36 the hansard36 work
directory [work/hansard36], NOISY_PAIRS [100000], NOISE_PERCENT [10], KEEP_PERCENT [90],
SCORER_UPDATES [1500], FINAL_UPDATES [1500], TEST_LINES [2000]."
case ${1:-} in -h | --help) show_usage ;; -*) die_usage "unknown option $1" ;; esac
[ $# -le 1 ] || die_usage "unexpected argument '$2'"
out=${1:-work/filter-study}
h36=${HANSARD36:-work/hansard36}
NOISY_PAIRS=${NOISY_PAIRS:-100000} NOISE_PERCENT=${NOISE_PERCENT:-10} KEEP_PERCENT=${KEEP_PERCENT:-90}
SCORER_UPDATES=${SCORER_UPDATES:-1500} FINAL_UPDATES=${FINAL_UPDATES:-1500} TEST_LINES=${TEST_LINES:-2000}
for f in bpe/train.en bpe/train.fr bpe/test.en raw/test.fr vocab.en vocab.fr; do need_file "hansard36 file" "$h36/$f"; done
mkdir -p "$out"
train=$(nmt_tool nmt-train) decode=$(nmt_tool nmt-decode) bpe=$(nmt_tool nmt-bpe)
detok=$(nmt_tool nmt-detokenize) bleu=$(nmt_tool nmt-bleu)
# The hansard36 architecture (pipelines/hansard36.mk), no validation, the last parameters.
model_opts=(--dim-emb 256 --dim-enc 256 --dim-dec 512 --dim-att 512 --dim-maxout 256 --mini-batch 64 --max-length 80
            --dropout 0.1 --early-stopping 0 --final-model last --save-freq 500 --log-freq 100 --threads 1)

# A reproducible stream of random bytes for shuf.
seeded() { openssl enc -aes-256-ctr -pass "pass:$1" -nosalt < /dev/zero 2> /dev/null; }

make_noisy_corpus() {
  [ -f "$out/noise.lines" ] && return
  head -n "$NOISY_PAIRS" "$h36/bpe/train.en" > "$out/noisy.en"
  head -n "$NOISY_PAIRS" "$h36/bpe/train.fr" > "$out/clean-side.fr"
  tail -n +"$((NOISY_PAIRS + 1))" "$h36/bpe/train.en" > "$out/scorer.en"
  tail -n +"$((NOISY_PAIRS + 1))" "$h36/bpe/train.fr" > "$out/scorer.fr"
  local count=$((NOISY_PAIRS * NOISE_PERCENT / 100))
  seq 1 "$NOISY_PAIRS" | shuf -n "$count" --random-source=<(seeded pick) | sort -n > "$out/picked.lines"
  shuf --random-source=<(seeded permute) "$out/picked.lines" > "$out/donor.lines"
  # Line picked[i] gets the French of line donor[i].
  awk 'FILENAME == ARGV[1] { picked[FNR] = $1; next } FILENAME == ARGV[2] { donor[picked[FNR]] = $1; next }
       { french[FNR] = $0 } END { for (i = 1; i <= FNR; ++i) print (i in donor) ? french[donor[i]] : french[i] }' \
    "$out/picked.lines" "$out/donor.lines" "$out/clean-side.fr" > "$out/noisy.fr"
  paste -d '\t' "$out/clean-side.fr" "$out/noisy.fr" | awk -F '\t' '$1 != $2 { print NR }' > "$out/noise.lines.tmp"
  mv "$out/noise.lines.tmp" "$out/noise.lines"
}

train_model() {  # NAME SRC_FILE TGT_FILE SRC_VOCAB TGT_VOCAB UPDATES
  [ -f "$out/$1.bin" ] && [ ! -f "$out/$1.bin.ckpt.training" ] && return
  : > "$out/$1.bin.ckpt.training"
  local resume=()
  [ -f "$out/$1.bin.ckpt" ] && resume=(--resume)
  "$train" -t "$2" "$3" -v "$4" "$5" -m "$out/$1.bin" --max-updates "$6" "${model_opts[@]}" "${resume[@]}" \
    2> "$out/$1.log"
  rm "$out/$1.bin.ckpt.training"
}

train_scorers() {
  train_model scorer.en-fr "$out/scorer.en" "$out/scorer.fr" "$h36/vocab.en" "$h36/vocab.fr" "$SCORER_UPDATES" &
  train_model scorer.fr-en "$out/scorer.fr" "$out/scorer.en" "$h36/vocab.fr" "$h36/vocab.en" "$SCORER_UPDATES"
  wait
}

filter_noisy_corpus() {
  [ -f "$out/filtered.fr" ] && return
  pipelines/filter.sh --forward "$out/scorer.en-fr.bin" --reverse "$out/scorer.fr-en.bin" --keep "$KEEP_PERCENT" \
    --scores "$out/noisy.scores" --kept-lines "$out/kept.lines" --threads 2 \
    "$out/noisy.en" "$out/noisy.fr" "$out/filtered.en" "$out/filtered.fr"
}

train_finals() {
  train_model noisy.en-fr "$out/noisy.en" "$out/noisy.fr" "$h36/vocab.en" "$h36/vocab.fr" "$FINAL_UPDATES" &
  train_model filtered.en-fr "$out/filtered.en" "$out/filtered.fr" "$h36/vocab.en" "$h36/vocab.fr" "$FINAL_UPDATES"
  wait
}

test_bleu() {  # MODEL_NAME -> BLEU line
  if [ ! -f "$out/$1.test.fr" ]; then
    head -n "$TEST_LINES" "$h36/bpe/test.en" | "$decode" -m "$out/$1.bin" -b 5 --threads 2 -q |
      "$bpe" undo | "$detok" -l fr > "$out/$1.test.fr.tmp"
    mv "$out/$1.test.fr.tmp" "$out/$1.test.fr"
  fi
  "$bleu" <(head -n "$TEST_LINES" "$h36/raw/test.fr") -i "$out/$1.test.fr" -b -w 2
}

# Precision and recall at catching the noise when the worst PERCENT of the pairs go, by
# column COLUMN of the score file (1: the dual score, 2: H_fwd alone, 3: H_rev alone).
catch_rates() {  # COLUMN PERCENT
  awk -F '\t' 'FILENAME == ARGV[1] { noise[$1] = 1; total++; next }
               { print $'"$1"' "\t" (FNR in noise) }' "$out/noise.lines" "$out/noisy.scores" |
    sort -t $'\t' -k1,1gr -s | awk -F '\t' -v n="$NOISY_PAIRS" -v p="$2" -v total="$(wc -l < "$out/noise.lines")" '
      BEGIN { k = int(n * p / 100) } NR <= k { caught += $2 }
      END { printf "precision %.3f  recall %.3f", caught / k, caught / total }'
}

report() {
  local noise removed caught
  noise=$(wc -l < "$out/noise.lines")
  seq 1 "$NOISY_PAIRS" | sort > "$out/all.sorted"
  sort "$out/kept.lines" | comm -23 "$out/all.sorted" - | sort -n > "$out/removed.lines"
  removed=$(wc -l < "$out/removed.lines")
  caught=$(comm -12 <(sort "$out/removed.lines") <(sort "$out/noise.lines") | wc -l)
  {
    echo "noisy corpus: $NOISY_PAIRS pairs, $noise with a shuffled French line ($NOISE_PERCENT% picked)"
    echo "scorers: $SCORER_UPDATES updates each on the other $(wc -l < "$out/scorer.en") pairs"
    echo "filter: kept $KEEP_PERCENT%, removed $removed pairs, $caught of them noise"
    awk -v c="$caught" -v r="$removed" -v n="$noise" \
      'BEGIN { printf "precision %.4f  recall %.4f\n", c / r, c / n }'
    echo "removing the worst 5/10/15/20% by the dual score, and by one model's cross-entropy alone:"
    for percent in 5 10 15 20; do
      echo "  $percent%: dual $(catch_rates 1 "$percent") | forward alone $(catch_rates 2 "$percent") |" \
        "reverse alone $(catch_rates 3 "$percent")"
    done
    echo "BLEU on the first $TEST_LINES test sentences after $FINAL_UPDATES updates (beam 5):"
    echo "  unfiltered noisy corpus: $(test_bleu noisy.en-fr)"
    echo "  filtered corpus:         $(test_bleu filtered.en-fr)"
  } > "$out/report.txt.tmp"
  mv "$out/report.txt.tmp" "$out/report.txt"
  cat "$out/report.txt"
}

stage=${STAGE:-all}
make_noisy_corpus
[ "$stage" = corpus ] && exit 0
train_scorers
[ "$stage" = scorers ] && exit 0
filter_noisy_corpus
train_finals
report
