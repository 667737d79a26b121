#pragma once
// Training's bf16 products (math/product_precision.h): math::gemm calls this in a bf16
// scope. Both inputs are rounded to bf16 (math/bf16.h) into per-thread buffers, and oneDNN's
// gemm_bf16bf16f32 multiplies them, summing in fp32, into the fp32 output. The rounding
// reads and writes every input once, so it pays only where each input element takes
// part in enough multiply-adds: products with 2 m n / (m + n) >= kBf16MinimumReuse. That
// takes in the per-step products of the recurrences too (m = a batch's sentences, 32 by
// n = 512 or more: 57 and up): in training, bf16 ran 6,400 target tokens/s with the
// threshold at 128 (whole-sequence products and weight gradients only) and 7,600 at 32,
// the same run's SGEMM at 240 GFLOP/s. Only tiny products stay fp32. Same shapes, same
// bits: the choice depends on the shape alone.
#include <cstdint>

#include "math/gemm.h"

namespace rnnsearch::math {

inline constexpr int kBf16MinimumReuse = 32;

// c: [m x n] = alpha * op(a) * op(b) + beta * c, row-major with leading dimensions, as
// math::gemm passes them. Returns false, and does nothing, for a product under the reuse
// threshold. Throws util::Error when oneDNN fails.
bool bf16_gemm(Transpose ta, Transpose tb, int m, int n, int k, float alpha, const float* a, int lda, const float* b,
               int ldb, float beta, float* c, int ldc);

// True when oneDNN multiplies a small bf16 product here (tried once): false without the
// oneDNN backend, and when oneDNN is held below AVX512_BF16 (ONEDNN_MAX_CPU_ISA=AVX2).
bool onednn_bf16_gemm_works();

}  // namespace rnnsearch::math
