#!/usr/bin/env bash
# The unit tests under the sanitizers:
#   scripts/sanitize.sh [CTEST_ARGS...]           AddressSanitizer and UBSan, every unit test
#   scripts/sanitize.sh --thread [CTEST_ARGS...]  ThreadSanitizer: the signal and thread tests
# The first builds everything with -fsanitize=address,undefined (RNNSEARCH_SANITIZE=ON, the
# default compiler) in SANITIZE_BUILD_DIR (default build-sanitize) and runs ctest -L unit
# there; --thread builds with -fsanitize=thread (RNNSEARCH_SANITIZE_THREAD=ON) in
# TSAN_BUILD_DIR (default build-tsan) and runs the tests of signals, worker threads and
# training in parallel (train_signal_loop, util, train; CTEST_ARGS such as -R pick others).
# Both run train_signal_loop with 60 updates a run (RNNSEARCH_SIGNAL_LOOP_UPDATES): the
# sanitized tools are tens of times slower. scripts/fuzz.sh runs the fuzz corpora and
# crashes under the sanitizers. Separate from CI's run (scripts/run-tests.sh): each builds
# the project again and the tests run a few times slower.
set -euo pipefail
cd "$(dirname "$0")/.."

thread=no
if [ "${1:-}" = --thread ]; then
  thread=yes
  shift
fi
export RNNSEARCH_SIGNAL_LOOP_UPDATES=${RNNSEARCH_SIGNAL_LOOP_UPDATES:-60}

./scripts/install-deps.sh
if [ $thread = yes ]; then
  build=${TSAN_BUILD_DIR:-build-tsan}
  cmake -S . -B "$build" -DRNNSEARCH_SANITIZE_THREAD=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g"
  cmake --build "$build" -j "$(nproc)"
  # Every report fails the test: a tool's exit status becomes 66, the test binary's too.
  export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=0:exitcode=66:second_deadlock_stack=1}
  if [ $# -eq 0 ]; then set -- -R '^(train_signal_loop|util|train)$'; fi
  ctest --test-dir "$build" -L unit --output-on-failure -j "$(nproc)" "$@"
  exit
fi

build=${SANITIZE_BUILD_DIR:-build-sanitize}

# -O1 -g without NDEBUG: readable reports, and Eigen's and the library's asserts stay on.
cmake -S . -B "$build" -DRNNSEARCH_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g"
cmake --build "$build" -j "$(nproc)"

# Every report fails the test (halt_on_error is ASan's default; UBSan's is set by
# -fno-sanitize-recover in cmake/Sanitizers.cmake). Leaks of the libraries we link, not of
# ours, are listed in tests/sanitize/lsan.supp, each with its reason.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/tests/sanitize/lsan.supp:print_suppressions=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
ctest --test-dir "$build" -L unit -E '^mpi$' --output-on-failure -j "$(nproc)" "$@"
# The MPI test's processes exit with Open MPI's own allocations still held, many by
# components it dlopen()ed and has unloaded by the time LeakSanitizer looks ("<unknown
# module>" frames, which no suppression can name): that test runs with ASan and UBSan but
# without the leak check.
ASAN_OPTIONS=$ASAN_OPTIONS:detect_leaks=0 ctest --test-dir "$build" -L unit -R '^mpi$' --output-on-failure "$@"
