// Which level's kernel does step_ops.h's work (math/kernels/step_kernels.cc).
#include "math/step_ops.h"

#include "math/kernel_tables.h"

namespace rnnsearch::math {

float tanh_score(const float* q, const float* k, const float* v, float* hidden, int n) {
  return step_kernels(cpu_isa()).tanh_score(q, k, v, hidden, n);
}

void tanh_score_backward(float g, const float* q, const float* k, const float* v, float* dv, float* dk, float* dq,
                         int n) {
  step_kernels(cpu_isa()).tanh_score_backward(g, q, k, v, dv, dk, dq, n);
}

void gru_update(const float* z, const float* candidate, const float* h_prev, float* h, int n) {
  step_kernels(cpu_isa()).gru_update(z, candidate, h_prev, h, n);
}

void gru_update_backward(const float* dh, const float* z, const float* candidate, const float* h_prev, float* dz,
                         float* d_candidate, float* d_prev, int n) {
  step_kernels(cpu_isa()).gru_update_backward(dh, z, candidate, h_prev, dz, d_candidate, d_prev, n);
}

void gru_reset_backward(const float* r, const float* h_prev, float* d_r, float* d_prev, int n) {
  step_kernels(cpu_isa()).gru_reset_backward(r, h_prev, d_r, d_prev, n);
}

void maxout(const float* pre, int n, std::int32_t* winner, float* out) {
  step_kernels(cpu_isa()).maxout(pre, n, winner, out);
}

}  // namespace rnnsearch::math
