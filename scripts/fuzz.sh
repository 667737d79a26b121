#!/usr/bin/env bash
# Fuzzes every reader (tests/fuzz/*.cc) with libFuzzer, AddressSanitizer and UBSan:
#   scripts/fuzz.sh [SECONDS] [TARGET...]   (SECONDS per target, default 60; all targets by default)
# Builds with clang in FUZZ_BUILD_DIR (default build-fuzz), runs each target over a
# working copy of its seed corpus (kept in the build folder, so later runs go on from it)
# and prints the executions per target. A crash is copied to tests/fuzz/crashes/TARGET/,
# where ctest replays it from then on (label fuzz-replay), and the script exits 1.
# FUZZ_MERGE=1 merges inputs with new coverage back into tests/fuzz/corpus/TARGET.
set -euo pipefail
cd "$(dirname "$0")/.."
source=$PWD

seconds=${1:-60}
shift || true
build=${FUZZ_BUILD_DIR:-build-fuzz}

./scripts/install-deps.sh --fuzz
# -O1 without NDEBUG: fast enough to fuzz, and Eigen's and the library's asserts stay on.
mkdir -p "$build"
cmake -S . -B "$build" -DRNNSEARCH_FUZZ=ON -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" > "$build/configure.log"
cmake --build "$build" --target fuzz_targets -j "$(nproc)"

if [ $# -gt 0 ]; then
  targets=("$@")
else
  targets=()
  for dir in tests/fuzz/corpus/*/; do targets+=("$(basename "$dir")"); done
fi

# The model reader turns a size no allocator can meet (std::bad_alloc) into util::Error, so
# the model targets fuzz what a real run sees: ASan returns null for an impossible request
# instead of reporting it, and libFuzzer's malloc limit is lifted to ASan's own (1 TB).
# Memory actually used still counts (-rss_limit_mb, 2 GB).
extra_options() {
  case $1 in
    model_file | model_payload | checkpoint_payload) echo -malloc_limit_mb=1048576 ;;
  esac
}

# Longest input per target: a model file is a few KB (the seeds are 2-5 KB), a text line
# or a small codes file much less.
max_len() {
  case $1 in
    model_file | model_payload | checkpoint_payload) echo 8192 ;;
    *) echo 4096 ;;
  esac
}

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
status=0
total=0
summary=()
for target in "${targets[@]}"; do
  work=$build/corpus/$target
  crashes=$build/crashes/$target
  mkdir -p "$work" "$crashes"
  log=$build/fuzz-$target.log
  echo "fuzz: $target for ${seconds}s (log $log)" >&2
  # New inputs go to the first folder (the working copy); the others are only read.
  # -timeout: an input running 10 s is a hang, reported like a crash.
  # The crashes found before are run first, under the sanitizers (ctest replays them without).
  inputs=("$work" "tests/fuzz/corpus/$target")
  if [ -d "tests/fuzz/crashes/$target" ]; then inputs+=("tests/fuzz/crashes/$target"); fi
  result=ok
  if ! "$build/fuzz/fuzz_$target" -max_total_time="$seconds" -max_len="$(max_len "$target")" -timeout=10 \
    $(extra_options "$target") -print_final_stats=1 -artifact_prefix="$crashes/" "${inputs[@]}" > "$log" 2>&1; then
    result=CRASH
    status=1
    mkdir -p "tests/fuzz/crashes/$target"
    cp "$crashes"/* "tests/fuzz/crashes/$target/" 2> /dev/null || true
  fi
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  runs=${runs:-0}
  total=$((total + runs))
  summary+=("$(printf '%-20s %12s executions  %s' "$target" "$runs" "$result")")
  if [ "${FUZZ_MERGE:-0}" = 1 ] && [ $result = ok ]; then
    "$build/fuzz/fuzz_$target" -merge=1 -max_len="$(max_len "$target")" "tests/fuzz/corpus/$target" "$work" \
      > "$build/merge-$target.log" 2>&1
  fi
done

printf '%s\n' "${summary[@]}"
printf '%-20s %12s executions in %ss per target\n' total "$total" "$seconds"
if [ $status -ne 0 ]; then
  echo "fuzz: crashes copied to $source/tests/fuzz/crashes/ (the logs in $build name them)" >&2
fi
exit $status
