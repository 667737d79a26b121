#!/usr/bin/env bash
# The unit tests under AddressSanitizer and UBSan:
#   scripts/sanitize.sh [CTEST_ARGS...]
# Builds everything with -fsanitize=address,undefined (RNNSEARCH_SANITIZE=ON, the default
# compiler) in SANITIZE_BUILD_DIR (default build-sanitize) and runs ctest -L unit there
# (scripts/fuzz.sh runs the fuzz corpora and crashes under the sanitizers). Separate from CI's run (scripts/run-tests.sh): it builds the project a second time
# and the tests run a few times slower.
set -euo pipefail
cd "$(dirname "$0")/.."

build=${SANITIZE_BUILD_DIR:-build-sanitize}

./scripts/install-deps.sh
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
