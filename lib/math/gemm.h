#pragma once
// The one matrix-product entry point: C = alpha * op(A) * op(B) + beta * C over
// row-major float matrices. Every layer multiplies through here, so the backend changes
// in one place: oneDNN's sgemm when the build finds it (CMake RNNSEARCH_GEMM=onednn, the
// default), else OpenBLAS's cblas_sgemm.
#include <string>

#include "math/types.h"

namespace rnnsearch::math {

enum class Transpose { kNo, kYes };

// c: [M x N] = alpha * op(a): [M x K] * op(b): [K x N] + beta * c.
// Throws util::Error naming `what` and both shapes when they do not fit.
void gemm(const Matrix& a, Transpose ta, const Matrix& b, Transpose tb, Matrix& c, float alpha = 1.0f,
          float beta = 0.0f, const char* what = "gemm");

// The same over raw row-major buffers with leading dimensions, for views into larger
// buffers (one time step of a [T*B x d] sequence, say).
void gemm_raw(Transpose ta, Transpose tb, int m, int n, int k, float alpha, const float* a, int lda,
              const float* b, int ldb, float beta, float* c, int ldc);

// Floating-point operations (2 m n k per product) of every product since the program
// started, over all threads: benchmarks check their analytic FLOP counts against it.
double gemm_flops_done();

// Threads the backend may use for one product (1 keeps it in the calling thread). With
// oneDNN this is a setting of the calling thread: a thread that multiplies on its own
// sets it first.
void set_gemm_threads(int threads);
int gemm_threads();
// "oneDNN sgemm" or "OpenBLAS": which library multiplies (chosen when building).
const char* gemm_backend();

// While one of these lives, every product the calling thread makes with op(A) = A goes
// through row_stable_gemm: each row of C is the same bits whatever the rows beside it.
// Inference holds one (RnnSearch::encode, decoder_step, forced_attention), so that a
// sentence's scores and weights do not depend on its batch; training, which prints no
// per-sentence numbers, keeps the backend's faster kernels. Scopes nest.
class RowStableProducts {
 public:
  RowStableProducts();
  ~RowStableProducts();
  RowStableProducts(const RowStableProducts&) = delete;
  RowStableProducts& operator=(const RowStableProducts&) = delete;

 private:
  bool previous_;
};

// Off: RowStableProducts scopes change nothing, so inference multiplies with the backend
// and its numbers depend on the batch again. Only for benchmarks that measure what row
// stability costs; on by default.
void allow_row_stable_products(bool allowed);

}  // namespace rnnsearch::math
