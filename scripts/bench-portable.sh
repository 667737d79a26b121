#!/usr/bin/env bash
# What the portable build costs against a build for this CPU, in one run: training
# (build/bench/train_bench, target tokens/s) and decoding (build/bench/decode_bench,
# sentences/s: fp32 and int8 with a lexical shortlist, greedy and beam 5) of the default
# build (`build`, RNNSEARCH_NATIVE=OFF: baseline x86-64 and kernels chosen at run time)
# against the same tree built with -march=native (BUILD_DIR, configured here when new), on
# Multi30k De-En (scripts/prepare-multi30k.sh), alternating the two builds run by run.
# Prints the medians and their ratio (portable / native).
#   scripts/bench-portable.sh [--native-build build-native] [--runs 5] [--threads 2] [--updates 150]
#                             [--model MODEL] [--level LEVEL] [--native-flags FLAGS]
# --level LEVEL runs both builds with RNNSEARCH_CPU_ISA=LEVEL; with avx2, oneDNN and
# OpenBLAS are held to AVX2 too (ONEDNN_MAX_CPU_ISA=AVX2, OPENBLAS_CORETYPE=Haswell): the
# AVX2 machine kind on an AVX-512 one. The native build should then be built for it:
# --native-flags -march=x86-64-v3 configures BUILD_DIR with those flags instead of
# -march=native.
set -euo pipefail
cd "$(dirname "$0")/.."
native=build-native runs=5 threads=2 updates=150 model="" level="" native_flags=""
while [ $# -gt 0 ]; do
  case "$1" in
    --native-build) native=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --updates) updates=$2; shift 2 ;;
    --model) model=$2; shift 2 ;;
    --level) level=$2; shift 2 ;;
    --native-flags) native_flags=$2; shift 2 ;;
    *) echo "bench-portable.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
targets=(train_bench decode_bench nmt-train nmt-tokenize nmt-bpe)
[ -f build/CMakeCache.txt ] || cmake -S . -B build -DCMAKE_BUILD_TYPE=Release > /dev/null
grep -q '^RNNSEARCH_NATIVE:BOOL=OFF' build/CMakeCache.txt ||
  { echo "bench-portable.sh: build/ is configured with RNNSEARCH_NATIVE=ON; it should be the default build" >&2; exit 1; }
if [ ! -f "$native/CMakeCache.txt" ]; then
  if [ -n "$native_flags" ]; then
    cmake -S . -B "$native" -DCMAKE_BUILD_TYPE=Release -DRNNSEARCH_NATIVE=OFF -DCMAKE_CXX_FLAGS="$native_flags" > /dev/null
  else
    cmake -S . -B "$native" -DCMAKE_BUILD_TYPE=Release -DRNNSEARCH_NATIVE=ON > /dev/null
  fi
fi
cmake --build build -j "$(nproc)" --target "${targets[@]}" > /dev/null
cmake --build "$native" -j "$(nproc)" --target train_bench decode_bench > /dev/null
data=build/bench-data/multi30k-de-en
./scripts/prepare-multi30k.sh "$data"
work=build/bench-data/portable
mkdir -p "$work"
if [ -z "$model" ]; then
  model=$work/model.bin
  [ -f "$model" ] || build/bin/nmt-train -t "$data/train.bpe.de" "$data/train.bpe.en" -m "$model" --max-minutes 3 \
    --threads "$threads" --quiet
fi
shortlist=$(./scripts/bench-shortlist.sh "$data" "$work" "$threads")

environment=()
if [ -n "$level" ]; then
  environment+=(RNNSEARCH_CPU_ISA="$level")
  [ "$level" = avx2 ] && environment+=(ONEDNN_MAX_CPU_ISA=AVX2 OPENBLAS_CORETYPE=Haswell)
fi
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# compare NAME PATTERN COMMAND...: COMMAND (a path under bench/ of each build, then its
# options) run by both builds in turn, --runs times; PATTERN is the sed expression that
# reads the figure from its output.
compare() {
  local name=$1 pattern=$2; shift 2
  local portable=() native_rates=() dir rate
  for _ in $(seq 1 "$runs"); do
    for dir in build "$native"; do
      rate=$(env "${environment[@]}" "$dir/bench/$@" | sed -n "$pattern")
      [ -n "$rate" ] || { echo "bench-portable.sh: no figure from $dir/bench/$1" >&2; exit 1; }
      if [ "$dir" = build ]; then portable+=("$rate"); else native_rates+=("$rate"); fi
    done
  done
  local p n
  p=$(printf '%s\n' "${portable[@]}" | median)
  n=$(printf '%s\n' "${native_rates[@]}" | median)
  awk -v name="$name" -v p="$p" -v n="$n" -v pr="${portable[*]}" -v nr="${native_rates[*]}" 'BEGIN {
    printf "| %s | %.1f | %.1f | %.3f |\n", name, p, n, p / n
    printf "    portable runs: %s; native runs: %s\n", pr, nr > "/dev/stderr" }'
}

echo "Portable build (build) against $native, $threads thread(s), $runs alternating runs each, medians;"
levels=$(env "${environment[@]}" build/bin/nmt-decode --version | sed -n 's/^kernels: //p')
echo "portable build's kernels: $levels"
echo
echo "| what | portable | native | portable / native |"
echo "|---|---|---|---|"
compare "training, target tokens/s (fp32)" 's/^RESULT precision=fp32 median_tokens_per_second=\([0-9.]*\).*/\1/p' \
  train_bench --src "$data/train.bpe.de" --tgt "$data/train.bpe.en" --threads "$threads" --updates "$updates" \
  --precision fp32
for precision in fp32 int8; do
  options=(--precision "$precision")
  [ "$precision" = int8 ] && options+=(--shortlist "$shortlist")
  for beam in 1 5; do
    compare "decoding, $precision$([ "$precision" = int8 ] && echo ' + shortlist'), beam $beam, sentences/s" \
      's/^RESULT sentences_per_second=\([0-9.]*\).*/\1/p' \
      decode_bench --model "$model" --src "$data/test_2016_flickr.bpe.de" --beam "$beam" --threads "$threads" \
      --runs 1 "${options[@]}"
  done
done
