// Which level's tiles compute row_stable_gemm.h's products (math/kernels/row_stable_kernels.cc).
#include "math/row_stable_gemm.h"

#include <vector>

#include "math/kernel_tables.h"

namespace rnnsearch::math {

void row_stable_gemm(Transpose tb, int m, int n, int k, float alpha, const float* a, int lda, const float* b,
                     int ldb, float beta, float* c, int ldc) {
  if (m <= 0 || n <= 0) return;
  const kernels::RowStableKernels& kernels = row_stable_kernels(cpu_isa());
  if (tb == Transpose::kYes) {
    kernels.multiply_transposed(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    return;
  }
  thread_local std::vector<float> sums;  // the running sums of every tile between k blocks
  const std::size_t needed = kernels.plain_scratch_floats(m, n);
  if (sums.size() < needed) sums.resize(needed);
  kernels.multiply_plain(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, sums.data());
}

}  // namespace rnnsearch::math
