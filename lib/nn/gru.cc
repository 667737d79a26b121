#include "nn/gru.h"

#include "math/shape_check.h"
#include "math/gemm.h"
#include "util/error.h"

namespace rnnsearch::nn {

using math::check_shape;
using math::shape_text;
using math::Transpose;

Gru::Gru(ParameterRegistry& parameters, const std::string& name, int input_dim, int hidden_dim)
    : input_weight_(parameters.add(name + ".W", input_dim, 3 * hidden_dim)),
      bias_(parameters.add(name + ".b", 1, 3 * hidden_dim)),
      recurrent_zr_(parameters.add(name + ".U_zr", hidden_dim, 2 * hidden_dim)),
      recurrent_h_(parameters.add(name + ".U_h", hidden_dim, hidden_dim)) {}

void Gru::project_inputs(const math::Matrix& x, math::Matrix& projected) const {
  check_shape(x, x.rows(), input_dim(), input_weight_.name + " input x");
  projected.resize(x.rows(), 3 * hidden_dim());
  math::gemm(x, Transpose::kNo, input_weight_.value, Transpose::kNo, projected, 1.0f, 0.0f,
             input_weight_.name.c_str());
  projected.rowwise() += bias_.value.row(0);
}

void Gru::project_inputs_backward(const math::Matrix& x, const math::Matrix& d_projected, math::Matrix* dx) const {
  check_shape(x, x.rows(), input_dim(), input_weight_.name + " input x");
  check_shape(d_projected, x.rows(), 3 * hidden_dim(), input_weight_.name + " gradient d_projected");
  math::gemm(x, Transpose::kYes, d_projected, Transpose::kNo, input_weight_.gradient, 1.0f, 1.0f,
             input_weight_.name.c_str());
  bias_.gradient.row(0) += d_projected.colwise().sum();
  if (dx) {
    check_shape(*dx, x.rows(), input_dim(), input_weight_.name + " gradient dx");
    math::gemm(d_projected, Transpose::kNo, input_weight_.value, Transpose::kYes, *dx, 1.0f, 1.0f,
               input_weight_.name.c_str());
  }
}

void Gru::step_rows(const float* projected, const float* h_prev, float* h, int batch, StepCache& cache) const {
  const int H = hidden_dim();
  // Copy h_prev first so that h may alias it.
  cache.h_prev = math::ConstMatrixMap(h_prev, batch, H);  // [B x H]
  cache.gates = math::ConstMatrixMap(projected, batch, 3 * H);  // [B x 3H]
  // [z | r] pre-activations += h_prev U_zr
  math::gemm_raw(Transpose::kNo, Transpose::kNo, batch, 2 * H, H, 1.0f, cache.h_prev.data(), H,
                 recurrent_zr_.value.data(), 2 * H, 1.0f, cache.gates.data(), 3 * H);
  auto zr = cache.gates.leftCols(2 * H).array();  // [B x 2H]
  zr = (1.0f + (-zr).exp()).inverse();
  cache.reset_state = cache.gates.middleCols(H, H).cwiseProduct(cache.h_prev);  // [B x H]
  // h~ pre-activation += (r . h_prev) U_h
  math::gemm_raw(Transpose::kNo, Transpose::kNo, batch, H, H, 1.0f, cache.reset_state.data(), H,
                 recurrent_h_.value.data(), H, 1.0f, cache.gates.data() + 2 * H, 3 * H);
  auto candidate = cache.gates.rightCols(H).array();  // [B x H]
  candidate = candidate.tanh();
  // h = (1 - z) . h_prev + z . h~
  const auto z = cache.gates.leftCols(H).array();
  math::MatrixMap(h, batch, H).array() = (1.0f - z) * cache.h_prev.array() + z * candidate;
}

void Gru::step_backward_rows(const StepCache& cache, const float* dh_data, float* d_gates_data,
                             float* dh_prev_data, int batch, WeightGradients weights) const {
  const int H = hidden_dim();
  const auto dh = math::ConstMatrixMap(dh_data, batch, H).array();  // [B x H]
  math::MatrixMap d_gates(d_gates_data, batch, 3 * H);              // [B x 3H]
  math::MatrixMap dh_prev(dh_prev_data, batch, H);                  // [B x H]
  const auto z = cache.gates.leftCols(H).array();
  const auto r = cache.gates.middleCols(H, H).array();
  const auto candidate = cache.gates.rightCols(H).array();
  const auto h_prev = cache.h_prev.array();

  d_gates.leftCols(H).array() = dh * (candidate - h_prev) * z * (1.0f - z);
  d_gates.rightCols(H).array() = dh * z * (1.0f - candidate.square());
  dh_prev.array() += dh * (1.0f - z);
  if (weights == WeightGradients::kNow) {  // dU_h += (r . h_prev)^T d_candidate
    math::gemm_raw(Transpose::kYes, Transpose::kNo, H, H, batch, 1.0f, cache.reset_state.data(), H,
                   d_gates_data + 2 * H, 3 * H, 1.0f, recurrent_h_.gradient.data(), H);
  }
  // d(r . h_prev) = d_candidate U_h^T, staged in the r columns of d_gates.
  math::gemm_raw(Transpose::kNo, Transpose::kYes, batch, H, H, 1.0f, d_gates_data + 2 * H, 3 * H,
                 recurrent_h_.value.data(), H, 0.0f, d_gates_data + H, 3 * H);
  auto d_r = d_gates.middleCols(H, H).array();
  dh_prev.array() += d_r * r;
  d_r = d_r * h_prev * r * (1.0f - r);
  // dU_zr += h_prev^T [dz | dr];  dh_prev += [dz | dr] U_zr^T
  if (weights == WeightGradients::kNow) {
    math::gemm_raw(Transpose::kYes, Transpose::kNo, H, 2 * H, batch, 1.0f, cache.h_prev.data(), H, d_gates_data,
                   3 * H, 1.0f, recurrent_zr_.gradient.data(), 2 * H);
  }
  math::gemm_raw(Transpose::kNo, Transpose::kYes, batch, H, 2 * H, 1.0f, d_gates_data, 3 * H,
                 recurrent_zr_.value.data(), 2 * H, 1.0f, dh_prev_data, H);
}

void Gru::recurrent_weights_backward(const float* h_prev, const float* reset_state, const float* d_gates,
                                     int rows) const {
  const int H = hidden_dim();
  math::gemm_raw(Transpose::kYes, Transpose::kNo, H, 2 * H, rows, 1.0f, h_prev, H, d_gates, 3 * H, 1.0f,
                 recurrent_zr_.gradient.data(), 2 * H);
  math::gemm_raw(Transpose::kYes, Transpose::kNo, H, H, rows, 1.0f, reset_state, H, d_gates + 2 * H, 3 * H, 1.0f,
                 recurrent_h_.gradient.data(), H);
}

void Gru::step(const math::Matrix& projected, const math::Matrix& h_prev, math::Matrix& h, StepCache& cache) const {
  const Eigen::Index batch = h_prev.rows();
  check_shape(h_prev, batch, hidden_dim(), recurrent_h_.name + " state h_prev");
  check_shape(projected, batch, 3 * hidden_dim(), input_weight_.name + " step input projected");
  h.resize(batch, hidden_dim());  // no-op (and no reallocation) when h is h_prev
  step_rows(projected.data(), h_prev.data(), h.data(), static_cast<int>(batch), cache);
}

void Gru::step_backward(const StepCache& cache, const math::Matrix& dh, math::Matrix& d_projected,
                        math::Matrix& dh_prev) const {
  const Eigen::Index batch = cache.h_prev.rows();
  check_shape(dh, batch, hidden_dim(), recurrent_h_.name + " gradient dh");
  check_shape(d_projected, batch, 3 * hidden_dim(), input_weight_.name + " gradient d_projected");
  check_shape(dh_prev, batch, hidden_dim(), recurrent_h_.name + " gradient dh_prev");
  cache.d_gates.resize(batch, 3 * hidden_dim());
  step_backward_rows(cache, dh.data(), cache.d_gates.data(), dh_prev.data(), static_cast<int>(batch));
  d_projected += cache.d_gates;
}

void Gru::forward(const math::Matrix& x, const math::Matrix& mask, const math::Matrix& h0, SequenceCache& cache,
                  math::Matrix& states, Direction direction) const {
  const Eigen::Index T = mask.rows(), B = mask.cols();
  const int H = hidden_dim();
  check_shape(x, T * B, input_dim(), input_weight_.name + " input x (mask is " + shape_text(T, B) + ")");
  check_shape(h0, B, H, recurrent_h_.name + " initial state h0");
  for (Eigen::Index i = 0; i < mask.size(); ++i) {
    const float m = mask.data()[i];
    if (m != 0.0f && m != 1.0f) {
      throw util::Error(input_weight_.name + " mask[" + std::to_string(i / B) + "," + std::to_string(i % B) +
                        "] is " + std::to_string(m) + ", expected 0 or 1");
    }
  }
  cache.direction = direction;
  cache.x = x;
  cache.mask = mask;
  project_inputs(x, cache.projected);
  if (static_cast<Eigen::Index>(cache.steps.size()) < T) cache.steps.resize(T);
  states.resize(T * B, H);
  cache.h_prev_all.resize(T * B, H);
  cache.reset_all.resize(T * B, H);

  const bool reverse = direction == Direction::kRightToLeft;
  for (Eigen::Index i = 0; i < T; ++i) {
    const Eigen::Index t = reverse ? T - 1 - i : i;
    const Eigen::Index previous = reverse ? t + 1 : t - 1;
    const float* h_prev = i == 0 ? h0.data() : states.data() + previous * B * H;
    float* h = states.data() + t * B * H;
    StepCache& step_cache = cache.steps[t];
    step_rows(cache.projected.data() + t * B * 3 * H, h_prev, h, static_cast<int>(B), step_cache);
    cache.h_prev_all.middleRows(t * B, B) = step_cache.h_prev;
    cache.reset_all.middleRows(t * B, B) = step_cache.reset_state;
    for (Eigen::Index b = 0; b < B; ++b) {
      if (mask(t, b) == 0.0f) states.row(t * B + b) = step_cache.h_prev.row(b);
    }
  }
}

void Gru::backward(const SequenceCache& cache, const math::Matrix& d_states, math::Matrix* dx,
                   math::Matrix* dh0) const {
  const Eigen::Index T = cache.mask.rows(), B = cache.mask.cols();
  const int H = hidden_dim();
  check_shape(d_states, T * B, H, recurrent_h_.name + " gradient d_states");
  if (dx) check_shape(*dx, T * B, input_dim(), input_weight_.name + " gradient dx");
  if (dh0) check_shape(*dh0, B, H, recurrent_h_.name + " gradient dh0");

  cache.d_projected.resize(T * B, 3 * H);
  cache.dh_step.resize(B, H);
  cache.dh_carry.setZero(B, H);  // gradient of the state the next-processed step started from
  const bool reverse = cache.direction == Direction::kRightToLeft;
  for (Eigen::Index i = T - 1; i >= 0; --i) {
    const Eigen::Index t = reverse ? T - 1 - i : i;
    cache.dh_carry += d_states.middleRows(t * B, B);  // total gradient of h_t
    // Real rows send it through the step; padded rows carry it to h_{t-1} unchanged.
    for (Eigen::Index b = 0; b < B; ++b) {
      if (cache.mask(t, b) != 0.0f) {
        cache.dh_step.row(b) = cache.dh_carry.row(b);
        cache.dh_carry.row(b).setZero();
      } else {
        cache.dh_step.row(b).setZero();
      }
    }
    step_backward_rows(cache.steps[t], cache.dh_step.data(), cache.d_projected.data() + t * B * 3 * H,
                       cache.dh_carry.data(), static_cast<int>(B), WeightGradients::kDeferred);
  }
  recurrent_weights_backward(cache.h_prev_all.data(), cache.reset_all.data(), cache.d_projected.data(),
                             static_cast<int>(T * B));
  if (dh0) *dh0 += cache.dh_carry;
  project_inputs_backward(cache.x, cache.d_projected, dx);
}

}  // namespace rnnsearch::nn
