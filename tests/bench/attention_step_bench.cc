// Benchmark (not a test): one decoder step of additive attention at hansard36's shapes
// (2n = m = A = 512) as beam search calls it: B sentences of S positions, R = beam * B
// rows mapped to their sentences, in each inference precision this CPU has. Median of
// --runs, in CPU time of the calling thread (the figures hold on a loaded machine), as ns
// per (row, position) pair: each pair is A tanh evaluations and their dot with v. Then the
// scores alone, ns per pair: fp32's Eigen tanh into a row and its dot with v (the column
// of an [A x 1] matrix, as the layer holds it), against math::tanh_dot with each kernel
// this CPU runs (int8 and bf16 steps call the last).
//
//   build/bench/attention_step_bench [--runs N] [--sentences B] [--positions S] [--beam K]
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <functional>
#include <string>
#include <vector>

#include "math/gemm.h"
#include "math/precision.h"
#include "math/tanh_dot.h"
#include "nn/additive_attention.h"
#include "support/gradcheck.h"
#include "tools/support/gemm_choice.h"

using namespace rnnsearch;

namespace {

double thread_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// Median ns per call of `work` over `runs` runs of about 0.2 s each, after one untimed call.
double median_ns(int runs, const std::function<void()>& work) {
  work();
  const double start = thread_seconds();
  work();
  const double once = std::max(thread_seconds() - start, 1e-7);
  const int reps = std::max(1, static_cast<int>(0.2 / once));
  std::vector<double> ns;
  for (int run = 0; run < runs; ++run) {
    const double t0 = thread_seconds();
    for (int rep = 0; rep < reps; ++rep) work();
    ns.push_back((thread_seconds() - t0) / reps * 1e9);
  }
  std::sort(ns.begin(), ns.end());
  return ns[ns.size() / 2];
}

// fp32's scores (AdditiveAttention's exact arithmetic) against tanh_dot's kernels, on 5
// query rows against 30 key rows.
void score_kernels(int runs, int A) {
  constexpr int kRows = 5, kPositions = 30;
  const math::Matrix q = testing::random_matrix(kRows, A, 4), k = testing::random_matrix(kPositions, A, 5);
  const math::Matrix v = testing::random_matrix(A, 1, 6, 0.1f);  // [A x 1]
  math::Matrix hidden(1, A), scores(kRows, kPositions);
  const auto v_row = v.col(0).transpose();
  std::printf("scores alone, %d x %d pairs: %-22s %8s\n", kRows, kPositions, "", "ns/pair");
  const double eigen = median_ns(runs, [&] {
    for (int j = 0; j < kPositions; ++j) {
      for (int r = 0; r < kRows; ++r) {
        hidden.row(0) = (q.row(r) + k.row(j)).array().tanh();
        scores(r, j) = hidden.row(0).dot(v_row);
      }
    }
  });
  std::printf("  %-48s %8.1f\n", "fp32: Eigen tanh row, dot with v", eigen / (kRows * kPositions));
  for (const math::CpuIsa kernel : math::cpu_isas_up_to_current()) {
    const double ns = median_ns(runs, [&] {
      for (int j = 0; j < kPositions; ++j) {
        for (int r = 0; r < kRows; ++r) {
          scores(r, j) = math::tanh_dot_function(kernel)(q.row(r).data(), k.row(j).data(), v.data(), A);
        }
      }
    });
    std::printf("  %-48s %8.1f\n", (std::string("tanh_dot ") + math::cpu_isa_name(kernel)).c_str(),
                ns / (kRows * kPositions));
  }
}

}  // namespace

int main(int argc, char** argv) {
  rnnsearch::tools::select_gemm_kernels(argv);
  int runs = 5, B = 32, S = 30, beam = 5;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--runs")) runs = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--sentences")) B = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--positions")) S = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--beam")) beam = std::atoi(argv[i + 1]);
  }
  constexpr int kDim = 512;
  const int R = beam * B;
  nn::ParameterRegistry registry;
  nn::AdditiveAttention attention(registry, "att", kDim, kDim, kDim);
  testing::randomize(registry, 1, 0.05f);
  const math::Matrix annotations = testing::random_matrix(S * B, kDim, 2);
  const math::Matrix query = testing::random_matrix(R, kDim, 3);
  const math::Matrix mask = math::Matrix::Ones(S, B);
  std::vector<int> row_sentence;
  for (int b = 0; b < B; ++b) row_sentence.insert(row_sentence.end(), static_cast<std::size_t>(beam), b);
  math::Matrix keys, context, weights;
  attention.precompute_keys(annotations, keys);
  nn::Attention::StepCache cache;
  const math::RowStableProducts row_stable;  // as inference multiplies
  std::printf("additive attention step, A = %d, %d sentences x %d positions, %d rows; median of %d, thread CPU time\n",
              kDim, B, S, R, runs);
  std::printf("%-8s %12s %16s\n", "", "us/step", "ns/(row, pos)");
  for (const math::Precision precision : {math::Precision::kFp32, math::Precision::kInt8, math::Precision::kBf16}) {
    if (!math::precision_supported(precision)) continue;
    attention.set_inference_precision(precision);
    const double ns = median_ns(runs, [&] {
      attention.step(query, annotations, keys, mask, cache, context, weights, &row_sentence);
    });
    std::printf("%-8s %12.1f %16.2f\n", math::precision_name(precision), ns / 1e3, ns / (double(R) * S));
  }
  score_kernels(runs, kDim);
}
