#include "math/elementwise.h"

#include <cmath>

#include "math/kernel_tables.h"

namespace rnnsearch::math {

void exp_array(const float* x, float shift, float* y, int n) { elementwise_kernels(cpu_isa()).exp(x, shift, y, n); }

void tanh_array(const float* x, float* y, int n) { elementwise_kernels(cpu_isa()).tanh(x, y, n); }

void logistic_array(const float* x, float* y, int n) { elementwise_kernels(cpu_isa()).logistic(x, y, n); }

float log_sum_exp(const float* x, int n) {
  float top = x[0];
  for (int i = 1; i < n; ++i) top = x[i] > top ? x[i] : top;
  // logf's bits are the same from each of glibc's versions of it (checked on every float).
  return top + std::log(elementwise_kernels(cpu_isa()).exp_sum(x, top, n));
}

}  // namespace rnnsearch::math
