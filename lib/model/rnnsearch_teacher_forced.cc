// RnnSearch's teacher-forced passes over a batch of pairs: the training loss (forward,
// then backward when there are gradients to take) and forced_attention (forward only).
#include <algorithm>
#include <cstdint>
#include <functional>
#include <utility>

#include "math/gemm.h"
#include "math/product_precision.h"
#include "math/transpose.h"
#include "model/guided_alignment.h"
#include "model/rnnsearch.h"
#include "model/rnnsearch_workspace.h"
#include "util/error.h"

namespace rnnsearch::model {

using math::Transpose;

namespace {

// Inverted dropout: each entry kept with probability 1 - p and scaled by 1 / (1 - p).
// Two entries per 64-bit draw, each from 24 of its bits compared with p * 2^24.
void fill_dropout(math::Matrix& mask, Eigen::Index rows, Eigen::Index cols, float p, util::Rng& rng) {
  mask.resize(rows, cols);
  const float keep = 1.0f / (1.0f - p);
  const auto threshold = static_cast<std::uint64_t>(static_cast<double>(p) * (1 << 24));
  // Chosen by index, not by a branch the random bits would mispredict; the generator
  // drawn from a local copy that stays in registers.
  const float value[2] = {0.0f, keep};
  util::Rng local = rng;
  float* out = mask.data();
  const Eigen::Index size = mask.size();
  for (Eigen::Index i = 0; i < size; i += 2) {
    const std::uint64_t bits = local.next();
    out[i] = value[(bits >> 40) >= threshold];
    if (i + 1 < size) out[i + 1] = value[((bits >> 8) & 0xFFFFFF) >= threshold];
  }
  rng = local;
}

bool has_guide(const data::Batch& batch, const LossOptions& options) {
  return options.guided_alignment_weight != 0.0f && batch.guide.size() > 0;
}

}  // namespace

nn::CrossEntropySum RnnSearch::loss(const data::Batch& batch, const LossOptions& options, float gradient_scale,
                                    util::Rng* dropout_rng) {
  if (options.alignment_head_only && !alignment_head_) {
    throw util::Error("training the alignment head needs a model with one (--alignment-head)");
  }
  const bool dropout = options.dropout > 0.0f && !options.alignment_head_only;  // the head reads clean states
  if (dropout && !dropout_rng) throw util::Error("RnnSearch::loss: dropout needs a random generator");
  const bool gradients = gradient_scale != 0.0f;
  if (gradients) parameters_.allocate_gradients();
  const math::ProductPrecision precision(gradients ? options.precision : math::Precision::kFp32);
  // The head's gradients stop at its own parameters: the translation model runs forward only.
  const bool translation_gradients = gradients && !options.alignment_head_only;
  forward(batch, dropout ? options.dropout : 0.0f, dropout_rng,
          translation_gradients ? nn::Pass::kForwardBackward : nn::Pass::kForwardOnly);
  if (options.alignment_head_only) return alignment_head_loss(batch, options, gradient_scale);
  const nn::CrossEntropySum result = output_loss(
      batch, options, dropout_rng, gradients ? nn::Pass::kForwardBackward : nn::Pass::kForwardOnly, gradient_scale);
  if (gradients) backward(batch, options, gradient_scale);
  return result;
}

std::vector<math::Matrix> RnnSearch::forced_attention(const data::Batch& batch, AttentionSource source) {
  const math::RowStableProducts row_stable;  // a pair's weights do not depend on its batch
  const bool head = source == AttentionSource::kAlignmentHead;
  if (head && !has_alignment_head()) {
    throw util::Error("the model has no alignment head (nmt-train --alignment-head): nothing to align with");
  }
  if (!head && !has_attention()) {
    throw util::Error("the model has no attention (--attention none): nothing to align with");
  }
  forward(batch, 0.0f, nullptr, nn::Pass::kForwardOnly);
  if (head) alignment_head_forward(batch, nn::Pass::kForwardOnly);
  const std::vector<math::Matrix>& weights = head ? work_->head_weights : work_->weights;
  const int B = batch.sentences;
  std::vector<math::Matrix> out(static_cast<std::size_t>(B));
  for (int b = 0; b < B; ++b) {
    int target_rows = 0, source_columns = 0;
    for (int t = 0; t < batch.target_length; ++t) target_rows += batch.target_mask(t, b) != 0.0f ? 1 : 0;
    for (int j = 0; j < batch.source_length; ++j) source_columns += batch.source_mask(j, b) != 0.0f ? 1 : 0;
    out[b].resize(target_rows, source_columns);
    for (int t = 0; t < target_rows; ++t) out[b].row(t) = weights[t].row(b).head(source_columns);
  }
  return out;
}

// ---- Forward ----

void RnnSearch::forward(const data::Batch& batch, float dropout, util::Rng* dropout_rng, nn::Pass pass) {
  Workspace& w = *work_;
  w.dims = BatchDims(config_, batch);
  w.dropout = dropout > 0.0f;
  encoder_forward(batch, dropout, dropout_rng, pass);
  decoder_inputs_forward(batch, dropout, dropout_rng);
  if (config_.conditional_decoder()) {
    conditional_forward(batch, pass);
  } else {
    decoder_forward(batch, pass);
  }
}

// Encoder, attention keys, s_0.
void RnnSearch::encoder_forward(const data::Batch& batch, float dropout, util::Rng* dropout_rng, nn::Pass pass) {
  Workspace& w = *work_;
  const BatchDims& d = w.dims;
  if (w.dropout) fill_dropout(w.source_dropout, d.SB, d.e, dropout, *dropout_rng);
  encoder_.forward(batch.source, batch.source_mask, w.encoder, w.annotations, w.dropout ? &w.source_dropout : nullptr,
                   pass);
  attention_->precompute_keys(w.annotations, w.keys);
  initial_state_forward(w.annotations, batch.source_mask, d.B, w.mean, w.initial_state);
}

// Target embeddings and their half of the decoder input projection (all of GRU_1's in the
// conditional decoder), for all steps at once.
void RnnSearch::decoder_inputs_forward(const data::Batch& batch, float dropout, util::Rng* dropout_rng) {
  Workspace& w = *work_;
  const BatchDims& d = w.dims;
  const nn::Parameter& gru_weight = parameters_.get("decoder.gru.W");  // [(e + 2n) x 3m]
  target_embedding_.forward(batch.target_input, w.embedded);           // Y: [(T*B) x e]
  if (w.dropout) {
    fill_dropout(w.target_dropout, d.TB, d.e, dropout, *dropout_rng);
    w.embedded.array() *= w.target_dropout.array();
  }
  w.projected.resize(d.TB, d.G);
  math::gemm(w.embedded, Transpose::kNo, gru_weight.value.topRows(d.e), Transpose::kNo, w.projected, 1.0f, 0.0f,
             gru_weight.name.c_str());
  decoder_.add_input_bias(w.projected);
}

// The recurrence: c_i from s_{i-1}, then s_i (the last s_i is never read).
void RnnSearch::decoder_forward(const data::Batch& batch, nn::Pass pass) {
  Workspace& w = *work_;
  const BatchDims& d = w.dims;
  const bool keep = pass == nn::Pass::kForwardBackward;
  const nn::Parameter& gru_weight = parameters_.get("decoder.gru.W");
  const auto context_weight = gru_weight.value.bottomRows(d.D);  // rows e.. of W: [2n x 3m]
  w.states.resize(d.TB, d.m);
  w.contexts.resize(d.TB, d.D);
  if (keep) w.reset_states.resize(d.TB, d.m);
  w.states.topRows(d.B) = w.initial_state;
  if (static_cast<int>(w.weights.size()) < d.T) w.weights.resize(static_cast<std::size_t>(d.T));
  for (int i = 0; i < d.T; ++i) {
    const Eigen::Index rows = static_cast<Eigen::Index>(i) * d.B;  // block i
    w.query = w.states.middleRows(rows, d.B);
    attention_->step(w.query, w.annotations, w.keys, batch.source_mask, step_cache(w.attention_steps, i, pass),
                     w.context, w.weights[static_cast<std::size_t>(i)]);
    w.contexts.middleRows(rows, d.B) = w.context;
    if (i + 1 == d.T) break;
    auto step_projected = w.projected.middleRows(rows, d.B);
    math::gemm(w.context, Transpose::kNo, context_weight, Transpose::kNo, step_projected, 1.0f, 1.0f,
               gru_weight.name.c_str());
    nn::Gru::StepCache& gru_cache = step_cache(w.gru_steps, i, pass);
    decoder_.step(step_projected, w.states.middleRows(rows, d.B), w.states.middleRows(rows + d.B, d.B), gru_cache);
    if (keep) w.reset_states.middleRows(rows, d.B) = gru_cache.reset_state;
  }
}

// Deep output over all rows, dropout, then the softmax layer over the real rows only;
// and the guided-alignment cost, -sum_j g_ij log(alpha_ij + eps) over the target rows with
// links.
nn::CrossEntropySum RnnSearch::output_loss(const data::Batch& batch, const LossOptions& options,
                                           util::Rng* dropout_rng, nn::Pass pass, float gradient_scale) {
  Workspace& w = *work_;
  const BatchDims& d = w.dims;
  // t: [(T*B) x l], from s_{i-1} (the conditional decoder: s_i)
  deep_output_.forward(config_.conditional_decoder() ? w.next_states : w.states, w.embedded, w.contexts, w.deep,
                       w.readout);
  if (w.dropout) {
    fill_dropout(w.readout_dropout, d.TB, d.l, options.dropout, *dropout_rng);
    w.readout.array() *= w.readout_dropout.array();
  }
  w.real_rows.clear();
  w.real_targets.clear();
  for (Eigen::Index r = 0; r < d.TB; ++r) {
    if (batch.target_mask.data()[r] != 0.0f) {
      w.real_rows.push_back(r);
      w.real_targets.push_back(batch.target_output[static_cast<std::size_t>(r)]);
    }
  }
  const Eigen::Index N = static_cast<Eigen::Index>(w.real_rows.size());
  w.real_readout.resize(N, d.l);
  for (Eigen::Index k = 0; k < N; ++k) w.real_readout.row(k) = w.readout.row(w.real_rows[k]);
  output_forward(w.real_readout, w.logits);
  w.ones.setOnes(N, 1);
  nn::CrossEntropySum result =
      nn::softmax_cross_entropy(w.logits, w.real_targets, w.ones, options.label_smoothing,
                                pass == nn::Pass::kForwardBackward ? &w.d_logits : nullptr, gradient_scale);

  w.guided = has_guide(batch, options);
  if (w.guided && !attention_->has_weights()) {
    throw util::Error("guided alignment needs attention weights; a model with --attention none has none");
  }
  if (w.guided) {
    result.loss += static_cast<double>(options.guided_alignment_weight) *
                   guided_cost(w.weights, batch.guide, d.T, w.guided_steps);
  }
  return result;
}

// ---- Backward, in the reverse order of forward ----

void RnnSearch::backward(const data::Batch& batch, const LossOptions& options, float gradient_scale) {
  const TransposedWeights* transposed = options.transposed;
  if (!transposed) {
    transpose_weights(work_->transposed);
    transposed = &work_->transposed;
  }
  output_loss_backward(*transposed);
  if (config_.conditional_decoder()) {
    conditional_backward(batch, options, gradient_scale, *transposed);
    conditional_weights_backward(batch);
  } else {
    decoder_backward(batch, options, gradient_scale, *transposed);
    decoder_weights_backward(batch);
  }
  encoder_backward(batch, *transposed);
}

void RnnSearch::transpose_weights(TransposedWeights& out, int part, int parts) const {
  const long n = config_.encoder_hidden, m = config_.decoder_hidden, A = attention_->key_dim();
  const long V = output_weight_ ? static_cast<long>(output_weight_->value.size()) : 0;
  const nn::Parameter& context_weight = parameters_.get(config_.conditional_decoder() ? "decoder.gru2.W" : "decoder.gru.W");
  std::vector<std::pair<long, std::function<void()>>> pieces = {
      {6 * n * m, [&] { math::transpose(context_weight.value.bottomRows(2 * n), out.context); }},
      {3 * m * m, [&] { decoder_.transpose_recurrent(out.decoder); }},
      {A * m, [&] { attention_->transpose_weights(out.attention); }},
      {3 * n * n, [&] { encoder_.transpose_recurrent(out.encoder, 0); }},
      {3 * n * n, [&] { encoder_.transpose_recurrent(out.encoder, 1); }},
      {V, [&] {
         if (output_weight_) math::transpose(output_weight_->value, out.output);
       }},
  };
  const auto cells = upper_decoder_cells();
  for (std::size_t k = 0; k < cells.size(); ++k) {
    pieces.emplace_back(3 * m * m, [&, k] { cells[k]->transpose_recurrent(out.decoder_cells[k]); });
  }
  // Largest first, each to the part with the least so far (ties: the lowest part).
  std::stable_sort(pieces.begin(), pieces.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<long> load(static_cast<std::size_t>(std::max(parts, 1)), 0);
  for (const auto& [size, make] : pieces) {
    const auto least = std::min_element(load.begin(), load.end()) - load.begin();
    load[static_cast<std::size_t>(least)] += size;
    if (least == part) make();
  }
}

// Softmax layer (from d_logits, scaled by output_loss), dropout, deep output.
void RnnSearch::output_loss_backward(const TransposedWeights& transposed) {
  Workspace& w = *work_;
  const BatchDims& d = w.dims;
  output_backward(w.real_readout, w.d_logits, w.d_real_readout, transposed);
  w.d_readout.setZero(d.TB, d.l);
  for (std::size_t k = 0; k < w.real_rows.size(); ++k) {
    w.d_readout.row(w.real_rows[k]) = w.d_real_readout.row(static_cast<Eigen::Index>(k));
  }
  if (w.dropout) w.d_readout.array() *= w.readout_dropout.array();
  w.d_states.setZero(d.TB, d.m);
  w.d_embedded.setZero(d.TB, d.e);
  w.d_contexts.setZero(d.TB, d.D);
  if (config_.conditional_decoder()) {
    w.d_next_states.setZero(d.TB, d.m);
    deep_output_.backward(w.next_states, w.embedded, w.contexts, w.deep, w.d_readout, &w.d_next_states, &w.d_embedded,
                          &w.d_contexts);
  } else {
    deep_output_.backward(w.states, w.embedded, w.contexts, w.deep, w.d_readout, &w.d_states, &w.d_embedded,
                          &w.d_contexts);
  }
}

// Through the recurrence, last step first; the per-step weight gradients are deferred to
// decoder_weights_backward.
void RnnSearch::decoder_backward(const data::Batch& batch, const LossOptions& options, float gradient_scale,
                                 const TransposedWeights& transposed) {
  Workspace& w = *work_;
  const BatchDims& d = w.dims;
  const nn::Parameter& gru_weight = parameters_.get("decoder.gru.W");
  // Gru::step_backward overwrites the blocks of steps 0..T-2; the last step has no GRU step.
  w.d_projected.resize(d.TB, d.G);
  w.d_projected.bottomRows(d.B).setZero();
  if (decoder_.separate_recurrent_gradients()) w.d_recurrent.resize(d.TB, d.G);
  w.d_annotations.setZero(d.SB, d.D);
  w.d_keys.setZero(d.SB, w.keys.cols());
  w.d_query_step.resize(d.B, d.m);
  const int deferred = attention_->deferred_dim();  // width of each step's d_q (0: nothing deferred)
  w.d_projected_queries.resize(d.TB, deferred);
  for (int i = d.T - 1; i >= 0; --i) {
    const Eigen::Index rows = static_cast<Eigen::Index>(i) * d.B;  // block i
    if (i + 1 < d.T) {
      first_cell_step_backward(i, w.d_states.middleRows(rows + d.B, d.B), transposed);
      math::gemm(w.d_projected.middleRows(rows, d.B), Transpose::kNo, transposed.context, Transpose::kNo,
                 w.d_contexts.middleRows(rows, d.B), 1.0f, 1.0f, gru_weight.name.c_str());
    }
    w.d_query_step.setZero();
    attention_step_backward(batch, options, gradient_scale, i, transposed);
    w.d_states.middleRows(rows, d.B) += w.d_query_step;
  }
}

void RnnSearch::first_cell_step_backward(int i, const math::ConstMatrixRef& dh, const TransposedWeights& transposed) {
  Workspace& w = *work_;
  const Eigen::Index rows = static_cast<Eigen::Index>(i) * w.dims.B, B = w.dims.B;
  math::MatrixRef d_projected(w.d_projected.middleRows(rows, B));
  math::MatrixRef d_recurrent = decoder_.separate_recurrent_gradients()
                                    ? math::MatrixRef(w.d_recurrent.middleRows(rows, B))
                                    : d_projected;
  decoder_.step_backward(w.gru_steps[i], dh, d_projected, w.d_states.middleRows(rows, B),
                         nn::WeightGradients::kDeferred, &transposed.decoder, &d_recurrent);
}

void RnnSearch::attention_step_backward(const data::Batch& batch, const LossOptions& options, float gradient_scale,
                                        int i, const TransposedWeights& transposed) {
  Workspace& w = *work_;
  const Eigen::Index rows = static_cast<Eigen::Index>(i) * w.dims.B;
  w.d_context_step = w.d_contexts.middleRows(rows, w.dims.B);
  const math::Matrix* d_weights = nullptr;
  if (w.guided && w.guided_steps[static_cast<std::size_t>(i)]) {
    // Scaled like the cross-entropy.
    guided_step_gradient(w.weights[static_cast<std::size_t>(i)], batch.guide, i,
                         gradient_scale * options.guided_alignment_weight, w.d_weights_step);
    d_weights = &w.d_weights_step;
  }
  attention_->step_backward(w.attention_steps[i], w.d_context_step, d_weights, w.d_query_step, w.d_annotations,
                            w.d_keys, nn::WeightGradients::kDeferred, &transposed.attention);
  if (attention_->deferred_dim() > 0) {
    w.d_projected_queries.middleRows(rows, w.dims.B) = w.attention_steps[i].d_projected_query;
  }
}

// The weight gradients of all steps at once: the GRU's U (steps 0..T-2; row block i of
// the states is s_{i-1}, the state step i started from), the attention's query weights
// (W_a, b_a) and the decoder input projection; then the target embeddings.
void RnnSearch::decoder_weights_backward(const data::Batch& batch) {
  Workspace& w = *work_;
  const BatchDims& d = w.dims;
  const Eigen::Index stepped = static_cast<Eigen::Index>(d.T - 1) * d.B;
  const math::Matrix& d_recurrent = decoder_.separate_recurrent_gradients() ? w.d_recurrent : w.d_projected;
  decoder_.recurrent_weights_backward(w.states.topRows(stepped), w.reset_states.topRows(stepped),
                                      d_recurrent.topRows(stepped));
  if (attention_->deferred_dim() > 0) attention_->query_weights_backward(w.states, w.d_projected_queries);

  nn::Parameter& gru_weight = parameters_.get("decoder.gru.W");  // [(e + 2n) x 3m]
  const char* name = gru_weight.name.c_str();
  math::gemm(w.embedded, Transpose::kYes, w.d_projected, Transpose::kNo, gru_weight.gradient.topRows(d.e), 1.0f,
             1.0f, name);
  math::gemm(w.contexts, Transpose::kYes, w.d_projected, Transpose::kNo, gru_weight.gradient.bottomRows(d.D), 1.0f,
             1.0f, name);
  decoder_.input_bias_backward(w.d_projected);
  math::gemm(w.d_projected, Transpose::kNo, gru_weight.value.topRows(d.e), Transpose::kYes, w.d_embedded, 1.0f, 1.0f,
             name);
  if (w.dropout) w.d_embedded.array() *= w.target_dropout.array();
  target_embedding_.backward(batch.target_input, w.d_embedded);
}

// s_0 = tanh(M W_s + b_s), M the masked mean of the annotations; the attention keys; the
// encoder.
void RnnSearch::encoder_backward(const data::Batch& batch, const TransposedWeights& transposed) {
  Workspace& w = *work_;
  const BatchDims& d = w.dims;
  w.d_initial_pre = w.d_states.topRows(d.B).array() * (1.0f - w.initial_state.array().square());
  w.d_mean.setZero(d.B, d.D);
  init_.backward(w.mean, w.d_initial_pre, &w.d_mean);
  const Eigen::VectorXf lengths = batch.source_mask.colwise().sum().transpose();
  for (Eigen::Index j = 0; j < d.S; ++j) {
    for (Eigen::Index b = 0; b < d.B; ++b) {
      if (batch.source_mask(j, b) != 0.0f) w.d_annotations.row(j * d.B + b) += w.d_mean.row(b) / lengths(b);
    }
  }
  attention_->keys_backward(w.annotations, w.d_keys, w.d_annotations);
  encoder_.backward(w.encoder, w.d_annotations, &transposed.encoder);
}

// ---- The alignment head ----

// Queries [s_{i-1}; E_y y_i] of every step at once, then the head's steps.
void RnnSearch::alignment_head_forward(const data::Batch& batch, nn::Pass pass) {
  Workspace& w = *work_;
  const BatchDims& d = w.dims;
  target_embedding_.forward(batch.target_output, w.head_embedded);
  w.head_queries.resize(d.TB, d.m + d.e);
  w.head_queries.leftCols(d.m) = w.states;
  w.head_queries.rightCols(d.e) = w.head_embedded;
  alignment_head_->precompute_keys(w.annotations, w.head_keys);
  if (static_cast<int>(w.head_weights.size()) < d.T) w.head_weights.resize(static_cast<std::size_t>(d.T));
  for (int i = 0; i < d.T; ++i) {
    w.query = w.head_queries.middleRows(static_cast<Eigen::Index>(i) * d.B, d.B);
    alignment_head_->step(w.query, w.annotations, w.head_keys, batch.source_mask, step_cache(w.head_steps, i, pass),
                          w.head_context, w.head_weights[static_cast<std::size_t>(i)]);
  }
}

nn::CrossEntropySum RnnSearch::alignment_head_loss(const data::Batch& batch, const LossOptions& options,
                                                   float gradient_scale) {
  const bool gradients = gradient_scale != 0.0f;
  alignment_head_forward(batch, gradients ? nn::Pass::kForwardBackward : nn::Pass::kForwardOnly);
  nn::CrossEntropySum result;
  result.tokens = static_cast<std::size_t>((batch.target_mask.array() != 0.0f).count());
  if (!has_guide(batch, options)) return result;
  result.loss = static_cast<double>(options.guided_alignment_weight) *
                guided_cost(work_->head_weights, batch.guide, batch.target_length, work_->guided_steps);
  if (gradients) alignment_head_backward(batch, options, gradient_scale);
  return result;
}

// Into the head's parameters only: the input gradients go to scratch.
void RnnSearch::alignment_head_backward(const data::Batch& batch, const LossOptions& options, float gradient_scale) {
  Workspace& w = *work_;
  const BatchDims& d = w.dims;
  const int A = alignment_head_->key_dim();
  w.head_d_keys.setZero(d.SB, A);
  w.head_d_annotations.setZero(d.SB, d.D);
  w.head_d_query.resize(d.B, d.m + d.e);
  w.head_d_context.setZero(d.B, d.D);
  w.head_d_projected_queries.setZero(d.TB, A);
  for (int i = 0; i < d.T; ++i) {
    if (!w.guided_steps[static_cast<std::size_t>(i)]) continue;
    guided_step_gradient(w.head_weights[static_cast<std::size_t>(i)], batch.guide, i,
                         gradient_scale * options.guided_alignment_weight, w.d_weights_step);
    w.head_d_query.setZero();
    alignment_head_->step_backward(w.head_steps[i], w.head_d_context, &w.d_weights_step, w.head_d_query,
                                   w.head_d_annotations, w.head_d_keys, nn::WeightGradients::kDeferred);
    w.head_d_projected_queries.middleRows(static_cast<Eigen::Index>(i) * d.B, d.B) =
        w.head_steps[i].d_projected_query;
  }
  alignment_head_->query_weights_backward(w.head_queries, w.head_d_projected_queries);
  alignment_head_->keys_backward(w.annotations, w.head_d_keys, w.head_d_annotations);
}

}  // namespace rnnsearch::model
