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
// exponent bits. A NaN gives NaN.
constexpr float kLow = -87.33654f, kHigh = 88.0f;
constexpr float kLog2e = 1.44269504088896341f;
constexpr float kLn2High = 0.693359375f, kLn2Low = -2.12194440e-4f;
constexpr float kRound = 12582912.0f;  // 1.5 * 2^23: (t + kRound) - kRound rounds t to an integer, ties to even

inline float exp_one(float x) {
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
  p = p * r + 1.0f;
  p = p * r + 1.0f;
  const int exponent = static_cast<int>(n == n ? n : 0.0f) + 127;  // in [1, 254]
  const std::uint32_t bits = static_cast<std::uint32_t>(exponent) << 23;
  float scale;
  std::memcpy(&scale, &bits, sizeof scale);
  const float result = p * scale;
  return x < kLow ? 0.0f : (x == x ? result : x);
}

// tanh(x): odd; for |x| < 0.25 its Taylor series to x^9 (relative error below 1e-8), else
// (e - 1) / (e + 1) with e = exp(2 |x|), |x| clamped to 9 (tanh(9) rounds to 1).
inline float tanh_one(float x) {
  const float a = x < 0.0f ? -x : x;
  const float s = x * x;
  float t = 62.0f / 2835.0f;
  t = t * s - 17.0f / 315.0f;
  t = t * s + 2.0f / 15.0f;
  t = t * s - 1.0f / 3.0f;
  const float small = x * (1.0f + t * s);  // x times, not plus: tanh(-0) is -0
  const float e = exp_one(2.0f * (a > 9.0f ? 9.0f : a));
  const float large = (e - 1.0f) / (e + 1.0f);
  return a < 0.25f ? small : (x < 0.0f ? -large : large);
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

}  // namespace

extern const kernels::ElementwiseKernels kElementwise{exp_array, tanh_array, logistic_array, exp_sum};

}  // namespace rnnsearch::math::RNNSEARCH_ISA
