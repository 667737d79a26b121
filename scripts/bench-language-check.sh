#!/usr/bin/env bash
# Usage: scripts/bench-language-check.sh [BUILD]      (NMT_SHARED: where the data live, ../shared)
# The figures of the language check (data/language_check.h) on Multi30k: two models whose
# sources are English (en-cs) and German (de-en), preprocessed as Makefile.pipeline does
# (nmt-tokenize -l L --no-escape, one joint BPE of 8000 merges over both sides' tokenized
# training text, nmt-vocab per side), each trained for one update on the whole training
# text: the source profile comes from the training text, not from training, so more
# updates would not change it. Then every 50-line chunk (whole chunks only) of each input
# is given to nmt-decode (greedy), once with the default options (is the chunk flagged?) and
# once with every warning on, to read the figures: the model's own test
# and valid sets; the German, French, Czech and English test sets BPE'd with the model's
# codes; the model's test source tokenized but not BPE'd, and raw; and, for the English
# model, English of another domain (the first 1,000 lines of 8 words or more of the
# Hansards, BPE'd with the model's codes). Per input: the share of chunks the language
# check flags at the default --language-warning (another language, or text not BPE'd), the
# share today's --unknown-warning flags, the ratio's range, and the other signals measured
# beside it: the share of unknown pieces, of words split into several pieces (the training
# source's share in the heading) and of words the training source never has.
# Prints a Markdown table; the work files go to BUILD/bench-data/language-check.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
shared=${NMT_SHARED:-../shared}
m30k=$shared/data/multi30k
hansards=$shared/data/hansards/hansards.en.gz
for f in "$m30k/train.en.gz" "$hansards"; do
  [ -f "$f" ] || { echo "bench-language-check.sh: $f: not found (set NMT_SHARED)" >&2; exit 1; }
done
bin=$build/bin
cmake --build "$build" -j2 --target nmt-tokenize nmt-bpe nmt-vocab nmt-train nmt-decode > /dev/null
work=$build/bench-data/language-check
mkdir -p "$work/chunks"
threshold=$("$bin/nmt-decode" --help | sed -n 's/.*--language-warning arg (=\([0-9.]*\)).*/\1/p')

# Tokenized text, once: tok.SET.L for SET in train, val, test and L in en, de, fr, cs.
for l in en de fr cs; do
  for set in train val test; do
    name=$set; [ "$set" = test ] && name=test_2016_flickr
    [ -f "$work/tok.$set.$l" ] && continue
    gunzip -c "$m30k/$name.$l.gz" > "$work/raw.$set.$l"
    "$bin/nmt-tokenize" -l "$l" --no-escape -i "$work/raw.$set.$l" -o "$work/tok.$set.$l"
  done
done
if [ ! -f "$work/tok.hansards.en" ]; then
  gunzip -c "$hansards" | awk 'NF >= 8 && n < 1000 { print; ++n }' > "$work/raw.hansards.en"
  "$bin/nmt-tokenize" -l en --no-escape -i "$work/raw.hansards.en" -o "$work/tok.hansards.en"
fi

# chunk_figures MODEL_DIR SRC INPUT: one line per 50-line chunk of INPUT:
# "ratio unknown split oov flagged unknown_flagged", oov against the training source's words.
chunk_figures() {
  local dir=$1 src=$2 input=$3 n
  n=$(wc -l < "$input")
  for ((first = 1; first + 49 <= n; first += 50)); do
    local chunk=$work/chunks/chunk
    sed -n "${first},$((first + 49))p" "$input" > "$chunk"
    local warnings defaults flagged=0 unknown_flagged=0
    defaults=$("$bin/nmt-decode" -m "$dir/model.bin" -i "$chunk" -o /dev/null -b 1 -q 2>&1 >/dev/null)
    grep -q " does not look " <<< "$defaults" && flagged=1
    grep -q " are unknown to the model" <<< "$defaults" && unknown_flagged=1
    warnings=$("$bin/nmt-decode" -m "$dir/model.bin" -i "$chunk" -o /dev/null -b 1 -q \
      --language-warning 0.001 --unknown-warning 0 2>&1 >/dev/null)
    local ratio unknown
    ratio=$(sed -n 's/.*, \([0-9.]*\) times that text.s own.*/\1/p' <<< "$warnings")
    unknown=$(sed -n 's/.* tokens (\([0-9.]*\)%).*/\1/p' <<< "$warnings")
    awk -v ratio="${ratio:-0}" -v unknown="${unknown:-0}" -v words="$dir/words.$src" \
      -v flagged=$flagged -v unknown_flagged=$unknown_flagged '
      BEGIN { while ((getline w < words) > 0) known[w] = 1 }
      { line = $0; joined = gsub(/@@ /, "", line); n = split(line, ws, " ")
        for (i = 1; i <= n; ++i) { ++total; if (!(ws[i] in known)) ++oov }
        split($0, ps, " "); for (i in ps) if (ps[i] ~ /@@$/ && (i == 1 || ps[i - 1] !~ /@@$/)) ++split_words }
      END { printf "%s %.2f %.2f %.2f %d %d\n", ratio, unknown, 100 * split_words / total, 100 * oov / total,
            flagged, unknown_flagged }' "$chunk"
  done
}

# A row: INPUT's chunks flagged by the language check and by --unknown-warning, and each figure's range.
row() {
  local label=$1 dir=$2 src=$3 input=$4
  chunk_figures "$dir" "$src" "$input" | awk -v label="$label" '
    function range(k) { return sprintf("%s-%s", lo[k], hi[k]) }
    { ++chunks; flagged += $5; unknown_flagged += $6
      for (k = 1; k <= 4; ++k) { if (chunks == 1 || $k + 0 < lo[k] + 0) lo[k] = $k; if (chunks == 1 || $k + 0 > hi[k] + 0) hi[k] = $k } }
    END { printf "| %s | %d | %d (%.0f%%) | %d (%.0f%%) | %s | %s | %s | %s |\n", label, chunks, flagged,
          100 * flagged / chunks, unknown_flagged, 100 * unknown_flagged / chunks, range(1), range(2), range(3), range(4) }'
}

echo "Language check at the default --language-warning $threshold, 50-line chunks"
echo
echo "| model, input | chunks | flagged (language check) | flagged (--unknown-warning) | ratio | unknown pieces % | split words % | words unseen in training % |"
echo "|---|---|---|---|---|---|---|---|"
for pair in en-cs de-en; do
  src=${pair%-*} tgt=${pair#*-} dir=$work/$pair
  mkdir -p "$dir"
  if [ ! -f "$dir/model.bin" ]; then
    cat "$work/tok.train.$src" "$work/tok.train.$tgt" | "$bin/nmt-bpe" learn -s 8000 -o "$dir/codes" -q
    for l in "$src" "$tgt"; do
      "$bin/nmt-bpe" apply -c "$dir/codes" -i "$work/tok.train.$l" -o "$dir/train.$l"
      "$bin/nmt-vocab" -i "$dir/train.$l" -o "$dir/vocab.$l" -q
    done
    "$bin/nmt-train" -t "$dir/train.$src" "$dir/train.$tgt" -v "$dir/vocab.$src" "$dir/vocab.$tgt" --allow-unk \
      -m "$dir/model.bin" --dim-emb 8 --dim-enc 8 --dim-dec 8 --dim-att 8 --dim-maxout 8 --mini-batch 4 \
      --max-updates 1 --overwrite --quiet
    sed 's/@@ //g' "$dir/train.$src" | tr ' ' '\n' | sort -u > "$dir/words.$src"
  fi
  for set in test val; do "$bin/nmt-bpe" apply -c "$dir/codes" -i "$work/tok.$set.$src" -o "$dir/$set.$src"; done
  for l in en de fr cs; do
    [ "$l" = "$src" ] || "$bin/nmt-bpe" apply -c "$dir/codes" -i "$work/tok.test.$l" -o "$dir/test.$l"
  done
  train_split=$(awk '{ split($0, ps, " "); for (i in ps) { if (ps[i] !~ /@@$/) ++words; if (ps[i] ~ /@@$/ && (i == 1 || ps[i - 1] !~ /@@$/)) ++s } }
    END { printf "%.2f", 100 * s / words }' "$dir/train.$src")
  echo "| **$pair** (training source: split words $train_split%) | | | | | | | |"
  row "own test ($src)" "$dir" "$src" "$dir/test.$src"
  row "own valid ($src)" "$dir" "$src" "$dir/val.$src"
  for l in en de fr cs; do [ "$l" = "$src" ] || row "test.$l" "$dir" "$src" "$dir/test.$l"; done
  row "test.$src tokenized, not BPE'd" "$dir" "$src" "$work/tok.test.$src"
  row "test.$src raw" "$dir" "$src" "$work/raw.test.$src"
  if [ "$src" = en ]; then
    "$bin/nmt-bpe" apply -c "$dir/codes" -i "$work/tok.hansards.en" -o "$dir/hansards.en"
    row "Hansards English (another domain)" "$dir" "$src" "$dir/hansards.en"
  fi
done
