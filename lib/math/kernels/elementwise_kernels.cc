// exp, tanh and the logistic function over arrays, and the sum of exps, compiled once per
// level (kernels.h): plain loops of IEEE operations (no fma: -ffp-contract=off), which the
// compiler vectorizes to the level's width (CMake adds -O3 for this file), so every level
// and every CPU gives the same bits. The C library's expf is not used: glibc picks its code
// by the CPU, and its FMA code rounds some inputs differently from its SSE2 code.
#include "math/kernels/exp_tanh.h"
#include "math/kernels/kernels.h"

namespace rnnsearch::math::RNNSEARCH_ISA {

namespace {

using kernels::exp_one;
using kernels::logistic_one;
using kernels::tanh_one;

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
