// The bf16 product of quantized_kernels.h: a's rows rounded to bfloat16, then the tiles of
// math/kernels/bf16_kernels.cc (the avx512-bf16 level only).
#include <vector>

#include "math/kernel_tables.h"
#include "math/packed_matrix.h"
#include "math/quantized_kernels.h"
#include "util/error.h"

namespace rnnsearch::math {

bool bf16_kernel_available() { return bf16_kernels(cpu_isa()) != nullptr; }

void bf16_gemm(ConstMatrixView a, const PackedMatrix& b, MutableMatrixView c, float alpha, float beta) {
  const kernels::Bf16Kernels* kernels = bf16_kernels(cpu_isa());
  if (kernels == nullptr) throw util::Error("bf16 gemm: this CPU has no bf16 instructions (avx512_bf16)");
  const int k2 = b.depth2(), lda = 2 * k2;
  thread_local std::vector<std::uint16_t> rows;  // a in bfloat16: [M x 2 * K/2], K padded with zeros
  rows.resize(static_cast<std::size_t>(a.rows) * lda);
  kernels->round_rows(a.data, a.rows, a.cols, a.stride, rows.data(), lda);
  if (a.cols < lda) {  // odd K: the pad column of every row is zero
    for (int i = 0; i < a.rows; ++i) rows[static_cast<std::size_t>(i) * lda + a.cols] = 0;
  }
  kernels->multiply(rows.data(), a.rows, k2, b.bf16(), b.panels(), b.cols(), alpha, beta, c.data, c.stride);
}

}  // namespace rnnsearch::math
