#!/usr/bin/env bash
# Constrained decoding measured on the hansard36 English -> French model
# (`make -f Makefile.pipeline hansard36`), on the first N test sentences, beam 5:
#   constraints  Post and Vilar's evaluation: 0, 1, 2 and 3 words drawn at random (seeded) from
#                each tokenized reference, BPE'd with the model's codes, as unordered
#                constraints: the share met in the 1-best (the pieces in a row), BLEU and chrF
#                of the detokenized output against the raw reference, and sentences/s of the
#                whole tool (median of --runs) against the unconstrained run of the same script
#   prefixes     the reference's first k tokenized words (k = 0, 1, 2, 4) as the prefix: BLEU
#                of what follows the first 4 words of each sentence (tokenized, the same words
#                of the reference for every k), so that the k compare
#   glossary     (with --glossary-pairs N) a glossary made by nmt-glossary extract from the HMM
#                alignments (nmt-align hmm) of the first N tokenized training pairs; the test
#                sentences whose source holds a glossary term and whose reference holds its
#                translation; nmt-terms' term usage and BLEU of the plain recipe and of
#                rnnsearch-translate --glossary
# Every table line names the machine kind; the work files stay in build/bench-data/constraints.
#   scripts/bench-constraints.sh [--dir work/hansard36] [--lines 2000] [--threads 2] [--runs 3]
#                                [--beam 5] [--seed 1] [--glossary-pairs 200000] [--only constraints|prefixes|glossary]
set -euo pipefail
cd "$(dirname "$0")/.."
dir=work/hansard36 lines=2000 threads=2 runs=3 beam=5 seed=1 glossary_pairs=0 only=""
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir=$2; shift 2 ;;
    --lines) lines=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --beam) beam=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --glossary-pairs) glossary_pairs=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    *) echo "bench-constraints.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
for f in "$dir/model.en-fr.bin" "$dir/bpe/codes" "$dir/bpe/test.en" "$dir/tok/test.fr" "$dir/raw/test.fr"; do
  [ -f "$f" ] || { echo "bench-constraints.sh: $f is missing: run make -f Makefile.pipeline hansard36" >&2; exit 1; }
done
[ -f build/CMakeCache.txt ] || cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)" --target nmt-decode nmt-bpe nmt-detokenize nmt-bleu nmt-tokenize >/dev/null
bin=build/bin
kind=$(grep -q avx512f /proc/cpuinfo && echo "AMD EPYC-class, AVX-512" || echo "AVX2 only")
kind="$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) cores, ${kind#*, }"
work=build/bench-data/constraints
mkdir -p "$work"
model=$dir/model.en-fr.bin codes=$dir/bpe/codes
head -n "$lines" "$dir/bpe/test.en" > "$work/test.en"
head -n "$lines" "$dir/tok/test.fr" > "$work/test.tok.fr"
head -n "$lines" "$dir/raw/test.fr" > "$work/test.fr"

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# decode NAME INPUT [OPTIONS...]: $work/NAME.out, and the median sentences/s in $work/NAME.rate
decode() {
  local name=$1 input=$2; shift 2
  local rates=()
  for _ in $(seq 1 "$runs"); do
    local start end
    start=$(date +%s.%N)
    "$bin"/nmt-decode -m "$model" -i "$input" -o "$work/$name.out" -b "$beam" --threads "$threads" --max-length 0 \
      --mini-batch 32 -q "$@"
    end=$(date +%s.%N)
    rates+=("$(awk -v s="$start" -v e="$end" -v n="$lines" 'BEGIN { printf "%.2f", n / (e - s) }')")
  done
  printf '%s\n' "${rates[@]}" | median > "$work/$name.rate"
}

# bleu_chrf NAME: "BLEU chrF" of the detokenized NAME.out against the raw reference
bleu_chrf() {
  "$bin"/nmt-bpe undo -i "$work/$1.out" | "$bin"/nmt-detokenize -l fr -q > "$work/$1.fr"
  echo "$("$bin"/nmt-bleu "$work/test.fr" -i "$work/$1.fr" -b -w 2) $("$bin"/nmt-bleu "$work/test.fr" -i "$work/$1.fr" -m chrf -b -w 1)"
}

# Words of each tokenized reference that hold a letter or digit, K of them drawn per line
# (fewer when the line has fewer), in their order in the line; a line of words per reference.
draw_words() {
  awk -v k="$1" -v seed="$seed" 'BEGIN { srand(seed + 1000 * k) } {
    n = 0; for (i = 1; i <= NF; ++i) if ($i ~ /[[:alnum:]]/) word[++n] = $i
    for (i = 1; i <= n; ++i) pick[i] = 0
    for (m = 0; m < k && m < n;) { j = 1 + int(rand() * n); if (!pick[j]) { pick[j] = 1; ++m } }
    line = ""; for (i = 1; i <= n; ++i) if (pick[i]) line = line (line == "" ? "" : "\t") word[i]
    print line }' "$work/test.tok.fr"
}

# Each tab-separated field BPE'd on its own: the constraints in the model's pieces.
bpe_fields() {
  awk -F'\t' '{ for (i = 1; i <= NF; ++i) print $i; print "\x01" }' "$1" | "$bin"/nmt-bpe apply -c "$codes" |
    awk 'BEGIN { line = "" } $0 == "\x01" { print line; line = ""; sep = ""; next } { line = line sep $0; sep = "\t" }'
}

# met OUT CONSTRAINTS: "met total" over the lines, a constraint met when its pieces are in a row
met() {
  awk -F'\t' 'NR == FNR { out[FNR] = " " $0 " "; next } {
    for (i = 1; i <= NF; ++i) if ($i != "") { ++total; if (index(out[FNR], " " $i " ")) ++met } }
    END { print met + 0, total + 0 }' "$1" "$2"
}

echo "hansard36 En->Fr, first $lines test sentences, beam $beam, $threads threads, mini-batch 32, $kind, $(date -u +%F), commit $(git rev-parse --short HEAD)"
if [ "$only" != glossary ]; then
  decode plain "$work/test.en"
  plain_rate=$(cat "$work/plain.rate")
fi
constraints() {
  echo "== reference words as unordered constraints"
  read -r plain_bleu plain_chrf < <(bleu_chrf plain)
  printf '| constraints per sentence | met in the 1-best | BLEU | chrF2 | sentences/s | vs none |\n|---|---|---|---|---|---|\n'
  printf '| 0 | | %s | %s | %s | 1.00x |\n' "$plain_bleu" "$plain_chrf" "$plain_rate"
  for k in 1 2 3; do
    draw_words "$k" > "$work/words.$k"
    bpe_fields "$work/words.$k" > "$work/constraints.$k"
    paste "$work/test.en" "$work/constraints.$k" > "$work/input.$k"
    decode "c$k" "$work/input.$k" --constraints unordered
    read -r m total < <(met "$work/c$k.out" "$work/constraints.$k")
    read -r b c < <(bleu_chrf "c$k")
    rate=$(cat "$work/c$k.rate")
    printf '| %s | %s%% (%s of %s) | %s | %s | %s | %sx |\n' "$k" "$(awk -v m="$m" -v t="$total" 'BEGIN { printf "%.2f", 100 * m / t }')" \
      "$m" "$total" "$b" "$c" "$rate" "$(awk -v r="$rate" -v p="$plain_rate" 'BEGIN { printf "%.2f", r / p }')"
  done
}
[ "$only" = "" ] || [ "$only" = constraints ] && constraints

prefixes() {
  echo "== the reference's first k words as the prefix: BLEU of the words after the first 4 (tokenized)"
  "$bin"/nmt-bpe undo -i "$work/plain.out" > "$work/p0.tok"
  after_four() { awk '{ line = ""; for (i = 5; i <= NF; ++i) line = line (i > 5 ? " " : "") $i; print line }' "$1"; }
  after_four "$work/test.tok.fr" > "$work/rest.ref"
  printf '| k | BLEU after the first 4 words | sentences/s |\n|---|---|---|\n'
  printf '| 0 | %s | %s |\n' "$(after_four "$work/p0.tok" | "$bin"/nmt-bleu "$work/rest.ref" -b -w 2 --tokenize none --force)" \
    "$(cat "$work/plain.rate")"
  for k in 1 2 4; do
    awk -v k="$k" '{ line = ""; for (i = 1; i <= k && i <= NF; ++i) line = line (i > 1 ? " " : "") $i; print line }' \
      "$work/test.tok.fr" | "$bin"/nmt-bpe apply -c "$codes" > "$work/prefix.$k"
    decode "p$k" "$work/test.en" --prefix "$work/prefix.$k"
    "$bin"/nmt-bpe undo -i "$work/p$k.out" > "$work/p$k.tok"
    printf '| %s | %s | %s |\n' "$k" "$(after_four "$work/p$k.tok" | "$bin"/nmt-bleu "$work/rest.ref" -b -w 2 --tokenize none --force)" \
      "$(cat "$work/p$k.rate")"
  done
}
[ "$only" = "" ] || [ "$only" = prefixes ] && prefixes

[ "$glossary_pairs" -gt 0 ] && { [ "$only" = "" ] || [ "$only" = glossary ]; } || exit 0
source scripts/bench-constraints-glossary.sh
