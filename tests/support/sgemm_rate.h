#pragma once
#include <functional>

// The SGEMM rate benchmarks report their achieved GFLOP/s against: `threads` threads each
// multiplying [m x k] by [k x n] through math::gemm on one BLAS thread at the same time
// (as training and decoding threads do), about half a second a run, median of `runs`.
namespace rnnsearch::testing {

double concurrent_sgemm_rate(int threads, int m, int n, int k, int runs);

// Median GFLOP/s of `runs` timed runs of `product` (2 m n k floating-point operations),
// each repeated enough times to take about `seconds_at_100` seconds at 100 GFLOP/s,
// after one untimed call.
double product_rate(int m, int n, int k, int runs, const std::function<void()>& product,
                    double seconds_at_100 = 0.1);

}  // namespace rnnsearch::testing
