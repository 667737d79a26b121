// The conditional GRU decoder of RnnSearch (config.decoder_depth > 1; rnnsearch.h has the
// equations): its teacher-forced recurrence, the backward pass through it, its cells'
// weight gradients (one product per cell over all steps), and its inference step.
#include "math/gemm.h"
#include "model/rnnsearch.h"
#include "model/rnnsearch_workspace.h"
#include "util/error.h"

namespace rnnsearch::model {

using math::Transpose;

namespace {

// The cache of step i's cell k: one per step and cell to keep for backward, else one per cell.
nn::Gru::StepCache& upper_cache(std::vector<nn::Gru::StepCache>& caches, int i, std::size_t k, std::size_t cells,
                                nn::Pass pass) {
  const std::size_t steps = pass == nn::Pass::kForwardBackward ? static_cast<std::size_t>(i) + 1 : 1;
  if (caches.size() < steps * cells) caches.resize(steps * cells);
  return caches[(pass == nn::Pass::kForwardBackward ? static_cast<std::size_t>(i) * cells : 0) + k];
}

}  // namespace

std::vector<const nn::Gru*> RnnSearch::upper_decoder_cells() const {
  std::vector<const nn::Gru*> cells;
  if (context_gru_) cells.push_back(context_gru_.get());
  for (const auto& cell : decoder_transitions_) cells.push_back(cell.get());
  return cells;
}

// s'_i = GRU_1(s_{i-1}, E_y y_{i-1}) (its input projection w.projected made for all steps
// at once), c_i from s'_i, s_i from GRU_2 and the transition cells.
void RnnSearch::conditional_forward(const data::Batch& batch, nn::Pass pass) {
  Workspace& w = *work_;
  const BatchDims& d = w.dims;
  const bool keep = pass == nn::Pass::kForwardBackward;
  const auto cells = upper_decoder_cells();
  const nn::Parameter& context_weight = parameters_.get("decoder.gru2.W");  // [2n x 3m]
  w.states.resize(d.TB, d.m);
  w.queries.resize(d.TB, d.m);
  w.next_states.resize(d.TB, d.m);
  w.contexts.resize(d.TB, d.D);
  w.context_projected.resize(d.TB, d.G);
  if (keep) w.reset_states.resize(d.TB, d.m);
  w.states.topRows(d.B) = w.initial_state;
  if (static_cast<int>(w.weights.size()) < d.T) w.weights.resize(static_cast<std::size_t>(d.T));
  for (int i = 0; i < d.T; ++i) {
    const Eigen::Index rows = static_cast<Eigen::Index>(i) * d.B;  // block i
    nn::Gru::StepCache& gru_cache = step_cache(w.gru_steps, i, pass);
    decoder_.step(w.projected.middleRows(rows, d.B), w.states.middleRows(rows, d.B), w.queries.middleRows(rows, d.B),
                  gru_cache);
    if (keep) w.reset_states.middleRows(rows, d.B) = gru_cache.reset_state;
    w.query = w.queries.middleRows(rows, d.B);
    attention_->step(w.query, w.annotations, w.keys, batch.source_mask, step_cache(w.attention_steps, i, pass),
                     w.context, w.weights[static_cast<std::size_t>(i)]);
    w.contexts.middleRows(rows, d.B) = w.context;
    auto projected = w.context_projected.middleRows(rows, d.B);
    math::gemm(w.context, Transpose::kNo, context_weight.value, Transpose::kNo, projected, 1.0f, 0.0f,
               context_weight.name.c_str());
    context_gru_->add_input_bias(projected);
    auto state = w.next_states.middleRows(rows, d.B);
    context_gru_->step(projected, w.queries.middleRows(rows, d.B), state, upper_cache(w.upper_steps, i, 0, cells.size(), pass));
    for (std::size_t k = 1; k < cells.size(); ++k) {
      cells[k]->transition_step(state, state, upper_cache(w.upper_steps, i, k, cells.size(), pass));
    }
    if (i + 1 < d.T) w.states.middleRows(rows + d.B, d.B) = state;
  }
}

// From w.d_upper (the gradient of s_i) down through the transition cells and GRU_2: the
// gradient of GRU_2's input projection into block i of w.d_context_projected, that of s'_i
// added into w.d_query_step, and each cell's recurrent-product gradient kept for later.
void RnnSearch::conditional_cells_step_backward(int i, const TransposedWeights& transposed) {
  Workspace& w = *work_;
  const BatchDims& d = w.dims;
  const auto cells = upper_decoder_cells();
  const Eigen::Index rows = static_cast<Eigen::Index>(i) * d.B;
  for (std::size_t k = cells.size(); k-- > 0;) {
    const nn::Gru& cell = *cells[k];
    math::MatrixRef d_recurrent(w.d_upper_recurrent[k].middleRows(rows, d.B));
    math::MatrixRef d_projected = k == 0 ? math::MatrixRef(w.d_context_projected.middleRows(rows, d.B))
                                         : math::MatrixRef(w.d_cell_projected);
    if (k > 0) w.d_lower.setZero(d.B, d.m);
    math::MatrixRef d_previous = k == 0 ? math::MatrixRef(w.d_query_step) : math::MatrixRef(w.d_lower);
    cell.step_backward(w.upper_steps[static_cast<std::size_t>(i) * cells.size() + k], w.d_upper, d_projected,
                       d_previous, nn::WeightGradients::kDeferred, &transposed.decoder_cells[k], &d_recurrent);
    if (!cell.separate_recurrent_gradients()) d_recurrent = d_projected;
    if (k > 0) std::swap(w.d_upper, w.d_lower);
  }
}

// Last step first: s_i's gradient (from the readout and from GRU_1 of step i + 1) through
// the upper cells, c_i's through the attention, s'_i's through GRU_1 into s_{i-1}'s.
void RnnSearch::conditional_backward(const data::Batch& batch, const LossOptions& options, float gradient_scale,
                                     const TransposedWeights& transposed) {
  Workspace& w = *work_;
  const BatchDims& d = w.dims;
  const auto cells = upper_decoder_cells();
  w.d_projected.resize(d.TB, d.G);
  if (decoder_.separate_recurrent_gradients()) w.d_recurrent.resize(d.TB, d.G);
  w.d_context_projected.resize(d.TB, d.G);
  w.d_upper_recurrent.resize(cells.size());
  for (math::Matrix& m : w.d_upper_recurrent) m.resize(d.TB, d.G);
  w.d_cell_projected.resize(d.B, d.G);
  w.d_annotations.setZero(d.SB, d.D);
  w.d_keys.setZero(d.SB, w.keys.cols());
  w.d_query_step.resize(d.B, d.m);
  w.d_projected_queries.resize(d.TB, attention_->deferred_dim());
  for (int i = d.T - 1; i >= 0; --i) {
    const Eigen::Index rows = static_cast<Eigen::Index>(i) * d.B;
    w.d_upper = w.d_next_states.middleRows(rows, d.B);
    if (i + 1 < d.T) w.d_upper += w.d_states.middleRows(rows + d.B, d.B);
    w.d_query_step.setZero();
    conditional_cells_step_backward(i, transposed);
    math::gemm(w.d_context_projected.middleRows(rows, d.B), Transpose::kNo, transposed.context, Transpose::kNo,
               w.d_contexts.middleRows(rows, d.B), 1.0f, 1.0f, "decoder.gru2.W");
    attention_step_backward(batch, options, gradient_scale, i, transposed);
    first_cell_step_backward(i, w.d_query_step, transposed);
  }
}

// Every cell's weight gradients over all steps at once, then the target embeddings'.
void RnnSearch::conditional_weights_backward(const data::Batch& batch) {
  Workspace& w = *work_;
  const BatchDims& d = w.dims;
  const auto cells = upper_decoder_cells();
  decoder_.recurrent_weights_backward(w.states, w.reset_states,
                                      decoder_.separate_recurrent_gradients() ? w.d_recurrent : w.d_projected);
  if (attention_->deferred_dim() > 0) attention_->query_weights_backward(w.queries, w.d_projected_queries);
  nn::Parameter& first_weight = parameters_.get("decoder.gru.W");  // [e x 3m]
  math::gemm(w.embedded, Transpose::kYes, w.d_projected, Transpose::kNo, first_weight.gradient, 1.0f, 1.0f,
             first_weight.name.c_str());
  decoder_.input_bias_backward(w.d_projected);
  math::gemm(w.d_projected, Transpose::kNo, first_weight.value, Transpose::kYes, w.d_embedded, 1.0f, 1.0f,
             first_weight.name.c_str());
  nn::Parameter& context_weight = parameters_.get("decoder.gru2.W");  // [2n x 3m]
  math::gemm(w.contexts, Transpose::kYes, w.d_context_projected, Transpose::kNo, context_weight.gradient, 1.0f, 1.0f,
             context_weight.name.c_str());
  context_gru_->input_bias_backward(w.d_context_projected);
  w.upper_h_prev.resize(cells.size());
  w.upper_reset.resize(cells.size());
  for (std::size_t k = 0; k < cells.size(); ++k) {
    math::Matrix& h_prev = w.upper_h_prev[k];
    math::Matrix& reset = w.upper_reset[k];
    h_prev.resize(d.TB, d.m);
    reset.resize(d.TB, d.m);
    for (int i = 0; i < d.T; ++i) {
      const nn::Gru::StepCache& step = w.upper_steps[static_cast<std::size_t>(i) * cells.size() + k];
      h_prev.middleRows(static_cast<Eigen::Index>(i) * d.B, d.B) = step.h_prev;
      reset.middleRows(static_cast<Eigen::Index>(i) * d.B, d.B) = step.reset_state;
    }
    cells[k]->recurrent_weights_backward(h_prev, reset, w.d_upper_recurrent[k]);
  }
  if (w.dropout) w.d_embedded.array() *= w.target_dropout.array();
  target_embedding_.backward(batch.target_input, w.d_embedded);
}

// Inference: GRU_1 from the previous word's projection (work_->step_projected), then c_i,
// GRU_2 and the transition cells; the caller adds the readout.
void RnnSearch::conditional_step(const EncoderOutput& encoded, const std::vector<int>* row_sentence,
                                 const math::Matrix& state, math::Matrix& next_state, math::Matrix& weights) {
  Workspace& w = *work_;
  const auto cells = upper_decoder_cells();
  w.step_query.resize(state.rows(), state.cols());
  decoder_.step(w.step_projected, state, w.step_query, w.step_gru);
  attention_->step(w.step_query, encoded.annotations, encoded.keys, encoded.source_mask, w.step_attention, w.context,
                   weights, row_sentence);
  context_gru_->project_inputs(w.context, w.step_context_projected);
  if (w.step_upper.size() < cells.size()) w.step_upper.resize(cells.size());
  next_state.resize(state.rows(), state.cols());
  context_gru_->step(w.step_context_projected, w.step_query, next_state, w.step_upper[0]);
  for (std::size_t k = 1; k < cells.size(); ++k) cells[k]->transition_step(next_state, next_state, w.step_upper[k]);
}

}  // namespace rnnsearch::model
