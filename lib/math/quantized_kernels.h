#pragma once
// The kernels behind math::gemm with a PackedMatrix of int8 or bf16 weights (packed_matrix.h
// describes the arithmetic). Each computes whole tiles of c from one row's own data and
// the packed weights, so a row's result never depends on the rows beside it.
//
// int8: c_ij = alpha * (s_i * t_j) * sum_k qa_ik qw_kj + beta * c_ij, qa the row's 8-bit
// activations, qw the column's 8-bit weights. The sums are exact in int32, so the
// kernels below give the same bits as each other, on every machine (the level of
// instruction sets, math/cpu_isa.h, picks one; the code is in math/kernels/int8_tile_kernels.cc):
//   scalar      portable C++, any CPU (baseline)
//   avx2        AVX2: the 8-bit values widened to 16 bits and multiplied by vpmaddwd,
//               whose pair sums (at most 2 * 127 * 127) cannot saturate. (vpmaddubsw
//               multiplies 8-bit values directly but saturates its 16-bit pair sums:
//               255 * 127 * 2 > 32767; avoiding it keeps the full 8 bits and the same
//               results as VNNI, at about half of vpmaddubsw's speed.)
//   avx512-vnni AVX512_VNNI vpdpbusd (u8 x s8, four products into int32, exact): the
//               activations are offset by 128 into u8 and the offset's contribution,
//               128 * sum_k qw_kj, is subtracted from the sums.
// bf16: c_ij = alpha * sum_k bf16(a_ik) bf16(w_kj) + beta * c_ij, each element one chain
// of vdpbf16ps over k = 0, 2, 4, ... (AVX512_BF16 only; no portable kernel).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "math/cpu_isa.h"
#include "math/gemm.h"
#include "math/kernels/kernels.h"

namespace rnnsearch::math {

class PackedMatrix;

// The int8 kernel `isa`'s level uses: "scalar", "avx2" or "avx512-vnni".
const char* int8_kernel_name(CpuIsa isa);
// Whether cpu_isa() has the bf16 kernel (avx512-bf16).
bool bf16_kernel_available();

// c: [M x N] = alpha * a: [M x K] * b + beta * c for an int8 `b`, with the kernel of
// `isa`'s level (a level up to cpu_isa()).
void int8_gemm(ConstMatrixView a, const PackedMatrix& b, MutableMatrixView c, float alpha, float beta,
               CpuIsa isa = cpu_isa());
// The same for a bf16 `b`; needs bf16_kernel_available().
void bf16_gemm(ConstMatrixView a, const PackedMatrix& b, MutableMatrixView c, float alpha, float beta);

}  // namespace rnnsearch::math

namespace rnnsearch::math {

// The 8-bit step of values whose largest magnitude is max_abs (0 for all zeros), and its
// inverse; weights (per column) and activations (per row) are quantized alike. Below
// 127 / FLT_MAX (3.7e-37) the inverse would overflow to infinity, turning zeros into NaN
// (-127) and the rest into +-127: such values quantize to zero instead.
inline float int8_step(float max_abs) { return max_abs / 127.0f; }
inline float int8_inverse_step(float max_abs) {
  return max_abs >= 127.0f / std::numeric_limits<float>::max() ? 127.0f / max_abs : 0.0f;
}
// round(x / step) to nearest even, within [-127, 127] (a NaN gives -127).
inline std::int8_t quantize_int8(float x, float inverse_step) { return kernels::quantize_int8(x, inverse_step); }

}  // namespace rnnsearch::math
