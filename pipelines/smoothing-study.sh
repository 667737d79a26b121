#!/usr/bin/env bash
# Exponential smoothing and checkpoint averaging against plain training, same budget, on
# Multi30k De->En (scripts/prepare-multi30k.sh: the pipeline's tokenization and joint BPE
# of 8,000 merges) with the README's Multi30k options, each run on one thread, side by side:
#   plain     nmt-train --max-updates UPDATES --keep-checkpoints KEEP (saves every SAVE_FREQ)
#   smoothed  the same with --exponential-smoothing (Marian's 1e-4)
#   averaged  nmt-average of plain's last KEEP saved models (and of smoothed's)
# and the test_2016_flickr BLEU of each (beam 5, detokenized, cased; nmt-bleu = sacreBLEU).
# Stages whose result exists are skipped: rerunning resumes.
#   pipelines/smoothing-study.sh [OUT]     (default work/smoothing-study; OUT/report.txt)
set -euo pipefail
cd "$(dirname "$0")/.."
source pipelines/common.sh
USAGE="pipelines/smoothing-study.sh [OUT]
Compares plain training, exponential smoothing and checkpoint averaging on Multi30k
De->En; OUT defaults to work/smoothing-study, the report is OUT/report.txt. Rerunning
resumes. Settings, from the environment (defaults in brackets): UPDATES [8000],
KEEP [4] saved models averaged, SAVE_FREQ [500], NMT_SHARED where the reference data
live [../shared]."
case ${1:-} in -h | --help) show_usage ;; -*) die_usage "unknown option $1" ;; esac
[ $# -le 1 ] || die_usage "unexpected argument '$2'"
out=${1:-work/smoothing-study}
UPDATES=${UPDATES:-8000} KEEP=${KEEP:-4} SAVE_FREQ=${SAVE_FREQ:-500}
shared=${NMT_SHARED:-../shared}
data=build/bench-data/multi30k-de-en
scripts/prepare-multi30k.sh "$data" > /dev/null
mkdir -p "$out"
train=$(nmt_tool nmt-train) decode=$(nmt_tool nmt-decode) bpe=$(nmt_tool nmt-bpe) average=$(nmt_tool nmt-average)
detok=$(nmt_tool nmt-detokenize) bleu=$(nmt_tool nmt-bleu)
opts=(--dim-emb 256 --dim-enc 256 --dim-dec 512 --dim-att 512 --dim-maxout 256 --mini-batch 64 --dropout 0.3
      --label-smoothing 0.1 --save-freq "$SAVE_FREQ" --log-freq 100 --early-stopping 0 --final-model last
      --max-updates "$UPDATES" --keep-checkpoints "$KEEP" --threads 1)

train_run() {  # NAME [extra nmt-train options]
  local name=$1
  shift
  [ -f "$out/$name.bin" ] && [ ! -f "$out/$name.training" ] && return
  : > "$out/$name.training"
  local resume=()
  [ -f "$out/$name.bin.ckpt" ] && resume=(--resume)
  "$train" -t "$data/train.bpe.de" "$data/train.bpe.en" -m "$out/$name.bin" "${opts[@]}" "$@" "${resume[@]}" \
    2> "$out/$name.log"
  rm "$out/$name.training"
}

test_bleu() {  # MODEL -> BLEU and chrF
  if [ ! -f "$1.test.en" ]; then
    "$decode" -m "$1" -i "$data/test_2016_flickr.bpe.de" -b 5 --threads 2 -q | "$bpe" undo | "$detok" -l en \
      > "$1.test.en.tmp"
    mv "$1.test.en.tmp" "$1.test.en"
  fi
  "$bleu" <(zcat "$shared/data/multi30k/test_2016_flickr.en.gz") -i "$1.test.en" -m bleu chrf -f text -w 2
}

train_run plain &
train_run smoothed --exponential-smoothing
wait
average_kept() {  # RUN OUT
  [ -f "$2" ] && return
  mapfile -t kept < <(ls -v "$out/$1".bin.update* | grep -v '\.test\.en')
  "$average" -o "$2" "${kept[@]}"
}
average_kept plain "$out/averaged.bin"
average_kept smoothed "$out/smoothed-avg.bin"
{
  echo "Multi30k De->En, $UPDATES updates of 64 sentences, one thread each; test_2016_flickr, beam 5"
  echo "plain (last parameters):            $(test_bleu "$out/plain.bin" | tr '\n' ' ')"
  echo "exponential smoothing 1e-4:         $(test_bleu "$out/smoothed.bin" | tr '\n' ' ')"
  echo "average of plain's last $KEEP saves:    $(test_bleu "$out/averaged.bin" | tr '\n' ' ')"
  echo "average of smoothed's last $KEEP saves: $(test_bleu "$out/smoothed-avg.bin" | tr '\n' ' ')"
} > "$out/report.txt.tmp"
mv "$out/report.txt.tmp" "$out/report.txt"
cat "$out/report.txt"
