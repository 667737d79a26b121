#!/usr/bin/env bash
# Training across processes on this machine: build/bench/mpi_train_bench under
# `mpirun -np 1` and `mpirun -np 2`, one thread each, on BPE'd Multi30k De-En
# (scripts/prepare-multi30k.sh) in the benchmark configuration. Prints updates per
# second and the scaling efficiency, for a fixed global batch (64 sentences, cut in two:
# strong scaling) and for 64 sentences per process (global batch 128: weak scaling).
# The three configurations take turns, --runs times, and the medians are compared, so
# that a load coming or going on a shared machine touches all of them alike.
#   scripts/bench-mpi.sh [--updates N] [--warmup N] [--runs N]
set -euo pipefail
cd "$(dirname "$0")/.."
updates=60 warmup=5 runs=3
while [ $# -gt 0 ]; do
  case "$1" in
    --updates) updates=$2; shift 2 ;;
    --warmup) warmup=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    *) echo "bench-mpi.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
./scripts/install-deps.sh
[ -f build/CMakeCache.txt ] || cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)" --target mpi_train_bench nmt-tokenize nmt-bpe >/dev/null
data=build/bench-data/multi30k-de-en
./scripts/prepare-multi30k.sh "$data"

# Open MPI refuses root unless told (CI and these machines run as root).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
results=$(mktemp)
trap 'rm -f "$results"' EXIT
for run in $(seq 1 "$runs"); do
  for config in "1 64" "2 64" "2 128"; do
    set -- $config
    echo "== run $run: mpirun -np $1, 1 thread each, global batch $2 (load average $(cut -d' ' -f1 /proc/loadavg))"
    report=$(mpirun -np "$1" build/bench/mpi_train_bench --src "$data/train.bpe.de" --tgt "$data/train.bpe.en" \
      --threads 1 --mini-batch "$2" --updates "$updates" --warmup "$warmup")
    echo "$report"
    echo "$report" | sed -n "s/^RESULT .*updates_per_second=\([0-9.]*\) tokens_per_second=\([0-9]*\).*/$1-$2 \1 \2/p" \
      >> "$results"
  done
done
median() {  # config, field (2 = updates/s, 3 = tokens/s)
  awk -v c="$1" -v f="$2" '$1 == c { print $f }' "$results" | sort -g | awk '{ v[NR] = $1 }
    END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}
echo "== medians of $runs runs ($updates updates each after $warmup warm-up)"
awk -v a="$(median 1-64 2)" -v b="$(median 2-64 2)" -v c="$(median 2-128 2)" \
    -v ta="$(median 1-64 3)" -v tc="$(median 2-128 3)" 'BEGIN {
  printf "global batch 64:  1 process %.3f updates/s, 2 processes %.3f updates/s: speed-up %.2fx, efficiency %.0f%%\n",
    a, b, b / a, 50 * b / a
  printf "64 per process:   1 process %.0f target tokens/s, 2 processes (batch 128) %.0f: efficiency %.0f%% (%.3f updates/s)\n",
    ta, tc, 50 * tc / ta, c
}'
