// exp, tanh and the logistic function over arrays, and the sum of exps, compiled once per
// level (kernels.h): plain loops of IEEE operations (no fma: -ffp-contract=off), which the
// compiler vectorizes to the level's width (CMake adds -O3 for this file), so every level
// and every CPU gives the same bits. The C library's expf is not used: glibc picks its code
// by the CPU, and its FMA code rounds some inputs differently from its SSE2 code.
#include <cstring>

#include "math/kernels/kernels.h"

namespace rnnsearch::math::RNNSEARCH_ISA {

namespace {

// exp(x): x clamped to [kLow, kHigh] (below kLow the result is 0, so exp(-inf) = 0; exp of
// more than kHigh is exp(kHigh), 1.65e38), x = n ln2 + r with |r| <= ln2 / 2 (ln2 in two
// parts, so n ln2 is exact to 2^-32), exp(r) by its Taylor series to r^7 / 7! (relative
// error below 1e-8 on that interval, before float rounding), times 2^n through the
// exponent bits. A NaN gives NaN. tanh goes through expm1, from the same reduction.
constexpr float kLow = -87.33654f, kHigh = 88.0f;
constexpr float kLog2e = 1.44269504088896341f;
constexpr float kLn2High = 0.693359375f, kLn2Low = -2.12194440e-4f;
constexpr float kRound = 12582912.0f;  // 1.5 * 2^23: (t + kRound) - kRound rounds t to an integer, ties to even

// The shared part of exp and expm1: x clamped, n = round(x / ln2), r = x - n ln2, and
// expm1(r) = r (1 + r P(r)) by the Taylor series.
struct Reduced {
  float n, em1r;
};

inline Reduced reduce(float x) {
  const float high = x > kHigh ? kHigh : x;  // a NaN stays a NaN through both
  const float c = high < kLow ? kLow : high;
  const float n = (c * kLog2e + kRound) - kRound;
  const float r = (c - n * kLn2High) - n * kLn2Low;
  float p = 1.0f / 5040.0f;
  p = p * r + 1.0f / 720.0f;
  p = p * r + 1.0f / 120.0f;
  p = p * r + 1.0f / 24.0f;
  p = p * r + 1.0f / 6.0f;
  p = p * r + 0.5f;
  return {n, r * (1.0f + r * p)};
}

// 2^n for an integer n in [-126, 127] (a NaN n gives 1).
inline float power_of_two(float n) {
  const int exponent = static_cast<int>(n == n ? n : 0.0f) + 127;
  const std::uint32_t bits = static_cast<std::uint32_t>(exponent) << 23;
  float scale;
  std::memcpy(&scale, &bits, sizeof scale);
  return scale;
}

inline float exp_one(float x) {
  const Reduced v = reduce(x);
  const float result = power_of_two(v.n) * (v.em1r + 1.0f);
  return x < kLow ? 0.0f : (x == x ? result : x);
}

// tanh(x) = expm1(2x) / (expm1(2x) + 2), expm1(y) = 2^n expm1(r) + (2^n - 1), exact for
// n = 0, so small |x| keep their relative precision; 2x is clamped as exp clamps.
inline float tanh_one(float x) {
  const Reduced v = reduce(2.0f * x);
  const float scale = power_of_two(v.n);
  const float em1 = v.n == 0.0f ? v.em1r : scale * v.em1r + (scale - 1.0f);
  return x == 0.0f ? x : em1 / (em1 + 2.0f);  // tanh(-0) is -0
}

// 1 / (1 + exp(-x)).
inline float logistic_one(float x) { return 1.0f / (1.0f + exp_one(-x)); }

void exp_array(const float* x, float shift, float* y, int n) {
  for (int i = 0; i < n; ++i) y[i] = exp_one(x[i] - shift);
}

void tanh_array(const float* x, float* y, int n) {
  for (int i = 0; i < n; ++i) y[i] = tanh_one(x[i]);
}

void logistic_array(const float* x, float* y, int n) {
  for (int i = 0; i < n; ++i) y[i] = logistic_one(x[i]);
}

// sum_i exp(x_i - shift) in 16 lanes (element i into lane i % 16, from +0, i ascending),
// then the lanes pairwise as tanh_dot.h sums them.
float exp_sum(const float* x, float shift, int n) {
  constexpr int kLanes = 16;
  float lane[kLanes] = {};
  float block[kLanes];
  int i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (int l = 0; l < kLanes; ++l) block[l] = exp_one(x[i + l] - shift);
    for (int l = 0; l < kLanes; ++l) lane[l] += block[l];
  }
  for (int l = 0; i + l < n; ++l) lane[l] += exp_one(x[i + l] - shift);
  for (int width = kLanes / 2; width >= 1; width /= 2) {
    for (int l = 0; l < width; ++l) lane[l] += lane[l + width];
  }
  return lane[0];
}

// The largest x_i (n >= 1) in 16 lanes, as `a > b ? a : b` keeps it: NaNs left out unless x_0 is one.
float largest(const float* x, int n) {
  constexpr int kLanes = 16;
  float lane[kLanes];
  for (int l = 0; l < kLanes; ++l) lane[l] = x[0];
  int i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (int l = 0; l < kLanes; ++l) lane[l] = x[i + l] > lane[l] ? x[i + l] : lane[l];
  }
  for (int l = 0; i + l < n; ++l) lane[l] = x[i + l] > lane[l] ? x[i + l] : lane[l];
  float top = lane[0];
  for (int l = 1; l < kLanes; ++l) top = lane[l] > top ? lane[l] : top;
  return top;
}

}  // namespace

extern const kernels::ElementwiseKernels kElementwise{exp_array, tanh_array, logistic_array, exp_sum, largest};

}  // namespace rnnsearch::math::RNNSEARCH_ISA
