#include "model/rnnsearch.h"

#include <cmath>

#include "math/gemm.h"
#include "math/shape_check.h"
#include "nn/init.h"
#include "util/error.h"

namespace rnnsearch::model {

using math::Transpose;

// Everything one batch keeps between forward and backward, and the decoder's step
// scratch. Buffers keep their capacity from batch to batch.
struct RnnSearch::Workspace {
  // Encoder and initial state.
  nn::BiEncoder::Cache encoder;
  math::Matrix source_dropout;  // [(S*B) x e]
  math::Matrix annotations;     // H: [(S*B) x 2n]
  math::Matrix keys;            // K: [(S*B) x key_dim], U_a h for additive
  math::Matrix mean;            // M: [B x 2n]
  math::Matrix initial_state;   // s_0: [B x m]
  // Decoder, teacher-forced over T steps.
  math::Matrix embedded;        // Y: [(T*B) x e]
  math::Matrix target_dropout;  // [(T*B) x e]
  math::Matrix projected;       // P: [(T*B) x 3m] decoder GRU pre-activations
  math::Matrix states;          // S: [(T*B) x m], block i = s_{i-1}
  math::Matrix contexts;        // C: [(T*B) x 2n], block i = c_i
  math::Matrix reset_states;    // [(T*B) x m], block i = r_i . s_{i-1} of the decoder GRU
  std::vector<nn::Attention::StepCache> attention_steps;
  std::vector<nn::Gru::StepCache> gru_steps;
  math::Matrix query, context, weights;  // one step's [B x m], [B x 2n], [B x S]
  nn::DeepOutput::Cache deep;
  math::Matrix readout;         // t: [(T*B) x l]
  math::Matrix readout_dropout; // [(T*B) x l]
  std::vector<Eigen::Index> real_rows;
  std::vector<std::int32_t> real_targets;
  math::Matrix real_readout;    // [N x l], the rows of real target tokens
  math::Matrix logits;          // [N x V]
  math::Matrix d_logits;        // [N x V]
  math::Matrix ones;            // [N x 1] cross-entropy weights
  // Backward.
  math::Matrix d_real_readout, d_readout, d_states, d_embedded, d_contexts, d_projected;
  math::Matrix d_annotations, d_keys, d_mean, d_initial_pre, d_context_step, d_query_step;
  math::Matrix d_projected_queries;  // [(T*B) x deferred_dim], block i = d_q of step i (additive: A)
  // Guided alignment.
  std::vector<char> guided_steps;    // T flags: step i has a target row with links
  math::Matrix d_weights_step;       // d_alpha of one step: [B x S]
  // Alignment head (its own keys and step caches; the query reads [s_{i-1}; E_y y_i]).
  math::Matrix head_embedded;        // E_y y_i: [(T*B) x e]
  math::Matrix head_queries;         // [(T*B) x (m + e)]
  math::Matrix head_keys;            // [(S*B) x A']
  std::vector<nn::Attention::StepCache> head_steps;
  math::Matrix head_context, head_weights;                  // one step's [B x 2n], [B x S]
  math::Matrix head_d_keys, head_d_annotations, head_d_query, head_d_context;
  math::Matrix head_d_projected_queries;                    // [(T*B) x A']
  // Inference step.
  nn::Attention::StepCache step_attention;
  nn::Gru::StepCache step_gru;
  nn::DeepOutput::Cache step_deep;
  math::Matrix step_embedded, step_input, step_projected, step_readout;
};

namespace {

// Inverted dropout: each entry kept with probability 1 - p and scaled by 1 / (1 - p).
// Two entries per 64-bit draw, each from 24 of its bits compared with p * 2^24.
void fill_dropout(math::Matrix& mask, Eigen::Index rows, Eigen::Index cols, float p, util::Rng& rng) {
  mask.resize(rows, cols);
  const float keep = 1.0f / (1.0f - p);
  const auto threshold = static_cast<std::uint64_t>(static_cast<double>(p) * (1 << 24));
  float* out = mask.data();
  const Eigen::Index size = mask.size();
  for (Eigen::Index i = 0; i < size; i += 2) {
    const std::uint64_t bits = rng.next();
    out[i] = (bits >> 40) < threshold ? 0.0f : keep;
    if (i + 1 < size) out[i + 1] = ((bits >> 8) & 0xFFFFFF) < threshold ? 0.0f : keep;
  }
}

constexpr float kGuidedAlignmentEpsilon = 1e-6f;  // log(alpha + eps): a zero weight costs a finite amount

// The guided-alignment cost of the weights of every step (steps[i].weights: [B x S]):
// -sum_{i,b,j} g_ij log(alpha_bj + eps), guide: [(T*B) x S] (checked). linked_steps[i]
// is set when a target row of step i has links (its backward has a term).
double guided_cost(const std::vector<nn::Attention::StepCache>& steps, const math::Matrix& guide, int T,
                   std::vector<char>& linked_steps) {
  linked_steps.assign(static_cast<std::size_t>(T), 0);
  double cost = 0.0;
  for (int i = 0; i < T; ++i) {
    const math::Matrix& alpha = steps[static_cast<std::size_t>(i)].weights;
    const Eigen::Index B = alpha.rows(), S = alpha.cols();
    if (i == 0) math::check_shape(guide, static_cast<Eigen::Index>(T) * B, S, "guided alignment (Batch::guide)");
    for (Eigen::Index b = 0; b < B; ++b) {
      const auto gold = guide.row(static_cast<Eigen::Index>(i) * B + b);
      for (Eigen::Index j = 0; j < S; ++j) {
        if (gold(j) == 0.0f) continue;
        cost -= static_cast<double>(gold(j)) * std::log(static_cast<double>(alpha(b, j) + kGuidedAlignmentEpsilon));
        linked_steps[static_cast<std::size_t>(i)] = 1;
      }
    }
  }
  return cost;
}

// d_weights := scale * d(cost of step i)/d alpha = -scale g_ij / (alpha_ij + eps): [B x S].
void guided_step_gradient(const math::Matrix& alpha, const math::Matrix& guide, int i, float scale,
                          math::Matrix& d_weights) {
  const Eigen::Index B = alpha.rows(), S = alpha.cols();
  d_weights.setZero(B, S);
  for (Eigen::Index b = 0; b < B; ++b) {
    const auto gold = guide.row(static_cast<Eigen::Index>(i) * B + b);
    for (Eigen::Index j = 0; j < S; ++j) {
      if (gold(j) != 0.0f) d_weights(b, j) = -scale * gold(j) / (alpha(b, j) + kGuidedAlignmentEpsilon);
    }
  }
}

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

void log_softmax_rows(math::Matrix& m) {
  for (Eigen::Index r = 0; r < m.rows(); ++r) {
    auto row = m.row(r).array();
    const float top = row.maxCoeff();
    const float log_sum = top + std::log((row - top).exp().sum());
    row -= log_sum;
  }
}

}  // namespace

RnnSearch::RnnSearch(const ModelOptions& config)
    : config_((config.validate(), config)),
      encoder_(parameters_, "encoder", config.source_vocabulary, config.embedding, config.encoder_hidden),
      init_(parameters_, "decoder.init", 2 * config.encoder_hidden, config.decoder_hidden),
      target_embedding_(parameters_, "decoder.embedding", config.target_vocabulary, config.embedding),
      attention_(nn::make_attention(config.attention_form, parameters_, "decoder.attention", 2 * config.encoder_hidden,
                                    config.decoder_hidden, config.attention)),
      decoder_(parameters_, "decoder.gru", config.embedding + 2 * config.encoder_hidden, config.decoder_hidden),
      deep_output_(parameters_, "decoder.deep_output", config.decoder_hidden, config.embedding,
                   2 * config.encoder_hidden, config.maxout),
      output_weight_(config.tied_embeddings ? nullptr
                                            : &parameters_.add("decoder.output.W", config.maxout, config.target_vocabulary)),
      output_bias_(parameters_.add("decoder.output.b", 1, config.target_vocabulary)),
      alignment_head_(config.alignment_head > 0
                          ? nn::make_attention(nn::AttentionForm::kAdditive, parameters_, "alignment_head",
                                               2 * config.encoder_hidden, config.decoder_hidden + config.embedding,
                                               config.alignment_head)
                          : nullptr),
      work_(std::make_unique<Workspace>()) {}

RnnSearch::~RnnSearch() = default;

void RnnSearch::initialize(Initialization init, util::Rng& rng) {
  for (nn::Parameter* p : parameters_.all()) {
    const std::string& name = p->name;
    if (ends_with(name, ".b")) {
      p->value.setZero();
    } else if (ends_with(name, ".U_zr") || ends_with(name, ".U_h")) {
      nn::fill_orthogonal(p->value, rng);
    } else if (init == Initialization::kPaper) {
      if (name == "decoder.attention.v") {
        p->value.setZero();
      } else if (name.rfind("decoder.attention.", 0) == 0) {
        nn::fill_normal(p->value, 0.001f, rng);
      } else {
        nn::fill_normal(p->value, 0.01f, rng);
      }
    } else {
      const double fan = static_cast<double>(p->value.rows() + p->value.cols());
      nn::fill_normal(p->value, static_cast<float>(std::sqrt(2.0 / fan)), rng);
    }
  }
}

void RnnSearch::copy_parameters_from(const RnnSearch& other) {
  const auto mine = parameters_.all();
  const auto theirs = other.parameters_.all();
  if (mine.size() != theirs.size()) throw util::Error("copy_parameters_from: models of different shapes");
  for (std::size_t i = 0; i < mine.size(); ++i) mine[i]->value = theirs[i]->value;
}

void RnnSearch::copy_matching_parameters_from(const RnnSearch& other) {
  for (const nn::Parameter* theirs : other.parameters_.all()) {
    nn::Parameter* mine = nullptr;
    for (nn::Parameter* p : parameters_.all()) {
      if (p->name == theirs->name) mine = p;
    }
    if (!mine || mine->value.rows() != theirs->value.rows() || mine->value.cols() != theirs->value.cols()) {
      throw util::Error("copy_matching_parameters_from: parameter '" + theirs->name + "' has no match of its shape");
    }
    mine->value = theirs->value;
  }
}

void RnnSearch::initial_state_forward(const math::Matrix& annotations, const math::Matrix& source_mask, int B,
                                      math::Matrix& mean, math::Matrix& state) const {
  const Eigen::Index S = source_mask.rows(), D = annotations.cols();
  mean.setZero(B, D);  // M: [B x 2n]
  for (Eigen::Index j = 0; j < S; ++j) {
    for (Eigen::Index b = 0; b < B; ++b) {
      if (source_mask(j, b) != 0.0f) mean.row(b) += annotations.row(j * B + b);
    }
  }
  const Eigen::VectorXf lengths = source_mask.colwise().sum().transpose();  // [B]
  for (Eigen::Index b = 0; b < B; ++b) {
    if (lengths(b) > 0) mean.row(b) /= lengths(b);
  }
  init_.forward(mean, state);  // s_0 pre-activation: [B x m]
  state = state.array().tanh();
}

void RnnSearch::output_forward(const math::Matrix& t, math::Matrix& logits) const {
  const math::Matrix& weight = output_weight_ ? output_weight_->value : parameters_.get("decoder.embedding.E").value;
  logits.resize(t.rows(), config_.target_vocabulary);  // [N x V]
  math::gemm(t, Transpose::kNo, weight, output_weight_ ? Transpose::kNo : Transpose::kYes, logits, 1.0f, 0.0f,
             "decoder.output.W");
  logits.rowwise() += output_bias_.value.row(0);
}

void RnnSearch::output_backward(const math::Matrix& t, const math::Matrix& d_logits, math::Matrix& d_t) {
  d_t.resize(t.rows(), t.cols());
  output_bias_.gradient.row(0) += d_logits.colwise().sum();
  if (output_weight_) {
    math::gemm(t, Transpose::kYes, d_logits, Transpose::kNo, output_weight_->gradient, 1.0f, 1.0f, "decoder.output.W");
    math::gemm(d_logits, Transpose::kNo, output_weight_->value, Transpose::kYes, d_t, 1.0f, 0.0f, "decoder.output.W");
  } else {
    nn::Parameter& table = parameters_.get("decoder.embedding.E");  // [V x l]
    math::gemm(d_logits, Transpose::kYes, t, Transpose::kNo, table.gradient, 1.0f, 1.0f, "decoder.output (tied)");
    math::gemm(d_logits, Transpose::kNo, table.value, Transpose::kNo, d_t, 1.0f, 0.0f, "decoder.output (tied)");
  }
}

nn::CrossEntropySum RnnSearch::loss(const data::Batch& batch, const LossOptions& options, float gradient_scale,
                                    util::Rng* dropout_rng) {
  Workspace& w = *work_;
  const int B = batch.sentences, S = batch.source_length, T = batch.target_length;
  const int e = config_.embedding, D = 2 * config_.encoder_hidden, m = config_.decoder_hidden, l = config_.maxout;
  const int G = 3 * m;  // width of the decoder GRU's pre-activations
  const Eigen::Index TB = static_cast<Eigen::Index>(T) * B;
  if (options.alignment_head_only && !alignment_head_) {
    throw util::Error("training the alignment head needs a model with one (--alignment-head)");
  }
  const bool dropout = options.dropout > 0.0f && !options.alignment_head_only;  // the head reads clean states
  if (dropout && !dropout_rng) throw util::Error("RnnSearch::loss: dropout needs a random generator");
  const bool backward = gradient_scale != 0.0f;
  nn::Parameter& gru_weight = parameters_.get("decoder.gru.W");  // [(e + 2n) x 3m]
  nn::Parameter& gru_bias = parameters_.get("decoder.gru.b");

  // Encoder, attention keys, s_0.
  if (dropout) fill_dropout(w.source_dropout, static_cast<Eigen::Index>(S) * B, e, options.dropout, *dropout_rng);
  encoder_.forward(batch.source, batch.source_mask, w.encoder, w.annotations, dropout ? &w.source_dropout : nullptr);
  attention_->precompute_keys(w.annotations, w.keys);
  initial_state_forward(w.annotations, batch.source_mask, B, w.mean, w.initial_state);

  // Target embeddings and their half of the decoder input projection, for all steps at once.
  target_embedding_.forward(batch.target_input, w.embedded);  // Y: [(T*B) x e]
  if (dropout) {
    fill_dropout(w.target_dropout, TB, e, options.dropout, *dropout_rng);
    w.embedded.array() *= w.target_dropout.array();
  }
  w.projected.resize(TB, G);
  math::gemm_raw(Transpose::kNo, Transpose::kNo, static_cast<int>(TB), G, e, 1.0f, w.embedded.data(), e,
                 gru_weight.value.data(), G, 0.0f, w.projected.data(), G);
  w.projected.rowwise() += gru_bias.value.row(0);

  // The recurrence: c_i from s_{i-1}, then s_i (the last s_i is never read).
  w.states.resize(TB, m);
  w.contexts.resize(TB, D);
  w.reset_states.resize(TB, m);
  w.states.topRows(B) = w.initial_state;
  if (static_cast<int>(w.attention_steps.size()) < T) {
    w.attention_steps.resize(static_cast<std::size_t>(T));
    w.gru_steps.resize(static_cast<std::size_t>(T));
  }
  const float* context_weight = gru_weight.value.data() + static_cast<std::ptrdiff_t>(e) * G;  // rows e.. of W
  for (int i = 0; i < T; ++i) {
    w.query = w.states.middleRows(static_cast<Eigen::Index>(i) * B, B);
    attention_->step(w.query, w.annotations, w.keys, batch.source_mask, w.attention_steps[i], w.context, w.weights);
    w.contexts.middleRows(static_cast<Eigen::Index>(i) * B, B) = w.context;
    if (i + 1 == T) break;
    float* step_projected = w.projected.data() + static_cast<std::ptrdiff_t>(i) * B * G;
    math::gemm_raw(Transpose::kNo, Transpose::kNo, B, G, D, 1.0f, w.context.data(), D, context_weight, G, 1.0f,
                   step_projected, G);
    decoder_.step_rows(step_projected, w.states.data() + static_cast<std::ptrdiff_t>(i) * B * m,
                       w.states.data() + static_cast<std::ptrdiff_t>(i + 1) * B * m, B, w.gru_steps[i]);
    w.reset_states.middleRows(static_cast<Eigen::Index>(i) * B, B) = w.gru_steps[i].reset_state;
  }
  if (options.alignment_head_only) return alignment_head_loss(batch, options, gradient_scale);

  // Deep output over all rows, dropout, then the softmax layer over the real rows only.
  deep_output_.forward(w.states, w.embedded, w.contexts, w.deep, w.readout);  // t: [(T*B) x l]
  if (dropout) {
    fill_dropout(w.readout_dropout, TB, l, options.dropout, *dropout_rng);
    w.readout.array() *= w.readout_dropout.array();
  }
  w.real_rows.clear();
  w.real_targets.clear();
  for (Eigen::Index r = 0; r < TB; ++r) {
    if (batch.target_mask.data()[r] != 0.0f) {
      w.real_rows.push_back(r);
      w.real_targets.push_back(batch.target_output[static_cast<std::size_t>(r)]);
    }
  }
  const Eigen::Index N = static_cast<Eigen::Index>(w.real_rows.size());
  w.real_readout.resize(N, l);
  for (Eigen::Index k = 0; k < N; ++k) w.real_readout.row(k) = w.readout.row(w.real_rows[k]);
  output_forward(w.real_readout, w.logits);
  w.ones.setOnes(N, 1);
  nn::CrossEntropySum result = nn::softmax_cross_entropy(w.logits, w.real_targets, w.ones, options.label_smoothing,
                                                         backward ? &w.d_logits : nullptr);

  // Guided alignment: -sum_j g_ij log(alpha_ij + eps) over the target rows with links.
  const bool guided = options.guided_alignment_weight != 0.0f && batch.guide.size() > 0;
  if (guided && !attention_->has_weights()) {
    throw util::Error("guided alignment needs attention weights; a model with --attention none has none");
  }
  if (guided) {
    result.loss += static_cast<double>(options.guided_alignment_weight) *
                   guided_cost(w.attention_steps, batch.guide, T, w.guided_steps);
  }
  if (!backward) return result;

  // Backward: softmax layer, dropout, deep output.
  w.d_logits *= gradient_scale;
  output_backward(w.real_readout, w.d_logits, w.d_real_readout);
  w.d_readout.setZero(TB, l);
  for (Eigen::Index k = 0; k < N; ++k) w.d_readout.row(w.real_rows[k]) = w.d_real_readout.row(k);
  if (dropout) w.d_readout.array() *= w.readout_dropout.array();
  w.d_states.setZero(TB, m);
  w.d_embedded.setZero(TB, e);
  w.d_contexts.setZero(TB, D);
  deep_output_.backward(w.states, w.embedded, w.contexts, w.deep, w.d_readout, &w.d_states, &w.d_embedded,
                        &w.d_contexts);

  // Backward through the recurrence, last step first.
  w.d_projected.setZero(TB, G);
  w.d_annotations.setZero(static_cast<Eigen::Index>(S) * B, D);
  w.d_keys.setZero(static_cast<Eigen::Index>(S) * B, w.keys.cols());
  w.d_query_step.resize(B, m);
  const int deferred = attention_->deferred_dim();  // width of each step's d_q (0: nothing deferred)
  w.d_projected_queries.resize(TB, deferred);
  for (int i = T - 1; i >= 0; --i) {
    if (i + 1 < T) {
      float* d_step_projected = w.d_projected.data() + static_cast<std::ptrdiff_t>(i) * B * G;
      decoder_.step_backward_rows(w.gru_steps[i], w.d_states.data() + static_cast<std::ptrdiff_t>(i + 1) * B * m,
                                  d_step_projected, w.d_states.data() + static_cast<std::ptrdiff_t>(i) * B * m, B,
                                  nn::WeightGradients::kDeferred);
      math::gemm_raw(Transpose::kNo, Transpose::kYes, B, D, G, 1.0f, d_step_projected, G, context_weight, G, 1.0f,
                     w.d_contexts.data() + static_cast<std::ptrdiff_t>(i) * B * D, D);
    }
    w.d_context_step = w.d_contexts.middleRows(static_cast<Eigen::Index>(i) * B, B);
    w.d_query_step.setZero();
    const math::Matrix* d_weights = nullptr;
    if (guided && w.guided_steps[static_cast<std::size_t>(i)]) {
      // Scaled like the cross-entropy.
      guided_step_gradient(w.attention_steps[i].weights, batch.guide, i,
                           gradient_scale * options.guided_alignment_weight, w.d_weights_step);
      d_weights = &w.d_weights_step;
    }
    attention_->step_backward(w.attention_steps[i], w.d_context_step, d_weights, w.d_query_step, w.d_annotations,
                              w.d_keys, nn::WeightGradients::kDeferred);
    if (deferred > 0) {
      w.d_projected_queries.middleRows(static_cast<Eigen::Index>(i) * B, B) = w.attention_steps[i].d_projected_query;
    }
    w.d_states.middleRows(static_cast<Eigen::Index>(i) * B, B) += w.d_query_step;
  }
  // The per-step weight gradients, all steps at once: the GRU's U (steps 0..T-2; row
  // block i of the states is s_{i-1}, the state step i started from) and W_a, b_a.
  decoder_.recurrent_weights_backward(w.states.data(), w.reset_states.data(), w.d_projected.data(),
                                      (T - 1) * B);
  if (deferred > 0) attention_->query_weights_backward(w.states.data(), w.d_projected_queries.data(), static_cast<int>(TB));

  // The decoder input projection's weights, over all steps at once.
  math::gemm_raw(Transpose::kYes, Transpose::kNo, e, G, static_cast<int>(TB), 1.0f, w.embedded.data(), e,
                 w.d_projected.data(), G, 1.0f, gru_weight.gradient.data(), G);
  math::gemm_raw(Transpose::kYes, Transpose::kNo, D, G, static_cast<int>(TB), 1.0f, w.contexts.data(), D,
                 w.d_projected.data(), G, 1.0f, gru_weight.gradient.data() + static_cast<std::ptrdiff_t>(e) * G, G);
  gru_bias.gradient.row(0) += w.d_projected.colwise().sum();
  math::gemm_raw(Transpose::kNo, Transpose::kYes, static_cast<int>(TB), e, G, 1.0f, w.d_projected.data(), G,
                 gru_weight.value.data(), G, 1.0f, w.d_embedded.data(), e);
  if (dropout) w.d_embedded.array() *= w.target_dropout.array();
  target_embedding_.backward(batch.target_input, w.d_embedded);

  // s_0 = tanh(M W_s + b_s), M the masked mean of the annotations.
  w.d_initial_pre = w.d_states.topRows(B).array() * (1.0f - w.initial_state.array().square());
  w.d_mean.setZero(B, D);
  init_.backward(w.mean, w.d_initial_pre, &w.d_mean);
  const Eigen::VectorXf lengths = batch.source_mask.colwise().sum().transpose();
  for (Eigen::Index j = 0; j < S; ++j) {
    for (Eigen::Index b = 0; b < B; ++b) {
      if (batch.source_mask(j, b) != 0.0f) w.d_annotations.row(j * B + b) += w.d_mean.row(b) / lengths(b);
    }
  }
  attention_->keys_backward(w.annotations, w.d_keys, w.d_annotations);
  encoder_.backward(w.encoder, w.d_annotations);
  return result;
}

nn::CrossEntropySum RnnSearch::alignment_head_loss(const data::Batch& batch, const LossOptions& options,
                                                   float gradient_scale) {
  Workspace& w = *work_;
  const int B = batch.sentences, S = batch.source_length, T = batch.target_length;
  const int e = config_.embedding, D = 2 * config_.encoder_hidden, m = config_.decoder_hidden;
  const int A = alignment_head_->key_dim();
  const Eigen::Index TB = static_cast<Eigen::Index>(T) * B;

  // Queries [s_{i-1}; E_y y_i] of every step at once, then the head's steps.
  target_embedding_.forward(batch.target_output, w.head_embedded);
  w.head_queries.resize(TB, m + e);
  w.head_queries.leftCols(m) = w.states;
  w.head_queries.rightCols(e) = w.head_embedded;
  alignment_head_->precompute_keys(w.annotations, w.head_keys);
  if (static_cast<int>(w.head_steps.size()) < T) w.head_steps.resize(static_cast<std::size_t>(T));
  for (int i = 0; i < T; ++i) {
    w.query = w.head_queries.middleRows(static_cast<Eigen::Index>(i) * B, B);
    alignment_head_->step(w.query, w.annotations, w.head_keys, batch.source_mask, w.head_steps[i], w.head_context,
                          w.head_weights);
  }

  nn::CrossEntropySum result;
  result.tokens = static_cast<std::size_t>((batch.target_mask.array() != 0.0f).count());
  const bool guided = options.guided_alignment_weight != 0.0f && batch.guide.size() > 0;
  if (!guided) return result;
  result.loss = static_cast<double>(options.guided_alignment_weight) *
                guided_cost(w.head_steps, batch.guide, T, w.guided_steps);
  if (gradient_scale == 0.0f) return result;

  // Backward into the head's parameters only: the input gradients go to scratch.
  w.head_d_keys.setZero(static_cast<Eigen::Index>(S) * B, A);
  w.head_d_annotations.setZero(static_cast<Eigen::Index>(S) * B, D);
  w.head_d_query.resize(B, m + e);
  w.head_d_context.setZero(B, D);
  w.head_d_projected_queries.setZero(TB, A);
  for (int i = 0; i < T; ++i) {
    if (!w.guided_steps[static_cast<std::size_t>(i)]) continue;
    guided_step_gradient(w.head_steps[i].weights, batch.guide, i, gradient_scale * options.guided_alignment_weight,
                         w.d_weights_step);
    w.head_d_query.setZero();
    alignment_head_->step_backward(w.head_steps[i], w.head_d_context, &w.d_weights_step, w.head_d_query,
                                   w.head_d_annotations, w.head_d_keys, nn::WeightGradients::kDeferred);
    w.head_d_projected_queries.middleRows(static_cast<Eigen::Index>(i) * B, B) =
        w.head_steps[i].d_projected_query;
  }
  alignment_head_->query_weights_backward(w.head_queries.data(), w.head_d_projected_queries.data(),
                                          static_cast<int>(TB));
  alignment_head_->keys_backward(w.annotations, w.head_d_keys, w.head_d_annotations);
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
  LossOptions options;
  options.alignment_head_only = head;
  loss(batch, options, 0.0f);  // fills the attention (or head) caches of every step
  const auto& steps = head ? work_->head_steps : work_->attention_steps;
  const int B = batch.sentences;
  std::vector<math::Matrix> out(static_cast<std::size_t>(B));
  for (int b = 0; b < B; ++b) {
    int target_rows = 0, source_columns = 0;
    for (int t = 0; t < batch.target_length; ++t) target_rows += batch.target_mask(t, b) != 0.0f ? 1 : 0;
    for (int j = 0; j < batch.source_length; ++j) source_columns += batch.source_mask(j, b) != 0.0f ? 1 : 0;
    out[b].resize(target_rows, source_columns);
    for (int t = 0; t < target_rows; ++t) out[b].row(t) = steps[t].weights.row(b).head(source_columns);
  }
  return out;
}

void RnnSearch::encode(const std::vector<std::int32_t>& source, const math::Matrix& source_mask, EncoderOutput& out) {
  const math::RowStableProducts row_stable;  // a sentence's annotations do not depend on its batch
  const int B = static_cast<int>(source_mask.cols());
  out.sentences = B;
  out.source_length = static_cast<int>(source_mask.rows());
  out.source_mask = source_mask;
  encoder_.forward(source, source_mask, work_->encoder, out.annotations);
  attention_->precompute_keys(out.annotations, out.keys);
  initial_state_forward(out.annotations, source_mask, B, work_->mean, out.initial_state);
}

void select_sentences(const EncoderOutput& in, const std::vector<int>& rows, EncoderOutput& out) {
  const int B = in.sentences, S = in.source_length, R = static_cast<int>(rows.size());
  out.sentences = R;
  out.source_length = S;
  out.annotations.resize(static_cast<Eigen::Index>(S) * R, in.annotations.cols());
  out.keys.resize(static_cast<Eigen::Index>(S) * R, in.keys.cols());
  out.source_mask.resize(S, R);
  out.initial_state.resize(R, in.initial_state.cols());
  for (int r = 0; r < R; ++r) {
    const int b = rows[static_cast<std::size_t>(r)];
    if (b < 0 || b >= B) throw util::Error("select_sentences: sentence " + std::to_string(b) + " of " + std::to_string(B));
    for (int j = 0; j < S; ++j) {
      out.annotations.row(static_cast<Eigen::Index>(j) * R + r) = in.annotations.row(static_cast<Eigen::Index>(j) * B + b);
      out.keys.row(static_cast<Eigen::Index>(j) * R + r) = in.keys.row(static_cast<Eigen::Index>(j) * B + b);
    }
    out.source_mask.col(r) = in.source_mask.col(b);
    out.initial_state.row(r) = in.initial_state.row(b);
  }
}

void RnnSearch::decoder_step(const EncoderOutput& encoded, const std::vector<std::int32_t>& previous,
                             const math::Matrix& state, math::Matrix& log_probs, math::Matrix& next_state,
                             math::Matrix& weights) {
  const math::RowStableProducts row_stable;  // a hypothesis's scores do not depend on its batch
  Workspace& w = *work_;
  const int B = encoded.sentences, e = config_.embedding, D = 2 * config_.encoder_hidden;
  if (static_cast<int>(previous.size()) != B) {
    throw util::Error("decoder_step: " + std::to_string(previous.size()) + " previous tokens for " +
                      std::to_string(B) + " sentences");
  }
  math::check_shape(state, B, config_.decoder_hidden, "decoder_step state");
  target_embedding_.forward(previous, w.step_embedded);  // [B x e]
  attention_->step(state, encoded.annotations, encoded.keys, encoded.source_mask, w.step_attention, w.context, weights);
  deep_output_.forward(state, w.step_embedded, w.context, w.step_deep, w.step_readout);
  output_forward(w.step_readout, log_probs);
  log_softmax_rows(log_probs);
  w.step_input.resize(B, e + D);  // [E_y y_{i-1}; c_i]
  w.step_input.leftCols(e) = w.step_embedded;
  w.step_input.rightCols(D) = w.context;
  decoder_.project_inputs(w.step_input, w.step_projected);
  decoder_.step(w.step_projected, state, next_state, w.step_gru);
}

}  // namespace rnnsearch::model
