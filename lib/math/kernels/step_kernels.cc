// The recurrent step's fused elementwise kernels (math/step_ops.h), compiled once per level
// (kernels.h): plain loops of IEEE operations (no fma: -ffp-contract=off), each written in
// the order of the expressions they replace, which the compiler vectorizes to the level's
// width (CMake adds -O3), so every level gives the baseline's bits.
#include "math/kernels/exp_tanh.h"
#include "math/kernels/kernels.h"

namespace rnnsearch::math::RNNSEARCH_ISA {

namespace {

using kernels::tanh_one;

float tanh_score(const float* __restrict q, const float* __restrict k, const float* __restrict v,
                 float* __restrict hidden, int n) {
  for (int a = 0; a < n; ++a) hidden[a] = tanh_one(q[a] + k[a]);
  return kDot.lane_dot(hidden, v, n);
}

void tanh_score_backward(float g, const float* __restrict q, const float* __restrict k, const float* __restrict v,
                         float* __restrict dv, float* __restrict dk, float* __restrict dq, int n) {
  for (int a = 0; a < n; ++a) {
    const float h = tanh_one(q[a] + k[a]);
    dv[a] += g * h;
    const float d = g * v[a] * (1.0f - h * h);
    dk[a] += d;
    dq[a] += d;
  }
}

void gru_update(const float* __restrict z, const float* __restrict candidate, const float* __restrict h_prev,
                float* __restrict h, int n) {
  for (int a = 0; a < n; ++a) h[a] = (1.0f - z[a]) * h_prev[a] + z[a] * candidate[a];
}

void gru_update_backward(const float* __restrict dh, const float* __restrict z, const float* __restrict candidate,
                         const float* __restrict h_prev, float* __restrict dz, float* __restrict d_candidate,
                         float* __restrict d_prev, int n) {
  for (int a = 0; a < n; ++a) {
    dz[a] = dh[a] * (candidate[a] - h_prev[a]) * z[a] * (1.0f - z[a]);
    d_candidate[a] = dh[a] * z[a] * (1.0f - candidate[a] * candidate[a]);
    d_prev[a] += dh[a] * (1.0f - z[a]);
  }
}

void gru_reset_backward(const float* __restrict r, const float* __restrict h_prev, float* __restrict d_r,
                        float* __restrict d_prev, int n) {
  for (int a = 0; a < n; ++a) {
    d_prev[a] += d_r[a] * r[a];
    d_r[a] = d_r[a] * h_prev[a] * r[a] * (1.0f - r[a]);
  }
}

void maxout(const float* __restrict pre, int n, std::int32_t* __restrict winner, float* __restrict out) {
  for (int a = 0; a < n; ++a) {
    const float first = pre[2 * a], second = pre[2 * a + 1];
    const bool take_second = second > first;
    winner[a] = 2 * a + (take_second ? 1 : 0);
    out[a] = take_second ? second : first;
  }
}

}  // namespace

extern const kernels::StepKernels kStep{tanh_score, tanh_score_backward, gru_update, gru_update_backward,
                                        gru_reset_backward, maxout};

}  // namespace rnnsearch::math::RNNSEARCH_ISA
