// Which level's tiles compute row_stable_gemm.h's products (math/kernels/row_stable_kernels.cc).
#include "math/row_stable_gemm.h"

#include "math/kernel_tables.h"
#include "math/types.h"

namespace rnnsearch::math {

void row_stable_gemm(Transpose tb, int m, int n, int k, float alpha, const float* a, int lda, const float* b,
                     int ldb, float beta, float* c, int ldc) {
  if (m <= 0 || n <= 0) return;
  const kernels::RowStableKernels& kernels = row_stable_kernels(cpu_isa());
  if (tb == Transpose::kYes) {
    kernels.multiply_transposed(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    return;
  }
  // The running sums of every tile between k blocks, on a cache line's boundary as
  // Eigen's buffers are (math/eigen.h): the tiles load and store them whole vectors at a time.
  thread_local Vector sums;
  const auto needed = static_cast<Eigen::Index>(kernels.plain_scratch_floats(m, n));
  if (sums.size() < needed) sums.resize(needed);
  kernels.multiply_plain(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, sums.data());
}

}  // namespace rnnsearch::math
