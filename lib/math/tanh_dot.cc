// Which level's kernel computes tanh_dot.h's sums (math/kernels/dot_kernels.cc).
#include "math/tanh_dot.h"

#include "math/kernel_tables.h"

namespace rnnsearch::math {

float fast_tanh(float x) { return isa_baseline::kDot.fast_tanh(x); }

float lane_dot(const float* h, const float* v, int n) { return dot_kernels(cpu_isa()).lane_dot(h, v, n); }

TanhDotFunction tanh_dot_function(CpuIsa isa) { return dot_kernels(isa).tanh_dot; }

}  // namespace rnnsearch::math
