#!/usr/bin/env bash
# Usage: scripts/check-isa-confinement.sh BINARY...
# Fails, naming each function, when a binary of the portable build has an AVX or AVX-512
# instruction (a VEX or EVEX one: its mnemonic starts with v, or it names a ymm, zmm or mask
# register) outside the kernels compiled per level of instruction sets, whose functions
# live in the namespaces rnnsearch::math::isa_avx2, isa_avx512, isa_avx512_vnni and
# isa_avx512_bf16 (lib/math/kernels/kernels.h). Such an instruction elsewhere would run on
# every CPU and die of SIGILL on one without it: typically an inline function of a header
# that a kernel file instantiated and the linker kept for the whole program.
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: $0 BINARY..." >&2; exit 2; }
status=0
for binary in "$@"; do
  offenders=$(objdump -d --no-show-raw-insn -C "$binary" | awk '
    /^[0-9a-f]+ <.*>:$/ { name = substr($0, index($0, "<") + 1); sub(/>:$/, "", name); next }
    /^ +[0-9a-f]+:\t/ {
      split($0, field, "\t"); insn = field[2]
      if (insn !~ /^v/ && insn !~ /%(ymm|zmm)[0-9]|%k[0-7]/) next
      if (name ~ /rnnsearch::math::isa_avx(2|512|512_vnni|512_bf16)::/) next
      count[name]++
    }
    END { for (f in count) printf "  %s: %d instructions\n", f, count[f] }' | sort | head -20)
  if [ -n "$offenders" ]; then
    echo "$binary: AVX or AVX-512 instructions outside the dispatched kernels:"
    echo "$offenders"
    status=1
  fi
done
exit $status
