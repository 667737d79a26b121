#include "nn/deep_gru.h"

#include "math/shape_check.h"
#include "util/error.h"

namespace rnnsearch::nn {

DeepGru::DeepGru(ParameterRegistry& parameters, const std::string& name, int input_dim, int hidden_dim, int depth,
                 GruOptions options) {
  if (depth < 1) throw util::Error(name + ": a GRU layer of depth " + std::to_string(depth));
  cells_.push_back(std::make_unique<Gru>(parameters, name, input_dim, hidden_dim, GruOptions{options.layer_norm, false}));
  for (int k = 2; k <= depth; ++k) {
    cells_.push_back(std::make_unique<Gru>(parameters, name + ".transition" + std::to_string(k), 0, hidden_dim,
                                           GruOptions{options.layer_norm, true}));
  }
}

void DeepGru::set_inference_precision(math::Precision precision) {
  for (auto& cell : cells_) cell->set_inference_precision(precision);
}

void DeepGru::transpose_recurrent(TransposedRecurrent& out) const {
  out.cells.resize(cells_.size());
  for (std::size_t k = 0; k < cells_.size(); ++k) cells_[k]->transpose_recurrent(out.cells[k]);
}

void DeepGru::forward(const math::Matrix& x, const math::Matrix& mask, const math::Matrix& h0, SequenceCache& cache,
                      math::Matrix& states, Direction direction, Pass pass) const {
  const Gru& first = *cells_.front();
  if (depth() == 1) return first.forward(x, mask, h0, cache.first, states, direction, pass);
  const Eigen::Index T = mask.rows(), B = mask.cols();
  const int H = hidden_dim(), D = depth();
  first.check_sequence(x, mask, h0);
  first.project_inputs(x, cache.first.projected);
  states.resize(T * B, H);
  const bool keep = pass == Pass::kForwardBackward;
  if (keep) {
    cache.first.x = x;
    cache.first.mask = mask;
    cache.first.direction = direction;
    cache.h_prev_all.resize(static_cast<std::size_t>(D));
    cache.reset_all.resize(static_cast<std::size_t>(D));
    for (int k = 0; k < D; ++k) {
      cache.h_prev_all[static_cast<std::size_t>(k)].resize(T * B, H);
      cache.reset_all[static_cast<std::size_t>(k)].resize(T * B, H);
    }
  }
  const std::size_t caches = static_cast<std::size_t>(keep ? T * D : D);
  if (cache.steps.size() < caches) cache.steps.resize(caches);
  const bool reverse = direction == Direction::kRightToLeft;
  for (Eigen::Index i = 0; i < T; ++i) {
    const Eigen::Index t = reverse ? T - 1 - i : i;
    const Eigen::Index previous = reverse ? t + 1 : t - 1;
    const math::ConstMatrixRef h_prev = i == 0 ? math::ConstMatrixRef(h0) : states.middleRows(previous * B, B);
    cache.between.resize(B, H);
    for (int k = 0; k < D; ++k) {
      Gru::StepCache& step = cache.steps[static_cast<std::size_t>((keep ? t * D : 0) + k)];
      if (k == 0) {
        first.step(cache.first.projected.middleRows(t * B, B), h_prev, cache.between, step);
      } else {
        cells_[static_cast<std::size_t>(k)]->transition_step(cache.between, cache.between, step);
      }
      if (keep) {
        cache.h_prev_all[static_cast<std::size_t>(k)].middleRows(t * B, B) = step.h_prev;
        cache.reset_all[static_cast<std::size_t>(k)].middleRows(t * B, B) = step.reset_state;
      }
    }
    for (Eigen::Index b = 0; b < B; ++b) {
      if (mask(t, b) == 0.0f) {
        states.row(t * B + b) = h_prev.row(b);
      } else {
        states.row(t * B + b) = cache.between.row(b);
      }
    }
  }
}

void DeepGru::backward(const SequenceCache& cache, const math::Matrix& d_states, math::Matrix* dx, math::Matrix* dh0,
                       const TransposedRecurrent* transposed) const {
  if (depth() == 1) {
    return cells_.front()->backward(cache.first, d_states, dx, dh0, transposed ? &transposed->cells.front() : nullptr);
  }
  TransposedRecurrent own;
  if (!transposed) {
    transpose_recurrent(own);
    transposed = &own;
  }
  deep_backward(cache, d_states, dx, dh0, *transposed);
}

void DeepGru::deep_backward(const SequenceCache& cache, const math::Matrix& d_states, math::Matrix* dx,
                            math::Matrix* dh0, const TransposedRecurrent& transposed) const {
  const Eigen::Index T = cache.first.mask.rows(), B = cache.first.mask.cols();
  const int H = hidden_dim(), D = depth();
  math::check_shape(d_states, T * B, H, "deep GRU gradient d_states");
  const Gru::SequenceCache& first = cache.first;
  first.d_projected.resize(T * B, 3 * H);
  cache.d_recurrent_all.resize(static_cast<std::size_t>(D));
  for (auto& d : cache.d_recurrent_all) d.resize(T * B, 3 * H);
  cache.d_between.resize(static_cast<std::size_t>(D));
  cache.d_scratch.resize(B, 3 * H);
  first.dh_carry.setZero(B, H);
  const bool reverse = first.direction == Direction::kRightToLeft;
  for (Eigen::Index i = T - 1; i >= 0; --i) {
    const Eigen::Index t = reverse ? T - 1 - i : i;
    first.dh_carry += d_states.middleRows(t * B, B);
    math::Matrix& top = cache.d_between[static_cast<std::size_t>(D - 1)];
    top.setZero(B, H);
    for (Eigen::Index b = 0; b < B; ++b) {  // real rows go through the cells, padded ones carry
      if (first.mask(t, b) != 0.0f) {
        top.row(b) = first.dh_carry.row(b);
        first.dh_carry.row(b).setZero();
      }
    }
    for (int k = D - 1; k >= 0; --k) {
      const auto cell = static_cast<std::size_t>(k);
      math::MatrixRef d_recurrent(cache.d_recurrent_all[cell].middleRows(t * B, B));
      math::MatrixRef d_projected = k == 0 ? math::MatrixRef(first.d_projected.middleRows(t * B, B))
                                           : math::MatrixRef(cache.d_scratch);
      math::Matrix* dh_prev = k == 0 ? &first.dh_carry : &cache.d_between[cell - 1];
      if (k > 0) dh_prev->setZero(B, H);
      cells_[cell]->step_backward(cache.steps[static_cast<std::size_t>(t * D + k)], cache.d_between[cell], d_projected,
                                  *dh_prev, WeightGradients::kDeferred, &transposed.cells[cell], &d_recurrent);
      if (!cells_[cell]->separate_recurrent_gradients()) d_recurrent = d_projected;
    }
  }
  for (int k = 0; k < D; ++k) {
    const auto cell = static_cast<std::size_t>(k);
    cells_[cell]->recurrent_weights_backward(cache.h_prev_all[cell], cache.reset_all[cell], cache.d_recurrent_all[cell]);
  }
  if (dh0) *dh0 += first.dh_carry;
  cells_.front()->project_inputs_backward(first.x, first.d_projected, dx);
}

}  // namespace rnnsearch::nn
