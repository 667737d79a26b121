#pragma once
// The SGEMM rate benchmarks report their achieved GFLOP/s against: `threads` threads each
// multiplying [m x k] by [k x n] through math::gemm on one BLAS thread at the same time
// (as training and decoding threads do), about half a second a run, median of `runs`.
namespace rnnsearch::testing {

double concurrent_sgemm_rate(int threads, int m, int n, int k, int runs);

}  // namespace rnnsearch::testing
