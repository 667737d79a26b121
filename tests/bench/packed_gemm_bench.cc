// Benchmark (not a test): inference's weight products at decoder shapes, fp32 through
// row_stable_gemm (as math::gemm multiplies inside a RowStableProducts scope) against
// math::PackedMatrix in int8 (each kernel this CPU runs) and bf16 (where it runs):
// median effective GFLOP/s (2 M N K per product) in the calling thread.
//
//   build/bench/packed_gemm_bench [--runs N]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "math/gemm.h"
#include "math/gemm_kernels.h"
#include "math/packed_matrix.h"
#include "math/quantized_kernels.h"
#include "support/gzip_text.h"
#include "support/sgemm_rate.h"

using namespace rnnsearch::math;

namespace {

// The products' median GFLOP/s, each run about 0.02 s at 100 GFLOP/s.
double rate(int m, int n, int k, int runs, const std::function<void()>& product) {
  return rnnsearch::testing::product_rate(m, n, k, runs, product, 0.02);
}

}  // namespace

int main(int argc, char** argv) {
  select_gemm_kernels(argv);
  int runs = 5;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--runs")) runs = std::atoi(argv[i + 1]);
  }
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> u(-1, 1);
  const bool bf16 = precision_supported(Precision::kBf16);
  std::printf("median GFLOP/s of %d runs, one thread; int8 kernels:", runs);
  for (const Int8Kernel kernel : int8_kernels()) std::printf(" %s", int8_kernel_name(kernel));
  std::printf("; bf16 %s\n", bf16 ? "avx512_bf16" : "not on this CPU");
  std::printf("%-20s %8s", "M x N x K", "fp32");
  for (const Int8Kernel kernel : int8_kernels()) std::printf(" %12s", (std::string("int8 ") + int8_kernel_name(kernel)).c_str());
  std::printf(" %8s\n", "bf16");
  const int shapes[][2] = {{13039, 256}, {1536, 768}, {1024, 512}, {512, 512}};  // hansard36's decoder: W_out, GRU W, U_zr, U_h
  for (const auto& s : shapes) {
    for (const int m : {1, 5, 32, 160}) {
      const int n = s[0], k = s[1];
      Matrix a(m, k), w(k, n), c(m, n);
      for (int i = 0; i < a.size(); ++i) a.data()[i] = u(rng);
      for (int i = 0; i < w.size(); ++i) w.data()[i] = u(rng);
      const PackedMatrix int8(w, Transpose::kNo, Precision::kInt8);
      const RowStableProducts row_stable;
      std::printf("%-20s %8.1f", (std::to_string(m) + " x " + std::to_string(n) + " x " + std::to_string(k)).c_str(),
                  rate(m, n, k, runs, [&] { gemm(a, Transpose::kNo, w, Transpose::kNo, c); }));
      for (const Int8Kernel kernel : int8_kernels()) {
        std::printf(" %12.1f", rate(m, n, k, runs, [&] { int8_gemm(a, int8, c, 1.0f, 0.0f, kernel); }));
      }
      if (bf16) {
        const PackedMatrix packed(w, Transpose::kNo, Precision::kBf16);
        std::printf(" %8.1f", rate(m, n, k, runs, [&] { gemm(a, packed, c); }));
      }
      std::printf("\n");
    }
  }
  return 0;
}
