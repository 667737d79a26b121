#include "nn/gru.h"

#include "math/elementwise.h"
#include "math/step_ops.h"
#include "math/vector_ops.h"
#include "nn/layer_norm.h"
#include "math/shape_check.h"
#include "math/gemm.h"
#include "math/transpose.h"
#include "util/error.h"

namespace rnnsearch::nn {

using math::check_shape;
using math::shape_text;
using math::Transpose;

namespace {

Parameter* input_weight_of(ParameterRegistry& parameters, const std::string& name, int input_dim, int hidden_dim,
                           const GruOptions& options) {
  if (options.transition != (input_dim == 0)) {
    throw util::Error(name + ": a transition cell has no input, any other cell one: input size " +
                      std::to_string(input_dim));
  }
  return options.transition ? nullptr : &parameters.add(name + ".W", input_dim, 3 * hidden_dim);
}

}  // namespace

Gru::Gru(ParameterRegistry& parameters, const std::string& name, int input_dim, int hidden_dim, GruOptions options)
    : name_(name),
      options_(options),
      input_weight_(input_weight_of(parameters, name, input_dim, hidden_dim, options)),
      bias_(parameters.add(name + ".b", 1, 3 * hidden_dim)),
      recurrent_zr_(parameters.add(name + ".U_zr", hidden_dim, 2 * hidden_dim)),
      recurrent_h_(parameters.add(name + ".U_h", hidden_dim, hidden_dim)) {
  if (options.layer_norm) {
    if (!options.transition) input_gain_ = &parameters.add(name + ".gain_in", 1, 3 * hidden_dim);
    zr_gain_ = &parameters.add(name + ".gain_zr", 1, 2 * hidden_dim);
    h_gain_ = &parameters.add(name + ".gain_h", 1, hidden_dim);
  }
}

const Parameter& Gru::input_weight() const {
  if (!input_weight_) throw util::Error(name_ + ": a transition cell has no input weights");
  return *input_weight_;
}

void Gru::add_input_bias(math::MatrixRef projected) const {
  if (!options_.layer_norm) math::add_row_to_rows(projected, bias_.value);
}

void Gru::input_bias_backward(const math::ConstMatrixRef& d_projected) const {
  if (!options_.layer_norm) bias_.gradient.row(0) += d_projected.colwise().sum();
}

void Gru::project_inputs(const math::Matrix& x, math::Matrix& projected) const {
  const Parameter& weight = input_weight();
  check_shape(x, x.rows(), input_dim(), weight.name + " input x");
  projected.resize(x.rows(), 3 * hidden_dim());
  math::gemm(x, packed_input_.get(), weight.value, Transpose::kNo, projected, 1.0f, 0.0f, weight.name.c_str());
  add_input_bias(projected);
}

void Gru::set_inference_precision(math::Precision precision, int head_inputs) {
  if (head_inputs < 0 || head_inputs > input_dim() || (head_inputs > 0 && precision == math::Precision::kFp32)) {
    throw util::Error(name_ + ": " + std::to_string(head_inputs) + " head inputs in " +
                      math::precision_name(precision) + " of " + std::to_string(input_dim()));
  }
  head_inputs_ = head_inputs;
  if (input_weight_) {
    const auto tail = input_weight_->value.bottomRows(input_dim() - head_inputs);
    packed_input_tail_ = head_inputs > 0 ? math::pack_for_inference(tail, precision) : nullptr;
    packed_input_ = math::pack_for_inference(input_weight_->value, precision);
  }
  packed_zr_ = math::pack_for_inference(recurrent_zr_.value, precision);
  packed_h_ = math::pack_for_inference(recurrent_h_.value, precision);
}

void Gru::project_inputs_tail(const math::Matrix& x_tail, const math::Matrix& head_product,
                              math::Matrix& projected) const {
  if (!packed_input_tail_) throw util::Error(name_ + ": project_inputs_tail without head inputs");
  check_shape(x_tail, x_tail.rows(), input_dim() - head_inputs_, name_ + " input x_tail");
  check_shape(head_product, x_tail.rows(), 3 * hidden_dim(), name_ + " head product");
  projected = head_product;
  math::gemm(x_tail, *packed_input_tail_, projected, 1.0f, 1.0f, name_.c_str());
  add_input_bias(projected);
}

void Gru::project_inputs_backward(const math::Matrix& x, const math::Matrix& d_projected, math::Matrix* dx) const {
  if (!input_weight_) throw util::Error(name_ + ": a transition cell has no input weights");
  Parameter& weight = *input_weight_;
  check_shape(x, x.rows(), input_dim(), weight.name + " input x");
  check_shape(d_projected, x.rows(), 3 * hidden_dim(), weight.name + " gradient d_projected");
  math::gemm(x, Transpose::kYes, d_projected, Transpose::kNo, weight.gradient, 1.0f, 1.0f, weight.name.c_str());
  input_bias_backward(d_projected);
  if (dx) {
    check_shape(*dx, x.rows(), input_dim(), weight.name + " gradient dx");
    math::gemm(d_projected, Transpose::kNo, weight.value, Transpose::kYes, *dx, 1.0f, 1.0f, weight.name.c_str());
  }
}

namespace {

// check_shape that builds its message only for a wrong shape (step runs once per time step).
template <typename M, typename Describe>
void check_step_shape(const M& m, Eigen::Index rows, Eigen::Index cols, const Describe& describe) {
  if (m.rows() != rows || m.cols() != cols) check_shape(m, rows, cols, describe());
}

// gates.block += hat g, hat = LN(product) (product overwritten by hat).
void add_normalized(math::MatrixRef gates_block, math::Matrix& product, std::vector<float>& inv_std,
                    const Parameter& gain) {
  inv_std.resize(static_cast<std::size_t>(product.rows()));
  layer_norm_rows(product, product, inv_std.data());
  gates_block.array() += product.array().rowwise() * gain.value.row(0).array();
}

}  // namespace

void Gru::step(const math::ConstMatrixRef& projected, const math::ConstMatrixRef& h_prev, math::MatrixRef h,
               StepCache& cache) const {
  const Eigen::Index batch = h_prev.rows();
  const int H = hidden_dim();
  check_step_shape(h_prev, batch, H, [&] { return recurrent_h_.name + " state h_prev"; });
  check_step_shape(projected, batch, 3 * H, [&] { return name_ + ".W step input projected"; });
  check_step_shape(h, batch, H, [&] { return recurrent_h_.name + " state h"; });
  // Copy h_prev first so that h may alias it.
  cache.h_prev = h_prev;  // [B x H]
  if (options_.layer_norm) {
    cache.input_hat = projected;
    cache.gates = bias_.value.replicate(batch, 1);
    add_normalized(cache.gates, cache.input_hat, cache.input_inv_std, *input_gain_);
  } else {
    cache.gates = projected;  // [B x 3H]
  }
  recurrent_step(h, cache);
}

void Gru::transition_step(const math::ConstMatrixRef& h_prev, math::MatrixRef h, StepCache& cache) const {
  const int H = hidden_dim();
  check_step_shape(h_prev, h_prev.rows(), H, [&] { return recurrent_h_.name + " state h_prev"; });
  check_step_shape(h, h_prev.rows(), H, [&] { return recurrent_h_.name + " state h"; });
  cache.h_prev = h_prev;
  cache.gates = bias_.value.replicate(h_prev.rows(), 1);
  recurrent_step(h, cache);
}

void Gru::recurrent_step(math::MatrixRef h, StepCache& cache) const {
  const Eigen::Index batch = cache.h_prev.rows();
  const int H = hidden_dim();
  // [z | r] pre-activations += h_prev U_zr (normalized: += LN(h_prev U_zr) g_zr)
  if (options_.layer_norm) {
    cache.zr_hat.resize(batch, 2 * H);
    math::gemm(cache.h_prev, packed_zr_.get(), recurrent_zr_.value, Transpose::kNo, cache.zr_hat, 1.0f, 0.0f,
               recurrent_zr_.name.c_str());
    add_normalized(cache.gates.leftCols(2 * H), cache.zr_hat, cache.zr_inv_std, *zr_gain_);
  } else {
    math::gemm(cache.h_prev, packed_zr_.get(), recurrent_zr_.value, Transpose::kNo, cache.gates.leftCols(2 * H),
               1.0f, 1.0f, recurrent_zr_.name.c_str());
  }
  for (Eigen::Index b = 0; b < batch; ++b) {  // [z | r] = logistic(...): [B x 2H]
    float* row = cache.gates.row(b).data();
    math::logistic_array(row, row, 2 * H);
  }
  cache.reset_state.resize(batch, H);  // r . h_prev: [B x H]
  for (Eigen::Index b = 0; b < batch; ++b) {
    math::multiply(cache.gates.row(b).data() + H, cache.h_prev.row(b).data(), cache.reset_state.row(b).data(), H);
  }
  // h~ pre-activation += (r . h_prev) U_h (normalized likewise)
  if (options_.layer_norm) {
    cache.h_hat.resize(batch, H);
    math::gemm(cache.reset_state, packed_h_.get(), recurrent_h_.value, Transpose::kNo, cache.h_hat, 1.0f, 0.0f,
               recurrent_h_.name.c_str());
    add_normalized(cache.gates.rightCols(H), cache.h_hat, cache.h_inv_std, *h_gain_);
  } else {
    math::gemm(cache.reset_state, packed_h_.get(), recurrent_h_.value, Transpose::kNo, cache.gates.rightCols(H), 1.0f,
               1.0f, recurrent_h_.name.c_str());
  }
  for (Eigen::Index b = 0; b < batch; ++b) {  // h~ = tanh(...): [B x H]
    float* row = cache.gates.row(b).data() + 2 * H;
    math::tanh_array(row, row, H);
  }
  for (Eigen::Index b = 0; b < batch; ++b) {  // h = (1 - z) . h_prev + z . h~
    const float* gates = cache.gates.row(b).data();
    math::gru_update(gates, gates + 2 * H, cache.h_prev.row(b).data(), h.row(b).data(), H);
  }
}

void Gru::normalized_backward(const math::ConstMatrixRef& d_pre, const math::Matrix& hat,
                              const std::vector<float>& inv_std, Parameter& gain, math::Matrix& d_scaled,
                              math::MatrixRef d_raw) const {
  const Eigen::Index n = hat.cols();
  float* d_gain = gain.gradient.data();
  d_scaled.resize(hat.rows(), n);
  for (Eigen::Index r = 0; r < hat.rows(); ++r) {  // row by row: the rows are contiguous
    const float* d = d_pre.row(r).data();
    const float* h = hat.row(r).data();
    const float* g = gain.value.data();
    float* scaled = d_scaled.row(r).data();
    for (Eigen::Index k = 0; k < n; ++k) {
      d_gain[k] += d[k] * h[k];
      scaled[k] = d[k] * g[k];
    }
  }
  layer_norm_rows_backward(d_scaled, hat, inv_std.data(), d_raw);
}

void Gru::input_side_backward(const StepCache& cache, math::MatrixRef d_projected) const {
  float* d_bias = bias_.gradient.data();
  for (Eigen::Index r = 0; r < d_projected.rows(); ++r) {
    const float* d = d_projected.row(r).data();
    for (Eigen::Index k = 0; k < d_projected.cols(); ++k) d_bias[k] += d[k];
  }
  if (input_gain_) {
    normalized_backward(d_projected, cache.input_hat, cache.input_inv_std, *input_gain_, cache.d_scaled, d_projected);
  }
}

void Gru::step_backward(const StepCache& cache, const math::ConstMatrixRef& dh, math::MatrixRef d_projected,
                        math::MatrixRef dh_prev, WeightGradients weights, const TransposedRecurrent* transposed,
                        math::MatrixRef* d_recurrent) const {
  const Eigen::Index batch = cache.h_prev.rows();
  const int H = hidden_dim();
  const bool normalized = options_.layer_norm;
  check_step_shape(dh, batch, H, [&] { return recurrent_h_.name + " gradient dh"; });
  check_step_shape(d_projected, batch, 3 * H, [&] { return name_ + ".W gradient d_projected"; });
  check_step_shape(dh_prev, batch, H, [&] { return recurrent_h_.name + " gradient dh_prev"; });
  // Row by row, each row's gates read once: d_z and d_candidate, then (after the product
  // by U_h^T) d_r, with dh_prev's two terms added as they come.
  for (Eigen::Index b = 0; b < batch; ++b) {
    const float* gates = cache.gates.row(b).data();
    math::gru_update_backward(dh.row(b).data(), gates, gates + 2 * H, cache.h_prev.row(b).data(),
                              d_projected.row(b).data(), d_projected.row(b).data() + 2 * H, dh_prev.row(b).data(), H);
  }
  // The gradient of the recurrent products: the pre-activations' own, or under layer
  // normalisation that of the raw products, in d_recurrent.
  if (normalized && !d_recurrent) cache.d_recurrent.resize(batch, 3 * H);
  math::MatrixRef recurrent = !normalized ? d_projected : d_recurrent ? *d_recurrent : math::MatrixRef(cache.d_recurrent);
  if (normalized) {
    normalized_backward(d_projected.rightCols(H), cache.h_hat, cache.h_inv_std, *h_gain_, cache.d_scaled,
                        recurrent.rightCols(H));
  }
  if (weights == WeightGradients::kNow) {  // dU_h += (r . h_prev)^T d_candidate
    math::gemm(cache.reset_state, Transpose::kYes, recurrent.rightCols(H), Transpose::kNo, recurrent_h_.gradient,
               1.0f, 1.0f, recurrent_h_.name.c_str());
  }
  // d(r . h_prev) = d_candidate U_h^T, staged in the r columns of d_projected.
  if (transposed) {
    math::gemm(recurrent.rightCols(H), Transpose::kNo, transposed->h, Transpose::kNo, d_projected.middleCols(H, H),
               1.0f, 0.0f, recurrent_h_.name.c_str());
  } else {
    math::gemm(recurrent.rightCols(H), Transpose::kNo, recurrent_h_.value, Transpose::kYes,
               d_projected.middleCols(H, H), 1.0f, 0.0f, recurrent_h_.name.c_str());
  }
  for (Eigen::Index b = 0; b < batch; ++b) {
    math::gru_reset_backward(cache.gates.row(b).data() + H, cache.h_prev.row(b).data(), d_projected.row(b).data() + H,
                             dh_prev.row(b).data(), H);
  }
  if (normalized) {
    normalized_backward(d_projected.leftCols(2 * H), cache.zr_hat, cache.zr_inv_std, *zr_gain_, cache.d_scaled,
                        recurrent.leftCols(2 * H));
  }
  // dU_zr += h_prev^T [dz | dr];  dh_prev += [dz | dr] U_zr^T
  if (weights == WeightGradients::kNow) {
    math::gemm(cache.h_prev, Transpose::kYes, recurrent.leftCols(2 * H), Transpose::kNo, recurrent_zr_.gradient,
               1.0f, 1.0f, recurrent_zr_.name.c_str());
  }
  if (transposed) {
    math::gemm(recurrent.leftCols(2 * H), Transpose::kNo, transposed->zr, Transpose::kNo, dh_prev, 1.0f, 1.0f,
               recurrent_zr_.name.c_str());
  } else {
    math::gemm(recurrent.leftCols(2 * H), Transpose::kNo, recurrent_zr_.value, Transpose::kYes, dh_prev, 1.0f, 1.0f,
               recurrent_zr_.name.c_str());
  }
  if (normalized || options_.transition) input_side_backward(cache, d_projected);
}

void Gru::transpose_recurrent(TransposedRecurrent& out) const {
  math::transpose(recurrent_zr_.value, out.zr);
  math::transpose(recurrent_h_.value, out.h);
}

void Gru::recurrent_weights_backward(const math::ConstMatrixRef& h_prev, const math::ConstMatrixRef& reset_state,
                                     const math::ConstMatrixRef& d_projected) const {
  const int H = hidden_dim();
  math::gemm(h_prev, Transpose::kYes, d_projected.leftCols(2 * H), Transpose::kNo, recurrent_zr_.gradient, 1.0f, 1.0f,
             recurrent_zr_.name.c_str());
  math::gemm(reset_state, Transpose::kYes, d_projected.rightCols(H), Transpose::kNo, recurrent_h_.gradient, 1.0f, 1.0f,
             recurrent_h_.name.c_str());
}

void Gru::check_sequence(const math::Matrix& x, const math::Matrix& mask, const math::Matrix& h0) const {
  const Eigen::Index T = mask.rows(), B = mask.cols();
  check_shape(x, T * B, input_dim(), name_ + ".W input x (mask is " + shape_text(T, B) + ")");
  check_shape(h0, B, hidden_dim(), recurrent_h_.name + " initial state h0");
  for (Eigen::Index i = 0; i < mask.size(); ++i) {
    const float m = mask.data()[i];
    if (m != 0.0f && m != 1.0f) {
      throw util::Error(name_ + ".W mask[" + std::to_string(i / B) + "," + std::to_string(i % B) +
                        "] is " + std::to_string(m) + ", expected 0 or 1");
    }
  }
}

void Gru::forward(const math::Matrix& x, const math::Matrix& mask, const math::Matrix& h0, SequenceCache& cache,
                  math::Matrix& states, Direction direction, Pass pass) const {
  check_sequence(x, mask, h0);
  const Eigen::Index T = mask.rows(), B = mask.cols();
  const int H = hidden_dim();
  const bool keep = pass == Pass::kForwardBackward;
  cache.direction = direction;
  if (keep) {
    cache.x = x;
    cache.mask = mask;
    cache.h_prev_all.resize(T * B, H);
    cache.reset_all.resize(T * B, H);
  }
  project_inputs(x, cache.projected);
  const Eigen::Index step_caches = keep ? T : 1;
  if (static_cast<Eigen::Index>(cache.steps.size()) < step_caches) cache.steps.resize(step_caches);
  states.resize(T * B, H);

  const bool reverse = direction == Direction::kRightToLeft;
  for (Eigen::Index i = 0; i < T; ++i) {
    const Eigen::Index t = reverse ? T - 1 - i : i;
    const Eigen::Index previous = reverse ? t + 1 : t - 1;
    const math::ConstMatrixRef h_prev = i == 0 ? math::ConstMatrixRef(h0) : states.middleRows(previous * B, B);
    StepCache& step_cache = cache.steps[keep ? t : 0];
    step(cache.projected.middleRows(t * B, B), h_prev, states.middleRows(t * B, B), step_cache);
    if (keep) {
      cache.h_prev_all.middleRows(t * B, B) = step_cache.h_prev;
      cache.reset_all.middleRows(t * B, B) = step_cache.reset_state;
    }
    for (Eigen::Index b = 0; b < B; ++b) {
      if (mask(t, b) == 0.0f) states.row(t * B + b) = step_cache.h_prev.row(b);
    }
  }
}

void Gru::backward(const SequenceCache& cache, const math::Matrix& d_states, math::Matrix* dx, math::Matrix* dh0,
                   const TransposedRecurrent* transposed) const {
  const Eigen::Index T = cache.mask.rows(), B = cache.mask.cols();
  const int H = hidden_dim();
  check_shape(d_states, T * B, H, recurrent_h_.name + " gradient d_states");
  if (dx) check_shape(*dx, T * B, input_dim(), name_ + ".W gradient dx");
  if (dh0) check_shape(*dh0, B, H, recurrent_h_.name + " gradient dh0");

  cache.d_projected.resize(T * B, 3 * H);
  if (separate_recurrent_gradients()) cache.d_recurrent.resize(T * B, 3 * H);
  cache.dh_step.resize(B, H);
  cache.dh_carry.setZero(B, H);  // gradient of the state the next-processed step started from
  if (!transposed) {
    transpose_recurrent(cache.transposed);
    transposed = &cache.transposed;
  }
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
    math::MatrixRef d_recurrent = separate_recurrent_gradients() ? math::MatrixRef(cache.d_recurrent.middleRows(t * B, B))
                                                                 : math::MatrixRef(cache.d_projected.middleRows(t * B, B));
    step_backward(cache.steps[t], cache.dh_step, cache.d_projected.middleRows(t * B, B), cache.dh_carry,
                  WeightGradients::kDeferred, transposed, &d_recurrent);
  }
  recurrent_weights_backward(cache.h_prev_all, cache.reset_all,
                             separate_recurrent_gradients() ? cache.d_recurrent : cache.d_projected);
  if (dh0) *dh0 += cache.dh_carry;
  project_inputs_backward(cache.x, cache.d_projected, dx);
}

}  // namespace rnnsearch::nn
