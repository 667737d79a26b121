// Benchmark (not a test): inference's weight products at decoder shapes, fp32 through
// row_stable_gemm (as math::gemm multiplies inside a RowStableProducts scope) against
// math::PackedMatrix in int8 (each kernel this CPU runs) and bf16 (where it runs):
// median effective GFLOP/s (2 M N K per product) in the calling thread. With --per-call:
// instead, microseconds of thread CPU time per call (so time the thread waits for a core
// on a loaded machine is not counted) of the best int8 kernel at the decoder's shapes, and
// of its quantization of a's rows alone (math/int8_rows.h).
//
//   build/bench/packed_gemm_bench [--runs N] [--per-call]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "math/gemm.h"
#include "math/int8_rows.h"
#include "math/packed_matrix.h"
#include "math/quantized_kernels.h"
#include "support/gzip_text.h"
#include "support/sgemm_rate.h"
#include "tools/support/gemm_choice.h"

using namespace rnnsearch::math;

namespace {

// The products' median GFLOP/s, each run about 0.02 s at 100 GFLOP/s.
double rate(int m, int n, int k, int runs, const std::function<void()>& product) {
  return rnnsearch::testing::product_rate(m, n, k, runs, product, 0.02);
}

double thread_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// Median microseconds of thread CPU time per call of `call`, runs of about 0.02 s each.
double cpu_us_per_call(int runs, const std::function<void()>& call) {
  double start = thread_seconds();
  call();  // warm up, and a first estimate
  const int reps = std::max(1, static_cast<int>(0.02 / std::max(1e-7, thread_seconds() - start)));
  std::vector<double> times;
  for (int r = 0; r < runs; ++r) {
    start = thread_seconds();
    for (int i = 0; i < reps; ++i) call();
    times.push_back((thread_seconds() - start) / reps * 1e6);
  }
  return rnnsearch::testing::median(times);
}

// The best int8 kernel per call and its quantization of a alone, at hansard36's decoder
// shapes (N x K: the output layer over a shortlist's union, GRU W, U_zr, U_h and W_a).
void per_call_table(int runs) {
  const CpuIsa level = cpu_isa();
  const Int8RowFormat format = level >= CpuIsa::kAvx512Vnni ? Int8RowFormat::kU8
                               : level >= CpuIsa::kAvx2     ? Int8RowFormat::kS16
                                                            : Int8RowFormat::kS8;
  std::printf("median us of thread CPU time per call, %d runs; level %s, int8 kernel %s\n", runs,
              cpu_isa_name(level), int8_kernel_name(level));
  std::printf("%-20s %12s %12s\n", "M x N x K", "int8_gemm", "a's rows");
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> u(-1, 1);
  const int shapes[][2] = {{2000, 256}, {1536, 768}, {1024, 512}, {512, 512}};
  for (const auto& s : shapes) {
    for (const int m : {5, 40, 160}) {
      const int n = s[0], k = s[1];
      Matrix a(m, k), w(k, n), c(m, n);
      for (int i = 0; i < a.size(); ++i) a.data()[i] = u(rng);
      for (int i = 0; i < w.size(); ++i) w.data()[i] = u(rng);
      const PackedMatrix int8(w, Transpose::kNo, Precision::kInt8);
      Int8Rows rows;
      std::printf("%-20s %12.2f %12.2f\n", (std::to_string(m) + " x " + std::to_string(n) + " x " + std::to_string(k)).c_str(),
                  cpu_us_per_call(runs, [&] { int8_gemm(a, int8, c, 1.0f, 0.0f, level); }),
                  cpu_us_per_call(runs, [&] { quantize_int8_rows(a, format, rows); }));
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  rnnsearch::tools::select_gemm_kernels(argv);
  int runs = 5;
  bool per_call = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--runs") && i + 1 < argc) runs = std::atoi(argv[++i]);
    if (!std::strcmp(argv[i], "--per-call")) per_call = true;
  }
  if (per_call) {
    per_call_table(runs);
    return 0;
  }
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> u(-1, 1);
  const bool bf16 = precision_supported(Precision::kBf16);
  std::printf("median GFLOP/s of %d runs, one thread; int8 kernels:", runs);
  for (const CpuIsa kernel : cpu_isas_up_to_current()) std::printf(" %s", int8_kernel_name(kernel));
  std::printf("; bf16 %s\n", bf16 ? "avx512_bf16" : "not on this CPU");
  std::printf("%-20s %8s", "M x N x K", "fp32");
  for (const CpuIsa kernel : cpu_isas_up_to_current()) std::printf(" %12s", (std::string("int8 ") + int8_kernel_name(kernel)).c_str());
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
      for (const CpuIsa kernel : cpu_isas_up_to_current()) {
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
