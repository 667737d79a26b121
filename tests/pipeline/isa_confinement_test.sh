#!/usr/bin/env bash
# The portable build's tools hold AVX and AVX-512 instructions only inside the kernels
# chosen at run time (scripts/check-isa-confinement.sh), so they run on any x86-64 CPU;
# and the check itself finds such an instruction in a function outside them. A native
# build (RNNSEARCH_NATIVE=ON) uses them everywhere by design: the test says so and passes.
# Environment (set by ctest): NMT_SOURCE_DIR, NMT_BIN_DIR.
set -euo pipefail
source "$(dirname "$0")/test_env.sh"
check=$src/scripts/check-isa-confinement.sh

echo "== the check finds an AVX instruction outside the kernels"
cat > "$work/stray.cc" << 'CODE'
__attribute__((target("avx2"))) void stray_avx2(float* x, int n) { for (int i = 0; i < n; ++i) x[i] *= 2.0f; }
int main() { return 0; }
CODE
c++ -O2 -o "$work/stray" "$work/stray.cc"
if "$check" "$work/stray" > "$work/stray.out"; then fail "a binary with an AVX2 function passed the check"; fi
grep -q 'stray_avx2' "$work/stray.out" || fail "the check did not name the function: $(cat "$work/stray.out")"

if grep -q "^RNNSEARCH_NATIVE:BOOL=ON" "$build/CMakeCache.txt"; then
  echo "native build: every file may use this CPU's instruction sets; nothing to confine"
  exit 0
fi
echo "== the tools"
tools=("$bin"/nmt-*)
[ ${#tools[@]} -ge 14 ] || fail "only ${#tools[@]} tools in $bin"
"$check" "${tools[@]}" || fail "AVX instructions outside the dispatched kernels (above)"
# The kernels are there: the check would pass vacuously on a binary without them.
objdump -d --no-show-raw-insn -C "$bin/nmt-decode" > "$work/nmt-decode.s"
for level in avx2 avx512 avx512_vnni avx512_bf16; do
  grep -q "<rnnsearch::math::isa_$level::" "$work/nmt-decode.s" || fail "nmt-decode has no $level kernels"
done
echo "isa confinement: ok (${#tools[@]} tools)"
