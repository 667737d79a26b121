#pragma once
// A matrix product whose output rows do not depend on each other: row i of
//   c: [M x N] = alpha * a: [M x K] * op(b): [K x N] + beta * c
// is the same bits whatever M, the row's position among the M rows, or the threads.
//
// oneDNN's and OpenBLAS's sgemm pick kernels, tiles and K blockings by the shape: on an
// AVX2 machine a row's sums change with the number of rows beside it (measured with
// oneDNN 3.0 on an AMD EPYC: of 16 rows multiplied together, the row at 4 of the 16
// positions differs in its last bits). A sentence's scores would then depend on the
// batch it was decoded in. Here every element of c is one fused multiply-add chain
// over k = 0, 1, ..., K-1 (op(b) = b), or over k in a fixed tree of eight lanes given
// by K alone (op(b) = b^T), so only the row's own data and K decide its value.
#include "math/gemm.h"

namespace rnnsearch::math {

// Row-major buffers with leading dimensions, as math::gemm passes them; a is never transposed.
// Runs in the calling thread.
void row_stable_gemm(Transpose tb, int m, int n, int k, float alpha, const float* a, int lda, const float* b,
                     int ldb, float beta, float* c, int ldc);

}  // namespace rnnsearch::math
