#pragma once
// exp, expm1-based tanh and the logistic function of one float, for the kernel files
// (kernels.h) that apply them elementwise: IEEE operations only, no fma, so the loops the
// compiler vectorizes give the scalar code's bits at every level. static: each kernel
// file, compiled once per level, keeps its own copy (kernels.h says why).
#include <cstdint>
#include <cstring>

namespace rnnsearch::math::kernels {

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

static inline Reduced reduce(float x) {
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
static inline float power_of_two(float n) {
  const int exponent = static_cast<int>(n == n ? n : 0.0f) + 127;
  const std::uint32_t bits = static_cast<std::uint32_t>(exponent) << 23;
  float scale;
  std::memcpy(&scale, &bits, sizeof scale);
  return scale;
}

static inline float exp_one(float x) {
  const Reduced v = reduce(x);
  const float result = power_of_two(v.n) * (v.em1r + 1.0f);
  return x < kLow ? 0.0f : (x == x ? result : x);
}

// tanh(x) = expm1(2x) / (expm1(2x) + 2), expm1(y) = 2^n expm1(r) + (2^n - 1), exact for
// n = 0, so small |x| keep their relative precision; 2x is clamped as exp clamps.
static inline float tanh_one(float x) {
  const Reduced v = reduce(2.0f * x);
  const float scale = power_of_two(v.n);
  const float em1 = v.n == 0.0f ? v.em1r : scale * v.em1r + (scale - 1.0f);
  return x == 0.0f ? x : em1 / (em1 + 2.0f);  // tanh(-0) is -0
}

// 1 / (1 + exp(-x)).
static inline float logistic_one(float x) { return 1.0f / (1.0f + exp_one(-x)); }

}  // namespace rnnsearch::math::kernels
