#pragma once
// exp, tanh and the logistic function of arrays, for the GRU gates, the attention's hidden
// layer and the softmax's normalizer, with cpu_isa()'s kernel (math/kernels/
// elementwise_kernels.cc): the same bits at every level of instruction sets and on every
// CPU, unlike Eigen's vectorized functions (whose width and fma use follow the build's
// flags) and the C library's (which picks its code by the CPU). Relative error within a
// few float roundings of the exact function; exp saturates at exp(88) and is 0 below
// ln(FLT_MIN) (-87.34).
namespace rnnsearch::math {

// y[i] = exp(x[i] - shift).
void exp_array(const float* x, float shift, float* y, int n);
// y[i] = tanh(x[i]); y may be x.
void tanh_array(const float* x, float* y, int n);
// y[i] = 1 / (1 + exp(-x[i])); y may be x.
void logistic_array(const float* x, float* y, int n);
// log sum_i exp(x[i]) = top + log(sum_i exp(x[i] - top)), top the largest x[i], the sum in
// a fixed order of 16 lanes (n >= 1).
float log_sum_exp(const float* x, int n);

}  // namespace rnnsearch::math
