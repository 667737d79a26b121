// math::tanh_dot and fast_tanh: every kernel this CPU runs gives the portable kernel's bits
// (A multiples of 16 and not, clamped and special values, unaligned rows); the documented
// order of the sum (and lane_dot's); fast_tanh's error bound, oddness and saturation.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "math/tanh_dot.h"

using namespace rnnsearch::math;

namespace {

std::uint32_t bits_of(float x) {
  std::uint32_t b = 0;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

float float_of(std::uint32_t b) {
  float x = 0.0f;
  std::memcpy(&x, &b, sizeof x);
  return x;
}

// tanh_dot.h's definition spelled out: 16 lanes, element a into lane a % 16, then pairwise.
float documented_sum(const float* q, const float* k, const float* v, int n) {
  float lane[16] = {};
  for (int a = 0; a < n; ++a) lane[a % 16] = std::fma(v[a], fast_tanh(q[a] + k[a]), lane[a % 16]);
  for (int i = 0; i < 8; ++i) lane[i] = lane[i] + lane[i + 8];
  for (int i = 0; i < 4; ++i) lane[i] = lane[i] + lane[i + 4];
  for (int i = 0; i < 2; ++i) lane[i] = lane[i] + lane[i + 2];
  return lane[0] + lane[1];
}

// q + k spread over [-7, 7] (about a third clamped), with exact zeros, the clamp itself,
// huge values and negative zeros mixed in; each vector starts one float past alignment.
struct Inputs {
  std::vector<float> q, k, v;
  Inputs(int n, std::mt19937& rng) : q(n + 1), k(n + 1), v(n + 1) {
    std::uniform_real_distribution<float> half(-3.5f, 3.5f), weight(-1.0f, 1.0f);
    for (int a = 1; a <= n; ++a) {
      q[a] = half(rng), k[a] = half(rng), v[a] = weight(rng);
      switch (rng() % 16) {
        case 0: q[a] = 0.0f, k[a] = -0.0f; break;
        case 1: q[a] = 5.0f, k[a] = 0.0f; break;
        case 2: q[a] = -1e30f; break;
        case 3: v[a] = -0.0f; break;
        default: break;
      }
    }
  }
  float dot(CpuIsa level, int n) const { return tanh_dot_function(level)(q.data() + 1, k.data() + 1, v.data() + 1, n); }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(tanh_dot_scores)

BOOST_AUTO_TEST_CASE(every_kernel_gives_the_bits_of_the_portable_one) {
  BOOST_TEST_MESSAGE("tanh_dot kernels up to " << cpu_isa_name(cpu_isa()));
  BOOST_TEST((cpu_isas_up_to_current().front() == CpuIsa::kBaseline));
  std::mt19937 rng(11);
  for (const int n : {0, 1, 5, 8, 9, 15, 16, 17, 31, 32, 33, 100, 512, 515}) {
    for (int trial = 0; trial < 20; ++trial) {
      const Inputs in(n, rng);
      const float expected = in.dot(CpuIsa::kBaseline, n);
      for (const CpuIsa kernel : cpu_isas_up_to_current()) {
        BOOST_TEST_INFO(cpu_isa_name(kernel) << " kernel, n " << n << ", trial " << trial);
        BOOST_TEST(bits_of(in.dot(kernel, n)) == bits_of(expected));
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(the_sum_runs_in_the_documented_order_and_is_near_the_exact_one) {
  std::mt19937 rng(12);
  for (const int n : {1, 7, 16, 40, 512, 519}) {
    const Inputs in(n, rng);
    const float* q = in.q.data() + 1;
    const float* k = in.k.data() + 1;
    const float* v = in.v.data() + 1;
    const float fast = in.dot(cpu_isa(), n);
    BOOST_TEST(bits_of(fast) == bits_of(documented_sum(q, k, v, n)), "n " << n);
    double exact = 0.0, weight = 0.0;
    for (int a = 0; a < n; ++a) {
      exact += v[a] * std::tanh(static_cast<double>(q[a]) + k[a]);
      weight += std::fabs(v[a]);
    }
    // The approximation's bound per element, plus fp32 rounding of the products and sums.
    BOOST_TEST(std::fabs(fast - exact) <= 4.6e-5 * weight + 1e-6 * n, "n " << n << ": " << fast << " vs " << exact);
  }
}

BOOST_AUTO_TEST_CASE(lane_dot_sums_in_the_documented_order) {
  std::mt19937 rng(13);
  std::uniform_real_distribution<float> value(-1.0f, 1.0f);
  for (const int n : {0, 1, 7, 8, 9, 16, 17, 32, 40, 512, 519}) {
    std::vector<float> h(n + 1), v(n + 1);  // each read from one float past alignment
    for (int a = 1; a <= n; ++a) h[a] = value(rng), v[a] = value(rng);
    float lane[16] = {};
    for (int a = 0; a < n; ++a) lane[a % 16] = std::fma(h[a + 1], v[a + 1], lane[a % 16]);
    for (int width = 8; width >= 1; width /= 2) {
      for (int i = 0; i < width; ++i) lane[i] = lane[i] + lane[i + width];
    }
    const float sum = lane_dot(h.data() + 1, v.data() + 1, n);
    BOOST_TEST(bits_of(sum) == bits_of(lane[0]), "n " << n);
    double exact = 0.0;
    for (int a = 1; a <= n; ++a) exact += static_cast<double>(h[a]) * v[a];
    BOOST_TEST(std::fabs(sum - exact) <= 1e-6 * (n + 1), "n " << n);
  }
}

BOOST_AUTO_TEST_CASE(fast_tanh_is_within_its_bound_of_tanh_odd_and_saturating) {
  double worst = 0.0;
  float worst_at = 0.0f;
  // Every 257th float of [0, 10], and every float of [4.999, 5.001] where the fit bends into the clamp.
  std::vector<std::uint32_t> samples;
  for (std::uint32_t b = 0; b <= bits_of(10.0f); b += 257) samples.push_back(b);
  for (std::uint32_t b = bits_of(4.999f); b <= bits_of(5.001f); ++b) samples.push_back(b);
  for (const std::uint32_t b : samples) {
    const float x = float_of(b);
    const float t = fast_tanh(x);
    const double error = std::fabs(t - std::tanh(static_cast<double>(x)));
    if (error > worst) worst = error, worst_at = x;
    if (bits_of(fast_tanh(-x)) != bits_of(-t) || !(std::fabs(t) < 1.0f)) {
      BOOST_ERROR("fast_tanh(" << x << ") = " << t << ", of -x " << fast_tanh(-x));
      break;
    }
  }
  BOOST_TEST_MESSAGE("fast_tanh: largest error " << worst << " at " << worst_at);
  BOOST_TEST(worst < 4.6e-5);
  BOOST_TEST(worst > 1e-5);  // the fit is what the header says, not tanh itself
  const float saturated = fast_tanh(5.0f);
  BOOST_TEST(std::fabs(saturated - 0.9999547f) < 1e-7f);
  for (const float x : {5.0001f, 7.5f, 10.0f, 1e30f, std::numeric_limits<float>::infinity()}) {
    BOOST_TEST(bits_of(fast_tanh(x)) == bits_of(saturated), x);
    BOOST_TEST(bits_of(fast_tanh(-x)) == bits_of(-saturated), -x);
  }
  BOOST_TEST(bits_of(fast_tanh(0.0f)) == bits_of(0.0f));
  BOOST_TEST(std::isnan(fast_tanh(std::numeric_limits<float>::quiet_NaN())));
}

BOOST_AUTO_TEST_SUITE_END()
