#include "math/elementwise.h"

#include <cmath>

#include "math/kernel_tables.h"

namespace rnnsearch::math {

void exp_array(const float* x, float shift, float* y, int n) { elementwise_kernels(cpu_isa()).exp(x, shift, y, n); }

void tanh_array(const float* x, float* y, int n) { elementwise_kernels(cpu_isa()).tanh(x, y, n); }

void logistic_array(const float* x, float* y, int n) { elementwise_kernels(cpu_isa()).logistic(x, y, n); }

float log_sum_exp(const float* x, int n) {
  const kernels::ElementwiseKernels& f = elementwise_kernels(cpu_isa());
  const float top = f.largest(x, n);
  // logf's bits are the same from each of glibc's versions of it (checked on every float).
  return top + std::log(f.exp_sum(x, top, n));
}

}  // namespace rnnsearch::math
