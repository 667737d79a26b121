#!/usr/bin/env bash
# A tool built for the build machine's CPU (RNNSEARCH_NATIVE=ON), run on a CPU without
# those instruction sets, says so in one line and exits 1 instead of dying of SIGILL; a
# portable build runs there. The other CPU is qemu's user-mode emulation of the baseline
# x86-64 (qemu-x86_64 -cpu qemu64, Debian's qemu-user); without qemu the test skips.
# Environment (set by ctest): NMT_SOURCE_DIR, NMT_BIN_DIR.
set -euo pipefail
source "$(dirname "$0")/test_env.sh"
command -v qemu-x86_64 > /dev/null || { echo "SKIP: qemu-x86_64 (Debian's qemu-user) is not installed"; exit 0; }

set +e
qemu-x86_64 -cpu qemu64 "$bin/nmt-tokenize" --version > "$work/out" 2> "$work/err"; code=$?
set -e
if grep -q "^RNNSEARCH_NATIVE:BOOL=ON" "$build/CMakeCache.txt"; then
  [ $code -eq 1 ] || fail "on a baseline x86-64 CPU the native build exits $code, not 1: $(cat "$work/err")"
  [ ! -s "$work/out" ] || fail "the refusal wrote to stdout: $(cat "$work/out")"
  [ "$(grep -vc '^qemu-x86_64: ' "$work/err")" -eq 1 ] || fail "not one line on stderr: $(cat "$work/err")"
  grep -q "^nmt-tokenize: this build uses instructions this CPU lacks (sse4.2, .*RNNSEARCH_NATIVE=OFF" "$work/err" ||
    fail "the message does not name the missing sets and the way out: $(cat "$work/err")"
else
  [ $code -eq 0 ] || fail "the portable build exits $code on a baseline x86-64 CPU: $(cat "$work/err")"
  grep -q "^nmt-tokenize (rnnsearch) " "$work/out" || fail "no version line: $(cat "$work/out")"
fi
echo "cpu guard: ok"
