#pragma once
// bfloat16, the one conversion both bf16 paths use (training's products, math/bf16_gemm.h;
// inference's packed weights and kernel, math/packed_matrix.h): fp32 rounded to nearest,
// ties to the even bfloat16, subnormals to a signed zero and a NaN to a quiet NaN, as the
// CPU's VCVTNEPS2BF16 does, so the vector and scalar paths give the same bits.
#include <cstdint>
#include <string>

namespace rnnsearch::math {

std::uint16_t to_bf16(float x);
// The float a bfloat16 value stands for.
float bf16_to_float(std::uint16_t value);
// Rounds a rows x cols matrix (row r at in + r * in_stride) to bfloat16, row r written at
// out + r * out_stride (vectorized at the avx512-bf16 level, math/cpu_isa.h).
void round_to_bf16(const float* in, int rows, int cols, int in_stride, std::uint16_t* out, int out_stride);

// The level of instruction sets (math::cpu_isa(), which RNNSEARCH_CPU_ISA may cap) has
// AVX512_BF16 (CPUs with AMX-BF16 have it too).
bool cpu_has_avx512_bf16();

// Why the bf16 products cannot run here, for "--precision bf16: REASON": the CPU has no
// AVX512_BF16, or it has but RNNSEARCH_CPU_ISA holds the kernels below it.
std::string bf16_missing_reason();

}  // namespace rnnsearch::math
