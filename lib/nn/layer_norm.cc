#include "nn/layer_norm.h"

#include <cmath>

namespace rnnsearch::nn {

namespace {

constexpr int kLanes = 8;

float combine(const float (&lanes)[kLanes]) {
  float total = 0.0f;
  for (const float lane : lanes) total += lane;
  return total;
}

// sum_k a[k], in kLanes lanes combined in a fixed order.
float lane_sum(const float* __restrict a, Eigen::Index n) {
  float lanes[kLanes] = {};
  Eigen::Index k = 0;
  for (; k + kLanes <= n; k += kLanes) {
    for (int l = 0; l < kLanes; ++l) lanes[l] += a[k + l];
  }
  for (; k < n; ++k) lanes[k % kLanes] += a[k];
  return combine(lanes);
}

// sum_k a[k] b[k], the same way.
float lane_dot(const float* __restrict a, const float* __restrict b, Eigen::Index n) {
  float lanes[kLanes] = {};
  Eigen::Index k = 0;
  for (; k + kLanes <= n; k += kLanes) {
    for (int l = 0; l < kLanes; ++l) lanes[l] += a[k + l] * b[k + l];
  }
  for (; k < n; ++k) lanes[k % kLanes] += a[k] * b[k];
  return combine(lanes);
}

}  // namespace

void layer_norm_rows(const math::ConstMatrixRef& x, math::MatrixRef x_hat, float* inv_std) {
  const Eigen::Index n = x.cols();
  const float scale = 1.0f / static_cast<float>(n);
  for (Eigen::Index r = 0; r < x.rows(); ++r) {
    const float* in = x.row(r).data();
    float* out = x_hat.row(r).data();
    const float mean = lane_sum(in, n) * scale;
    for (Eigen::Index k = 0; k < n; ++k) out[k] = in[k] - mean;
    const float variance = lane_dot(out, out, n) * scale;
    const float inverse = 1.0f / std::sqrt(variance + kLayerNormEpsilon);
    for (Eigen::Index k = 0; k < n; ++k) out[k] *= inverse;
    inv_std[r] = inverse;
  }
}

void layer_norm_rows_backward(const math::ConstMatrixRef& d_x_hat, const math::ConstMatrixRef& x_hat,
                              const float* inv_std, math::MatrixRef d_x) {
  const Eigen::Index n = x_hat.cols();
  const float scale = 1.0f / static_cast<float>(n);
  for (Eigen::Index r = 0; r < x_hat.rows(); ++r) {
    const float* d_in = d_x_hat.row(r).data();
    const float* normalized = x_hat.row(r).data();
    const float mean_d = lane_sum(d_in, n) * scale;
    const float mean_d_x = lane_dot(d_in, normalized, n) * scale;
    float* d_out = d_x.row(r).data();
    for (Eigen::Index k = 0; k < n; ++k) d_out[k] = inv_std[r] * (d_in[k] - mean_d - normalized[k] * mean_d_x);
  }
}

}  // namespace rnnsearch::nn
