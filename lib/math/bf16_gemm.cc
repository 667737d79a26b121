#include "math/bf16_gemm.h"

#ifdef RNNSEARCH_GEMM_ONEDNN
#include <oneapi/dnnl/dnnl.h>
#endif

#include <string>
#include <vector>

#include "math/bf16.h"
#include "math/shape_check.h"
#include "util/error.h"

#ifdef RNNSEARCH_GEMM_ONEDNN
// Exported by oneDNN 2.x (src/cpu/gemm/gemm.cpp) though not declared in its public
// headers: row-major, as dnnl_sgemm; bfloat16_t is a 16-bit struct.
extern "C" dnnl_status_t dnnl_gemm_bf16bf16f32(char transa, char transb, dnnl_dim_t m, dnnl_dim_t n, dnnl_dim_t k,
                                               float alpha, const std::uint16_t* a, dnnl_dim_t lda,
                                               const std::uint16_t* b, dnnl_dim_t ldb, float beta, float* c,
                                               dnnl_dim_t ldc);
#endif

namespace rnnsearch::math {

namespace {

// Per thread, grown and kept: no allocation per product.
thread_local std::vector<std::uint16_t> a_buffer, b_buffer;

std::uint16_t* rounded(const float* in, int rows, int cols, int stride, std::vector<std::uint16_t>& buffer) {
  const std::size_t size = static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
  if (buffer.size() < size) buffer.resize(size);
  round_to_bf16(in, rows, cols, stride, buffer.data(), cols);
  return buffer.data();
}

}  // namespace

bool bf16_gemm(Transpose ta, Transpose tb, int m, int n, int k, float alpha, const float* a, int lda, const float* b,
               int ldb, float beta, float* c, int ldc) {
  if (2.0 * m * n < static_cast<double>(kBf16MinimumReuse) * (m + n) || k == 0) return false;
#ifdef RNNSEARCH_GEMM_ONEDNN
  // Stored shapes: op(a) is m x k, so a is stored k x m when transposed.
  const bool a_t = ta == Transpose::kYes, b_t = tb == Transpose::kYes;
  const int a_cols = a_t ? m : k, b_cols = b_t ? k : n;
  const std::uint16_t* a16 = rounded(a, a_t ? k : m, a_cols, lda, a_buffer);
  const std::uint16_t* b16 = rounded(b, b_t ? n : k, b_cols, ldb, b_buffer);
  const dnnl_status_t status = dnnl_gemm_bf16bf16f32(a_t ? 'T' : 'N', b_t ? 'T' : 'N', m, n, k, alpha, a16, a_cols,
                                                     b16, b_cols, beta, c, ldc);
  if (status != dnnl_success) {
    throw util::Error("oneDNN gemm_bf16bf16f32 failed (status " + std::to_string(static_cast<int>(status)) + ") for " +
                      shape_text(m, k) + " by " + shape_text(k, n));
  }
  return true;
#else
  (void)ta, (void)tb, (void)alpha, (void)a, (void)lda, (void)b, (void)ldb, (void)beta, (void)c, (void)ldc;
  throw util::Error("bf16 products need the oneDNN backend");
#endif
}

bool onednn_bf16_gemm_works() {
#ifdef RNNSEARCH_GEMM_ONEDNN
  static const bool works = [] {
    const std::uint16_t one = 0x3F80;  // 1.0 in bfloat16
    float c = 0.0f;
    return dnnl_gemm_bf16bf16f32('N', 'N', 1, 1, 1, 1.0f, &one, 1, &one, 1, 0.0f, &c, 1) == dnnl_success && c == 1.0f;
  }();
  return works;
#else
  return false;
#endif
}

}  // namespace rnnsearch::math
