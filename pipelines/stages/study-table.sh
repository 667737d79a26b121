#!/usr/bin/env bash
# The table of pipelines/hansard36-study.mk, on stdout:
#   study-table.sh --study DIR --logs DIR --minutes M --threads N --beam B --decode-options "OPTS"
#                  --marian "MARIAN_BUILD or empty" SYSTEM...
# SYSTEM: "name option..." of one of our variants (trained into DIR/name: its log
# LOGS/study.name.train.log, decode.test.log, valid.scores, test.scores), or marian-name
# (DIR/marian-name/summary.txt of scripts/bench-marian.sh). One row per system; the variant
# of ours with the best valid BLEU is marked as the pick.
set -euo pipefail
study="" logs="" minutes="" threads="" beam="" decode_options="" marian=""
while [ $# -gt 0 ]; do
  case "$1" in
    --study) study=$2; shift 2 ;;
    --logs) logs=$2; shift 2 ;;
    --minutes) minutes=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --beam) beam=$2; shift 2 ;;
    --decode-options) decode_options=$2; shift 2 ;;
    --marian) marian=$2; shift 2 ;;
    --*) echo "study-table.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done

# score_of FILE METRIC: the BLEU or chrF2 figure of an nmt-bleu text report.
score_of() { awk -v m="$2" '$1 ~ "^" m "\\|" {for (i = 1; i < NF; i++) if ($i == "=") {print $(i + 1); exit}}' "$1"; }
# speed_of LOG: sentences per second of a decode log line ("N sentences in MS ms, ...").
speed_of() { awk '{printf "%.1f", $1 / ($4 / 1000)}' "$1"; }
# summary_of FILE KEY: a value of a bench-marian.sh summary.
summary_of() { awk -v k="$2: " 'index($0, k) == 1 {print substr($0, length(k) + 1); exit}' "$1"; }

# ours NAME OPTIONS: a row (tab-separated) from the variant's files.
ours() {
  local name=$1 options=${2:-(the 2015 model)} log=$logs/study.$1.train.log
  local training
  # The last run's end (a resumed run appends to the log) and the model's size.
  training=$(awk '/^model: / {p = $0; sub(/ parameters.*/, "", p); sub(/.* /, "", p)}
    /^training ended at update/ {u = $5; m = $0; sub(/.* after /, "", m); m += 0; t = $0;
      sub(/ target tokens seen.*/, "", t); sub(/.* /, "", t)}
    END {printf "%.1f\t%s\t%s\t%.0f", m, u, p, (m > 0 ? t / (60 * m) : 0)}' "$log")
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$training" "$(score_of "$study/$name/valid.scores" BLEU)" \
    "$(score_of "$study/$name/test.scores" BLEU)" "$(score_of "$study/$name/test.scores" chrF2)" \
    "$(speed_of "$study/$name/decode.test.log")" "$options"
}

# theirs NAME: a row from a bench-marian.sh summary.
theirs() {
  local s=$study/$1/summary.txt
  printf '%s\t%.1f\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$(summary_of "$s" minutes)" "$(summary_of "$s" updates)" \
    "$(summary_of "$s" parameters)" "$(summary_of "$s" 'train target tokens/s')" "$(summary_of "$s" 'valid BLEU')" \
    "$(summary_of "$s" 'test BLEU')" "$(summary_of "$s" 'test chrF')" \
    "$(awk '{printf "%.1f", $0}' <<< "$(summary_of "$s" 'test decode sentences/s')")" "$(summary_of "$s" options)"
}

rows=$(for system in "$@"; do
  read -r name options <<< "$system"
  case $name in marian-*) theirs "$name" ;; *) ours "$name" "$options" ;; esac
done)
# The pick: the best valid BLEU among ours (the first of equals).
pick=$(awk -F'\t' '$1 !~ /^marian-/ && ($6 + 0 > best || pick == "") {best = $6 + 0; pick = $1} END {print pick}' <<< "$rows")

precision=$(sed -nE 's/.*--precision[ =]([a-z0-9]+).*/\1/p' <<< "$decode_options")
shortlist=$(grep -q -- '--shortlist' <<< "$decode_options" && echo "with the shortlist" || echo "no shortlist")
echo "== hansard36 study: $minutes minutes of training per system on $threads thread(s), side by side;" \
     "test and valid translated with beam $beam on $threads thread(s)"
echo "-- machine: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), $(nproc) cores;" \
     "$(date -u +%F); commit $(git rev-parse --short HEAD 2> /dev/null || echo unknown)"
echo "-- ours: nmt-decode ${precision:-fp32}, $shortlist (options: ${decode_options:-none});" \
     "Marian: marian-decoder fp32, no shortlist, 32-sentence batches as ours"
{
  printf 'system\tminutes\tupdates\tparameters\ttrain tgt tok/s\tvalid BLEU\ttest BLEU\ttest chrF\tdecode sent/s\toptions\n'
  awk -F'\t' -v OFS='\t' -v pick="$pick" '{if ($1 == pick) $1 = $1 " *"; print}' <<< "$rows"
} | column -t -s $'\t'
echo "-- * the pick: the best valid BLEU of our variants; report its test figures"
echo "-- train tgt tok/s: target tokens with each sentence's </s>, no padding, over the training time;" \
     "decode sent/s: test sentences over the decoder's wall time, model loading included"
if [ -z "$marian" ]; then
  echo "-- Marian: not run (set MARIAN_BUILD, or MARIAN_DIR, to a build of scripts/bench-marian.sh build)"
else
  for system in "$@"; do
    case $system in marian-*)
      echo "-- $system: with $(summary_of "$study/$system/summary.txt" 'with the defaults');" \
           "int8: $(summary_of "$study/$system/summary.txt" int8)" ;;
    esac
  done
fi
