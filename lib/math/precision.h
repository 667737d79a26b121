#pragma once
// The arithmetic of inference's weight products (math::PackedMatrix):
//   fp32  the row-stable fp32 kernel (row_stable_gemm), what training computes with
//   int8  weights quantized per output column and activations per row to 8 bits,
//         products summed exactly in 32-bit integers (packed_matrix.h)
//   bf16  weights and activations rounded to bfloat16, sums in fp32 (AVX512_BF16 only)
#include <string>

namespace rnnsearch::math {

enum class Precision { kFp32, kInt8, kBf16 };

// "fp32", "int8", "bf16".
const char* precision_name(Precision precision);
// The three names and "auto" (automatic_precision()); throws util::UsageError
// "--precision must be fp32, int8, bf16 or auto, got 'NAME'".
Precision parse_precision(const std::string& name);

// Whether this build and this CPU can multiply in `precision`: fp32 and int8 always
// (int8 has a portable kernel), bf16 only at the avx512-bf16 level (math/cpu_isa.h: the
// CPU has AVX512_BF16 and RNNSEARCH_CPU_ISA does not hold the level below it).
bool precision_supported(Precision precision);
// Throws util::UsageError "--precision bf16: this CPU has no bf16 instructions
// (avx512_bf16)" when precision_supported is false.
void check_precision_supported(Precision precision);

// What --precision auto means on this machine (nmt-decode(1)): int8 at the avx512-vnni
// level and above (VNNI dot-product instructions), fp32 elsewhere.
Precision automatic_precision();

}  // namespace rnnsearch::math
