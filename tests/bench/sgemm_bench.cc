// Benchmark (not a test): the machine's SGEMM rate through math::gemm, the ceiling every
// training and decoding benchmark reports its GFLOP/s against, for each library math::gemm
// can multiply with (oneDNN, OpenBLAS) and for the row-stable kernel inference uses, at
// the shapes that matter: a training decoder step of one replica (32 sentences), its
// transpose, the output layer of a beam-5 decoding batch at a 13k vocabulary, and a large
// square. One thread each: training and decoding run one product per thread of their pool.
//
//   build/bench/sgemm_bench [--runs N]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "math/gemm.h"
#include "support/random_matrix.h"
#include "support/sgemm_rate.h"
#include "tools/support/gemm_choice.h"

using namespace rnnsearch::math;

namespace {

// Median GFLOP/s of `runs` timed batches of products of the given shape, each about 0.1 s at 100 GFLOP/s.
double gflops(int m, int n, int k, int runs) {
  std::mt19937 rng(1);
  Matrix a = rnnsearch::testing::uniform_matrix(m, k, rng), b = rnnsearch::testing::uniform_matrix(k, n, rng), c(m, n);
  return rnnsearch::testing::product_rate(m, n, k, runs, [&] { gemm(a, Transpose::kNo, b, Transpose::kNo, c); });
}

}  // namespace

int main(int argc, char** argv) {
  rnnsearch::tools::select_gemm_kernels(argv);
  int runs = 5;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--runs")) runs = std::atoi(argv[i + 1]);
  }
  const GemmBackend chosen = gemm_backend_in_use();
  std::vector<GemmBackend> backends = {GemmBackend::kOpenBlas};
  if (onednn_built_in()) backends.insert(backends.begin(), GemmBackend::kOneDnn);
  std::printf("SGEMM through math::gemm, 1 thread, median GFLOP/s of %d runs; the rule picks %s here\n", runs,
              gemm_backend());
  std::printf("%-22s", "shape (M x N x K)");
  for (GemmBackend b : backends) {
    use_gemm_backend(b);
    std::printf(" %14s", gemm_backend());
  }
  std::printf(" %14s\n", "row-stable");
  const int shapes[][3] = {{32, 1536, 512}, {32, 512, 1536}, {64, 1536, 512}, {160, 13039, 256}, {1024, 1024, 1024}};
  set_gemm_threads(1);
  for (const auto& s : shapes) {
    const std::string name = std::to_string(s[0]) + " x " + std::to_string(s[1]) + " x " + std::to_string(s[2]);
    std::printf("%-22s", name.c_str());
    for (GemmBackend b : backends) {
      use_gemm_backend(b);
      set_gemm_threads(1);
      std::printf(" %14.1f", gflops(s[0], s[1], s[2], runs));
    }
    const RowStableProducts row_stable;
    std::printf(" %14.1f\n", gflops(s[0], s[1], s[2], runs));
  }
  use_gemm_backend(chosen);
  return 0;
}
