// math/elementwise.h: exp, tanh, the logistic function and the sum of exps give the
// baseline kernel's bits at every level this CPU has (tails of every length, special
// values), stay within a few roundings of the exact functions, and keep NaN, the
// infinities and the saturation the header states; log_sum_exp is log sum exp.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "math/cpu_isa.h"
#include "math/elementwise.h"
#include "math/kernel_tables.h"

using namespace rnnsearch::math;

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNan = std::numeric_limits<float>::quiet_NaN();

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

// Values over [-span, span], with the special ones spread through (none at 0, so that the
// largest value of any prefix is not a NaN).
std::vector<float> inputs(int n, float span, std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-span, span);
  const float special[] = {0.0f, -0.0f, kInf, -kInf, kNan, 1e-30f, -1e-30f, 0.25f, -0.25f, 88.0f, 100.0f, -87.5f, -200.0f};
  std::vector<float> x(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) x[i] = i % 7 == 3 ? special[(i / 7) % std::size(special)] : u(rng);
  x[0] = u(rng);
  return x;
}

// The largest error of f against the exact function over [from, to], relative to max(|exact|, floor).
template <typename F, typename Exact>
double largest_error(F f, Exact exact, float from, float to, double floor) {
  std::vector<float> x, y;
  for (float v = from; v <= to; v += (to - from) / 200000.0f) x.push_back(v);
  y.resize(x.size());
  f(x.data(), y.data(), static_cast<int>(x.size()));
  double worst = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double e = exact(static_cast<double>(x[i]));
    worst = std::max(worst, std::abs(y[i] - e) / std::max(std::abs(e), floor));
  }
  return worst;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(elementwise)

BOOST_AUTO_TEST_CASE(every_level_gives_the_baseline_bits) {
  std::mt19937 rng(31);
  const kernels::ElementwiseKernels& base = elementwise_kernels(CpuIsa::kBaseline);
  for (const int n : {1, 7, 15, 16, 17, 33, 100, 1000, 4099}) {
    const std::vector<float> x = inputs(n, 30.0f, rng);
    std::vector<float> e(x.size()), t(x.size()), l(x.size());
    base.exp(x.data(), 0.5f, e.data(), n);
    base.tanh(x.data(), t.data(), n);
    base.logistic(x.data(), l.data(), n);
    std::vector<float> finite;
    for (const float v : x) {
      if (std::isfinite(v)) finite.push_back(v);
    }
    const float sum = base.exp_sum(finite.data(), 30.0f, static_cast<int>(finite.size()));
    for (const CpuIsa level : cpu_isas_up_to_current()) {
      const kernels::ElementwiseKernels& f = elementwise_kernels(level);
      std::vector<float> y(x.size());
      f.exp(x.data(), 0.5f, y.data(), n);
      BOOST_TEST(same_bits(y, e), cpu_isa_name(level) << " exp, n " << n);
      f.tanh(x.data(), y.data(), n);
      BOOST_TEST(same_bits(y, t), cpu_isa_name(level) << " tanh, n " << n);
      y = x;
      f.logistic(y.data(), y.data(), n);  // in place
      BOOST_TEST(same_bits(y, l), cpu_isa_name(level) << " logistic, n " << n);
      const float level_sum = f.exp_sum(finite.data(), 30.0f, static_cast<int>(finite.size()));
      BOOST_TEST(std::memcmp(&level_sum, &sum, sizeof sum) == 0, cpu_isa_name(level) << " exp_sum, n " << n);
      BOOST_TEST(f.largest(x.data(), n) == base.largest(x.data(), n), cpu_isa_name(level) << " largest, n " << n);
    }
  }
}

BOOST_AUTO_TEST_CASE(the_functions_are_within_a_few_roundings_of_the_exact_ones) {
  const auto exp0 = [](const float* x, float* y, int n) { exp_array(x, 0.0f, y, n); };
  const double exp_error = largest_error(exp0, [](double v) { return std::exp(v); }, -87.0f, 88.0f, 0.0);
  const double tanh_error = largest_error(tanh_array, [](double v) { return std::tanh(v); }, -10.0f, 10.0f, 0.0);
  const double logistic_error =
      largest_error(logistic_array, [](double v) { return 1.0 / (1.0 + std::exp(-v)); }, -80.0f, 80.0f, 0.0);
  BOOST_TEST_MESSAGE("largest relative errors: exp " << exp_error << ", tanh " << tanh_error << ", logistic "
                                                     << logistic_error);
  BOOST_TEST(exp_error < 4e-7);
  BOOST_TEST(tanh_error < 4e-7);
  BOOST_TEST(logistic_error < 4e-7);
}

BOOST_AUTO_TEST_CASE(special_values_and_saturation_are_as_documented) {
  const std::vector<float> x{kNan, kInf, -kInf, 0.0f, -0.0f, 89.0f, -88.0f};
  std::vector<float> y(x.size());
  exp_array(x.data(), 0.0f, y.data(), static_cast<int>(x.size()));
  BOOST_TEST(std::isnan(y[0]));
  BOOST_TEST(y[1] == std::exp(88.0f) * 1.0f);
  BOOST_TEST(y[2] == 0.0f);
  BOOST_TEST(y[3] == 1.0f);
  BOOST_TEST(y[5] == y[1]);
  BOOST_TEST(y[6] == 0.0f);  // below ln(FLT_MIN)
  tanh_array(x.data(), y.data(), static_cast<int>(x.size()));
  BOOST_TEST(std::isnan(y[0]));
  BOOST_TEST(y[1] == 1.0f);
  BOOST_TEST(y[2] == -1.0f);
  BOOST_TEST((y[3] == 0.0f && !std::signbit(y[3])));
  BOOST_TEST((y[4] == 0.0f && std::signbit(y[4])));
  logistic_array(x.data(), y.data(), static_cast<int>(x.size()));
  BOOST_TEST(std::isnan(y[0]));
  BOOST_TEST(y[1] == 1.0f);
  BOOST_TEST(y[2] < 1e-38f);
  BOOST_TEST(y[3] == 0.5f);
}

BOOST_AUTO_TEST_CASE(log_sum_exp_is_the_log_of_the_sum_of_exps) {
  std::mt19937 rng(32);
  std::uniform_real_distribution<float> u(-20.0f, 20.0f);
  for (const int n : {1, 5, 16, 31, 13039}) {
    std::vector<float> x(static_cast<std::size_t>(n));
    for (float& v : x) v = u(rng);
    double top = x[0], sum = 0.0;
    for (const float v : x) top = std::max(top, static_cast<double>(v));
    for (const float v : x) sum += std::exp(v - top);
    BOOST_TEST(log_sum_exp(x.data(), n) == top + std::log(sum), boost::test_tools::tolerance(1e-6));
    BOOST_TEST(elementwise_kernels(cpu_isa()).largest(x.data(), n) == top);
  }
  const std::vector<float> masked{-kInf, 2.0f, -kInf};
  BOOST_TEST(log_sum_exp(masked.data(), 3) == 2.0f);
}

BOOST_AUTO_TEST_SUITE_END()
