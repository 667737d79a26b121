#pragma once
// The elementwise work of the recurrent step that reads a row several times, fused, with
// cpu_isa()'s kernel (math/kernels/step_kernels.cc): each computes what the expression
// beside it says, operation by operation in that order (IEEE float, no fused multiply-add),
// so every level of instruction sets and every CPU gives the same bits as that expression
// written out in plain C++. Rows of n floats that do not overlap, unless said.
#include <cstdint>

namespace rnnsearch::math {

// Additive attention's exact fp32 score of one (query, key) pair: hidden = tanh(q + k)
// (math::tanh_array's tanh), returned: math::lane_dot(hidden, v, n).
float tanh_score(const float* q, const float* k, const float* v, float* hidden, int n);
// Its gradient, hidden computed again as tanh_score does, g = d score:
//   dv += g * h;  d = g * v * (1 - h * h);  dk += d;  dq += d.
void tanh_score_backward(float g, const float* q, const float* k, const float* v, float* dv, float* dk, float* dq,
                         int n);
// The GRU's new state: h = (1 - z) * h_prev + z * candidate.
void gru_update(const float* z, const float* candidate, const float* h_prev, float* h, int n);
// Its gradient: dz = dh * (candidate - h_prev) * z * (1 - z);
// d_candidate = dh * z * (1 - candidate * candidate);  d_prev += dh * (1 - z).
void gru_update_backward(const float* dh, const float* z, const float* candidate, const float* h_prev, float* dz,
                         float* d_candidate, float* d_prev, int n);
// The reset gate's gradient, d_r holding d(r * h_prev) on entry:
//   d_prev += d_r * r;  then d_r = d_r * h_prev * r * (1 - r).
void gru_reset_backward(const float* r, const float* h_prev, float* d_r, float* d_prev, int n);
// Maxout over adjacent pairs of pre [2n]: out[k] = the larger of pre[2k], pre[2k + 1] and
// winner[k] its column; a tie (or a NaN) keeps 2k.
void maxout(const float* pre, int n, std::int32_t* winner, float* out);

}  // namespace rnnsearch::math
