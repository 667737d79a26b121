#!/usr/bin/env bash
# What the portable build costs against a build for this CPU, in one run: training
# (build/bench/train_bench, target tokens/s, fp32 and, where the CPU has AVX-512 BF16,
# bf16) and decoding (build/bench/decode_bench, sentences/s: fp32 and int8 with a lexical
# shortlist, greedy and beam 5) of the default build (`build`, RNNSEARCH_NATIVE=OFF:
# baseline x86-64 and kernels chosen at run time) against the same tree built for the CPU,
# on Multi30k De-En (scripts/prepare-multi30k.sh), alternating the two builds run by run.
# Prints the medians and their ratio (portable / native), one table per machine kind:
#   - this CPU: build-native, -DRNNSEARCH_NATIVE=ON (-march=native);
#   - the AVX2 kind, on a CPU with AVX-512: both builds held to AVX2 (RNNSEARCH_CPU_ISA=avx2,
#     ONEDNN_MAX_CPU_ISA=AVX2, OPENBLAS_CORETYPE=Haswell) and the native one built with
#     -march=x86-64-v3 (build-native-avx2), the AVX2 machine's -march=native but for the
#     tuning. On an AVX2-only CPU the first table is that kind and the second is left out.
# Build directories are configured here when new.
#   scripts/bench-portable.sh [--runs 5] [--threads 2] [--updates 150] [--model MODEL]
#                             [--kinds native,avx2]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=5 threads=2 updates=150 model="" kinds=native,avx2
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --updates) updates=$2; shift 2 ;;
    --model) model=$2; shift 2 ;;
    --kinds) kinds=$2; shift 2 ;;
    *) echo "bench-portable.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
for kind in ${kinds//,/ }; do
  case "$kind" in native | avx2) ;; *) echo "bench-portable.sh: --kinds takes native and avx2, not '$kind'" >&2; exit 2 ;; esac
done
targets=(train_bench decode_bench nmt-train nmt-tokenize nmt-bpe nmt-decode)
[ -f build/CMakeCache.txt ] || cmake -S . -B build -DCMAKE_BUILD_TYPE=Release > /dev/null
grep -q '^RNNSEARCH_NATIVE:BOOL=OFF' build/CMakeCache.txt ||
  { echo "bench-portable.sh: build/ is configured with RNNSEARCH_NATIVE=ON; it should be the default build" >&2; exit 1; }
cmake --build build -j "$(nproc)" --target "${targets[@]}" > /dev/null
levels=$(build/bin/nmt-decode --version | sed -n 's/^kernels: //p')
has_avx512=no
grep -q -w avx512f /proc/cpuinfo && has_avx512=yes
has_bf16=no
grep -q -w avx512_bf16 /proc/cpuinfo && has_bf16=yes

# native_build DIR [FLAGS]: DIR configured (when new) and built for this CPU, or with FLAGS.
native_build() {
  local dir=$1 flags=${2:-}
  if [ ! -f "$dir/CMakeCache.txt" ]; then
    if [ -n "$flags" ]; then
      cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DRNNSEARCH_NATIVE=OFF -DCMAKE_CXX_FLAGS="$flags" > /dev/null
    else
      cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DRNNSEARCH_NATIVE=ON > /dev/null
    fi
  fi
  cmake --build "$dir" -j "$(nproc)" --target train_bench decode_bench > /dev/null
}

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
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# compare NAME PATTERN COMMAND...: COMMAND (a path under bench/ of each build, then its
# options) run by build and $native in turn, --runs times, with $environment; PATTERN is
# the sed expression that reads the figure from its output.
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

# table TITLE: every row, build against $native.
table() {
  echo "$1; $threads thread(s), $runs alternating runs each, medians"
  echo "portable build's kernels: $(env "${environment[@]}" build/bin/nmt-decode --version | sed -n 's/^kernels: //p')"
  echo
  echo "| what | portable | native | portable / native |"
  echo "|---|---|---|---|"
  local precisions=(fp32)
  [ "$bf16" = yes ] && precisions+=(bf16)
  for precision in "${precisions[@]}"; do
    compare "training, target tokens/s ($precision)" \
      "s/^RESULT precision=$precision median_tokens_per_second=\([0-9.]*\).*/\1/p" \
      train_bench --src "$data/train.bpe.de" --tgt "$data/train.bpe.en" --threads "$threads" --updates "$updates" \
      --precision "$precision"
  done
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
  echo
}

echo "CPU: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1); the portable build has kernels for: $levels"
echo
if [[ ",$kinds," == *,native,* ]]; then
  native=build-native environment=() bf16=$has_bf16
  native_build "$native"
  table "This CPU: the portable build against build-native (-march=native)"
fi
if [[ ",$kinds," == *,avx2,* && $has_avx512 = no ]]; then
  echo "The AVX2 kind: this CPU has no AVX-512, so the table above is that kind's"
elif [[ ",$kinds," == *,avx2,* ]]; then
  native=build-native-avx2 bf16=no
  environment=(RNNSEARCH_CPU_ISA=avx2 ONEDNN_MAX_CPU_ISA=AVX2 OPENBLAS_CORETYPE=Haswell)
  native_build "$native" -march=x86-64-v3
  table "The AVX2 kind: both builds held to AVX2, against build-native-avx2 (-march=x86-64-v3)"
fi
