#include "math/gemm.h"

#include <cblas.h>
#ifdef RNNSEARCH_GEMM_ONEDNN
#include <oneapi/dnnl/dnnl.h>
#include <omp.h>
#endif

#include <atomic>
#include <cstdint>

#include "math/row_stable_gemm.h"
#include "math/shape_check.h"
#include "util/error.h"

namespace rnnsearch::math {

namespace {

#ifndef RNNSEARCH_GEMM_ONEDNN
CBLAS_TRANSPOSE to_cblas(Transpose t) { return t == Transpose::kYes ? CblasTrans : CblasNoTrans; }
#endif

std::atomic<std::uint64_t> multiply_adds{0};  // relaxed: a statistic, not a synchronization
thread_local bool row_stable = false;           // a RowStableProducts lives in this thread
std::atomic<bool> row_stable_allowed{true};

}  // namespace

void gemm_raw(Transpose ta, Transpose tb, int m, int n, int k, float alpha, const float* a, int lda,
              const float* b, int ldb, float beta, float* c, int ldc) {
  if (m == 0 || n == 0) return;
  multiply_adds.fetch_add(static_cast<std::uint64_t>(m) * static_cast<std::uint64_t>(n) * static_cast<std::uint64_t>(k),
                          std::memory_order_relaxed);
  if (row_stable && ta == Transpose::kNo && row_stable_allowed.load(std::memory_order_relaxed)) {
    row_stable_gemm(tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    return;
  }
#ifdef RNNSEARCH_GEMM_ONEDNN
  const dnnl_status_t status = dnnl_sgemm(ta == Transpose::kYes ? 'T' : 'N', tb == Transpose::kYes ? 'T' : 'N', m, n, k,
                                          alpha, a, lda, b, ldb, beta, c, ldc);
  if (status != dnnl_success) {
    throw util::Error("oneDNN sgemm failed (status " + std::to_string(static_cast<int>(status)) + ") for " +
                      shape_text(m, k) + " by " + shape_text(k, n));
  }
#else
  cblas_sgemm(CblasRowMajor, to_cblas(ta), to_cblas(tb), m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
#endif
}

void gemm(const Matrix& a, Transpose ta, const Matrix& b, Transpose tb, Matrix& c, float alpha, float beta,
          const char* what) {
  const Eigen::Index m = ta == Transpose::kNo ? a.rows() : a.cols();
  const Eigen::Index k = ta == Transpose::kNo ? a.cols() : a.rows();
  const Eigen::Index kb = tb == Transpose::kNo ? b.rows() : b.cols();
  const Eigen::Index n = tb == Transpose::kNo ? b.cols() : b.rows();
  if (k != kb || c.rows() != m || c.cols() != n) {
    throw util::Error(std::string(what) + ": cannot multiply op(A) " + shape_text(m, k) + " by op(B) " + shape_text(kb, n) +
                      " into C " + shape_text(c.rows(), c.cols()));
  }
  gemm_raw(ta, tb, static_cast<int>(m), static_cast<int>(n), static_cast<int>(k), alpha, a.data(),
           static_cast<int>(a.cols()), b.data(), static_cast<int>(b.cols()), beta, c.data(),
           static_cast<int>(c.cols()));
}

RowStableProducts::RowStableProducts() : previous_(row_stable) { row_stable = true; }

RowStableProducts::~RowStableProducts() { row_stable = previous_; }

void allow_row_stable_products(bool allowed) { row_stable_allowed.store(allowed, std::memory_order_relaxed); }

double gemm_flops_done() { return 2.0 * static_cast<double>(multiply_adds.load(std::memory_order_relaxed)); }

#ifdef RNNSEARCH_GEMM_ONEDNN
// oneDNN parallelizes with OpenMP, whose thread count is a per-thread setting.
void set_gemm_threads(int threads) { omp_set_num_threads(threads < 1 ? 1 : threads); }

int gemm_threads() { return omp_get_max_threads(); }

const char* gemm_backend() { return "oneDNN sgemm"; }
#else
void set_gemm_threads(int threads) { openblas_set_num_threads(threads < 1 ? 1 : threads); }

int gemm_threads() { return openblas_get_num_threads(); }

const char* gemm_backend() { return "OpenBLAS"; }
#endif

}  // namespace rnnsearch::math
