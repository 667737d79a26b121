// Benchmark (not a test): the machine's SGEMM rate through math::gemm, the ceiling every
// training and decoding benchmark reports its GFLOP/s against. Shapes: the decoder step
// of the benchmark configuration (64 x 1536 x 512) and a large square product.
//
//   build/bench/sgemm_bench [--runs N]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "math/gemm_kernels.h"
#include "math/gemm.h"
#include "support/gzip_text.h"

using namespace rnnsearch::math;

namespace {

// Median GFLOP/s of `runs` timed batches of products of the given shape.
double gflops(int m, int n, int k, int runs) {
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> u(-1, 1);
  Matrix a(m, k), b(k, n), c(m, n);
  for (int i = 0; i < a.size(); ++i) a.data()[i] = u(rng);
  for (int i = 0; i < b.size(); ++i) b.data()[i] = u(rng);
  const double flop = 2.0 * m * n * k;
  const int reps = std::max(1, static_cast<int>(2e10 / flop));  // about 0.1-0.2 s a run at 100-200 GFLOP/s
  gemm(a, Transpose::kNo, b, Transpose::kNo, c);                      // warm up
  std::vector<double> rates;
  for (int r = 0; r < runs; ++r) {
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < reps; ++i) gemm(a, Transpose::kNo, b, Transpose::kNo, c);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    rates.push_back(flop * reps / s / 1e9);
  }
  return rnnsearch::testing::median(rates);
}

}  // namespace

int main(int argc, char** argv) {
  rnnsearch::math::select_gemm_kernels(argv);
  int runs = 5;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--runs")) runs = std::atoi(argv[i + 1]);
  }
  std::printf("SGEMM through math::gemm (%s), median GFLOP/s of %d runs\n", gemm_backend(), runs);
  std::printf("%-28s %10s %10s\n", "shape (M x N x K)", "1 thread", "2 threads");
  const int shapes[][3] = {{64, 1536, 512}, {64, 512, 1536}, {1024, 1024, 1024}};
  for (const auto& s : shapes) {
    set_gemm_threads(1);
    const double one = gflops(s[0], s[1], s[2], runs);
    set_gemm_threads(2);
    const double two = gflops(s[0], s[1], s[2], runs);
    char name[64];
    std::snprintf(name, sizeof name, "%d x %d x %d", s[0], s[1], s[2]);
    std::printf("%-28s %10.1f %10.1f\n", name, one, two);
  }
  std::printf("shared/golden/README.md (OpenBLAS, Haswell kernels): about 115 (2 threads) at 64 x 1536 x 512, 150 on "
              "large squares, 65-95 with 1 thread.\n");
  return 0;
}
