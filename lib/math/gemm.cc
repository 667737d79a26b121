#include "math/gemm.h"

#include <cblas.h>
#ifdef RNNSEARCH_GEMM_ONEDNN
#include <oneapi/dnnl/dnnl.h>
#include <omp.h>
#endif

#include <atomic>
#include <cstdint>

#include "math/bf16_gemm.h"
#include "math/packed_matrix.h"
#include "math/product_precision.h"
#include "math/quantized_kernels.h"
#include "math/row_stable_gemm.h"
#include "math/shape_check.h"
#include "util/error.h"

namespace rnnsearch::math {

namespace {

CBLAS_TRANSPOSE to_cblas(Transpose t) { return t == Transpose::kYes ? CblasTrans : CblasNoTrans; }

std::atomic<std::uint64_t> multiply_adds{0};  // relaxed: a statistic, not a synchronization
thread_local bool row_stable = false;           // a RowStableProducts lives in this thread
std::atomic<bool> row_stable_allowed{true};
#ifdef RNNSEARCH_GEMM_ONEDNN
GemmBackend backend = GemmBackend::kOneDnn;
#else
GemmBackend backend = GemmBackend::kOpenBlas;
#endif

#ifdef RNNSEARCH_GEMM_ONEDNN
void onednn_sgemm(Transpose ta, Transpose tb, int m, int n, int k, float alpha, ConstMatrixView a,
                  ConstMatrixView b, float beta, MutableMatrixView c) {
  const dnnl_status_t status = dnnl_sgemm(ta == Transpose::kYes ? 'T' : 'N', tb == Transpose::kYes ? 'T' : 'N', m, n, k,
                                          alpha, a.data, a.stride, b.data, b.stride, beta, c.data, c.stride);
  if (status != dnnl_success) {
    throw util::Error("oneDNN sgemm failed (status " + std::to_string(static_cast<int>(status)) + ") for " +
                      shape_text(m, k) + " by " + shape_text(k, n));
  }
}
#endif

}  // namespace

void gemm(ConstMatrixView a, Transpose ta, ConstMatrixView b, Transpose tb, MutableMatrixView c, float alpha,
          float beta, const char* what) {
  const int m = ta == Transpose::kNo ? a.rows : a.cols;
  const int k = ta == Transpose::kNo ? a.cols : a.rows;
  const int kb = tb == Transpose::kNo ? b.rows : b.cols;
  const int n = tb == Transpose::kNo ? b.cols : b.rows;
  if (k != kb || c.rows != m || c.cols != n) {
    throw util::Error(std::string(what) + ": cannot multiply op(A) " + shape_text(m, k) + " by op(B) " +
                      shape_text(kb, n) + " into C " + shape_text(c.rows, c.cols));
  }
  if (m == 0 || n == 0) return;
  multiply_adds.fetch_add(static_cast<std::uint64_t>(m) * static_cast<std::uint64_t>(n) * static_cast<std::uint64_t>(k),
                          std::memory_order_relaxed);
  if (row_stable && ta == Transpose::kNo && row_stable_allowed.load(std::memory_order_relaxed)) {
    row_stable_gemm(tb, m, n, k, alpha, a.data, a.stride, b.data, b.stride, beta, c.data, c.stride);
    return;
  }
  if (product_precision() == Precision::kBf16 &&
      bf16_gemm(ta, tb, m, n, k, alpha, a.data, a.stride, b.data, b.stride, beta, c.data, c.stride)) {
    return;
  }
#ifdef RNNSEARCH_GEMM_ONEDNN
  if (backend == GemmBackend::kOneDnn) {
    onednn_sgemm(ta, tb, m, n, k, alpha, a, b, beta, c);
    return;
  }
#endif
  cblas_sgemm(CblasRowMajor, to_cblas(ta), to_cblas(tb), m, n, k, alpha, a.data, a.stride, b.data, b.stride, beta,
              c.data, c.stride);
}

void gemm(ConstMatrixView a, const PackedMatrix& w, MutableMatrixView c, float alpha, float beta, const char* what) {
  const int m = a.rows, k = a.cols, n = w.cols();
  if (k != w.rows() || c.rows != m || c.cols != n) {
    throw util::Error(std::string(what) + ": cannot multiply A " + shape_text(m, k) + " by packed " +
                      precision_name(w.precision()) + " W " + shape_text(w.rows(), n) + " into C " +
                      shape_text(c.rows, c.cols));
  }
  if (m == 0 || n == 0) return;
  multiply_adds.fetch_add(static_cast<std::uint64_t>(m) * static_cast<std::uint64_t>(n) * static_cast<std::uint64_t>(k),
                          std::memory_order_relaxed);
  switch (w.precision()) {
    case Precision::kFp32:
      row_stable_gemm(Transpose::kNo, m, n, k, alpha, a.data, a.stride, w.fp32().data(), n, beta, c.data, c.stride);
      break;
    case Precision::kInt8: int8_gemm(a, w, c, alpha, beta); break;
    case Precision::kBf16: bf16_gemm(a, w, c, alpha, beta); break;
  }
}

void gemm(ConstMatrixView a, const PackedMatrix* packed, ConstMatrixView w, Transpose tw, MutableMatrixView c,
          float alpha, float beta, const char* what) {
  if (packed) {
    gemm(a, *packed, c, alpha, beta, what);
  } else {
    gemm(a, Transpose::kNo, w, tw, c, alpha, beta, what);
  }
}

RowStableProducts::RowStableProducts() : previous_(row_stable) { row_stable = true; }

RowStableProducts::~RowStableProducts() { row_stable = previous_; }

void allow_row_stable_products(bool allowed) { row_stable_allowed.store(allowed, std::memory_order_relaxed); }

double gemm_flops_done() { return 2.0 * static_cast<double>(multiply_adds.load(std::memory_order_relaxed)); }

bool onednn_built_in() {
#ifdef RNNSEARCH_GEMM_ONEDNN
  return true;
#else
  return false;
#endif
}

void use_gemm_backend(GemmBackend chosen) {
  if (chosen == GemmBackend::kOneDnn && !onednn_built_in()) {
    throw util::Error("math::gemm: this build has no oneDNN (libdnnl-dev was not found when building)");
  }
  backend = chosen;
}

GemmBackend gemm_backend_in_use() { return backend; }

const char* gemm_backend() { return backend == GemmBackend::kOneDnn ? "oneDNN sgemm" : "OpenBLAS"; }

// oneDNN parallelizes with OpenMP, whose thread count is a per-thread setting; OpenBLAS's
// is one setting for the process.
void set_gemm_threads(int threads) {
  if (threads < 1) threads = 1;
#ifdef RNNSEARCH_GEMM_ONEDNN
  if (backend == GemmBackend::kOneDnn) {
    omp_set_num_threads(threads);
    return;
  }
#endif
  openblas_set_num_threads(threads);
}

int gemm_threads() {
#ifdef RNNSEARCH_GEMM_ONEDNN
  if (backend == GemmBackend::kOneDnn) return omp_get_max_threads();
#endif
  return openblas_get_num_threads();
}

}  // namespace rnnsearch::math
