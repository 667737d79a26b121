#include "support/sgemm_rate.h"

#include <algorithm>
#include <chrono>
#include <random>
#include <thread>
#include <vector>

#include "math/gemm.h"
#include "support/gzip_text.h"

namespace rnnsearch::testing {

namespace {

using Clock = std::chrono::steady_clock;

}  // namespace

double concurrent_sgemm_rate(int threads, int m, int n, int k, int runs) {
  math::set_gemm_threads(1);
  struct Operands {
    math::Matrix a, b, c;
  };
  std::vector<Operands> operands(static_cast<std::size_t>(threads));
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> u(-1, 1);
  for (auto& o : operands) {
    o.a.resize(m, k);
    o.b.resize(k, n);
    o.c.resize(m, n);
    for (Eigen::Index i = 0; i < o.a.size(); ++i) o.a.data()[i] = u(rng);
    for (Eigen::Index i = 0; i < o.b.size(); ++i) o.b.data()[i] = u(rng);
  }
  const double flop = 2.0 * m * n * k;
  const int reps = std::max(1, static_cast<int>(5e10 / flop));  // about 0.5 s at 100 GFLOP/s
  std::vector<double> rates;
  for (int r = 0; r < runs; ++r) {
    std::vector<std::thread> workers;
    const auto start = Clock::now();
    for (auto& o : operands) {
      workers.emplace_back([&o, reps] {
        math::set_gemm_threads(1);
        for (int i = 0; i < reps; ++i) math::gemm(o.a, math::Transpose::kNo, o.b, math::Transpose::kNo, o.c);
      });
    }
    for (auto& w : workers) w.join();
    rates.push_back(flop * reps * threads / std::chrono::duration<double>(Clock::now() - start).count() / 1e9);
  }
  return median(rates);
}

}  // namespace rnnsearch::testing

namespace rnnsearch::testing {

double product_rate(int m, int n, int k, int runs, const std::function<void()>& product, double seconds_at_100) {
  const double flop = 2.0 * m * n * k;
  const int reps = std::max(1, static_cast<int>(seconds_at_100 * 1e11 / flop));
  product();  // warm up
  std::vector<double> rates;
  for (int r = 0; r < runs; ++r) {
    const auto start = Clock::now();
    for (int i = 0; i < reps; ++i) product();
    const double s = std::chrono::duration<double>(Clock::now() - start).count();
    rates.push_back(flop * reps / s / 1e9);
  }
  return median(rates);
}

}  // namespace rnnsearch::testing
