#pragma once
// Which instruction sets the math kernels use: one level, chosen once per process.
//
// The library is compiled for the baseline x86-64, so it runs on any x86-64 CPU. The few
// kernels that gain from wider vectors (math/kernels/) are compiled once per level they
// have code for, and the dispatchers (row_stable_gemm, tanh_dot, the int8 and bf16
// products) call the variant of cpu_isa(). Every variant of a kernel gives the same bits,
// so the output does not depend on the level (the int8 sums are exact; the fp32 kernels
// keep one order of fused multiply-adds whatever the vector width).
//
// The levels, each with every set of the ones before it:
//   baseline     x86-64 (SSE2)
//   avx2         AVX2 and FMA
//   avx512       AVX-512 F, BW, DQ and VL
//   avx512-vnni  and AVX512_VNNI (int8 dot products)
//   avx512-bf16  and AVX512_BF16 (bfloat16 dot products; --precision bf16 needs it)
//
// RNNSEARCH_CPU_ISA=LEVEL caps the level (tests use it to run every level's kernels on
// one machine; users to reproduce what another machine computes in bf16 or to rule out a
// kernel). A level above the CPU's is held to the CPU's.
#include <string>
#include <vector>

namespace rnnsearch::math {

enum class CpuIsa { kBaseline, kAvx2, kAvx512, kAvx512Vnni, kAvx512Bf16 };

// "baseline", "avx2", "avx512", "avx512-vnni", "avx512-bf16".
const char* cpu_isa_name(CpuIsa isa);
// The inverse of cpu_isa_name; throws util::UsageError naming the levels.
CpuIsa parse_cpu_isa(const std::string& name);

// The highest level whose instruction sets this CPU has.
CpuIsa detected_cpu_isa();
// The level the kernels use: detected_cpu_isa(), held to RNNSEARCH_CPU_ISA when set.
// Read once; throws util::UsageError for an unknown RNNSEARCH_CPU_ISA (tools call it
// first thing, tools::run_tool's entry, so the error is one line and exit 2).
CpuIsa cpu_isa();
// Every level up to cpu_isa(), baseline first: the kernels a test may compare.
std::vector<CpuIsa> cpu_isas_up_to_current();

}  // namespace rnnsearch::math
