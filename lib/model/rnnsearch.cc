#include "model/rnnsearch.h"

#include <cmath>
#include <limits>

#include "math/elementwise.h"
#include "math/gemm.h"
#include "math/shape_check.h"
#include "math/vector_ops.h"
#include "model/rnnsearch_workspace.h"
#include "nn/init.h"
#include "util/error.h"

namespace rnnsearch::model {

using math::Transpose;

namespace {

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// log sum_j exp(row_j), the same expression for a full row and a gathered one.
float log_sum_exp(const math::Matrix& m, Eigen::Index r) {
  return math::log_sum_exp(m.row(r).data(), static_cast<int>(m.cols()));
}

void log_softmax_rows(math::Matrix& m) {
  for (Eigen::Index r = 0; r < m.rows(); ++r) math::subtract_scalar(log_sum_exp(m, r), m.row(r).data(), m.cols());
}

// Row r of `logits` normalized over its columns allowed[r] (the others -infinity); the
// allowed values are first gathered into `scratch` ([1 x |allowed|]).
void log_softmax_allowed(math::Matrix& logits, const std::vector<const std::vector<int>*>& allowed,
                         math::Matrix& scratch) {
  constexpr float kMinusInfinity = -std::numeric_limits<float>::infinity();
  for (Eigen::Index r = 0; r < logits.rows(); ++r) {
    const std::vector<int>& columns = *allowed[static_cast<std::size_t>(r)];
    scratch.resize(1, static_cast<Eigen::Index>(columns.size()));
    for (std::size_t k = 0; k < columns.size(); ++k) scratch(0, static_cast<Eigen::Index>(k)) = logits(r, columns[k]);
    const float log_sum = log_sum_exp(scratch, 0);
    logits.row(r).setConstant(kMinusInfinity);
    for (std::size_t k = 0; k < columns.size(); ++k) {
      logits(r, columns[k]) = scratch(0, static_cast<Eigen::Index>(k)) - log_sum;
    }
  }
}

nn::GruOptions gru_options(const ModelOptions& config) { return {config.layer_norm, false}; }

std::unique_ptr<nn::Gru> make_context_gru(nn::ParameterRegistry& parameters, const ModelOptions& config) {
  if (!config.conditional_decoder()) return nullptr;
  return std::make_unique<nn::Gru>(parameters, "decoder.gru2", 2 * config.encoder_hidden, config.decoder_hidden,
                                   gru_options(config));
}

std::vector<std::unique_ptr<nn::Gru>> make_decoder_transitions(nn::ParameterRegistry& parameters,
                                                               const ModelOptions& config) {
  std::vector<std::unique_ptr<nn::Gru>> cells;
  for (int k = 3; k <= config.decoder_depth; ++k) {
    cells.push_back(std::make_unique<nn::Gru>(parameters, "decoder.gru" + std::to_string(k), 0, config.decoder_hidden,
                                              nn::GruOptions{config.layer_norm, true}));
  }
  return cells;
}

// Layer normalisation's gains start at 1, so that a new model computes its GRUs as
// normalized products alone.
bool is_gain(const std::string& name) {
  return ends_with(name, ".gain_in") || ends_with(name, ".gain_zr") || ends_with(name, ".gain_h");
}

}  // namespace

RnnSearch::RnnSearch(const ModelOptions& config)
    : config_((config.validate(), config)),
      encoder_(parameters_, "encoder", config.source_vocabulary, config.embedding, config.encoder_hidden,
               config.encoder_depth, gru_options(config)),
      init_(parameters_, "decoder.init", 2 * config.encoder_hidden, config.decoder_hidden),
      target_embedding_(parameters_, "decoder.embedding", config.target_vocabulary, config.embedding),
      attention_(nn::make_attention(config.attention_form, parameters_, "decoder.attention", 2 * config.encoder_hidden,
                                    config.decoder_hidden, config.attention)),
      decoder_(parameters_, "decoder.gru",
               config.embedding + (config.conditional_decoder() ? 0 : 2 * config.encoder_hidden), config.decoder_hidden,
               gru_options(config)),
      context_gru_(make_context_gru(parameters_, config)),
      decoder_transitions_(make_decoder_transitions(parameters_, config)),
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
    } else if (is_gain(name)) {
      p->value.setOnes();
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
  for (Eigen::Index b = 0; b < state.rows(); ++b) {
    math::tanh_array(state.row(b).data(), state.row(b).data(), static_cast<int>(state.cols()));
  }
}

void RnnSearch::set_inference_precision(math::Precision precision) {
  math::check_precision_supported(precision);
  encoder_.set_inference_precision(precision);
  attention_->set_inference_precision(precision);
  const bool reduced = precision != math::Precision::kFp32;
  // The paper's decoder multiplies the context rows of its W apart (project_inputs_tail);
  // the conditional one's GRU_1 reads the word alone, whose products come from the table.
  decoder_.set_inference_precision(precision, reduced && !config_.conditional_decoder() ? config_.embedding : 0);
  if (context_gru_) context_gru_->set_inference_precision(precision);
  for (auto& cell : decoder_transitions_) cell->set_inference_precision(precision);
  deep_output_.set_inference_precision(precision);
  if (reduced) {
    work_->word_products.reset(parameters_.get("decoder.embedding.E").value, decoder_.input_weight().value,
                               deep_output_.embedding_weight().value);
  }
  const math::Matrix& weight = output_weight_ ? output_weight_->value : parameters_.get("decoder.embedding.E").value;
  packed_output_ = math::pack_for_inference(weight, precision, output_weight_ ? Transpose::kNo : Transpose::kYes);
  precision_ = precision;
}

void RnnSearch::output_forward(const math::Matrix& t, math::Matrix& logits) const {
  const math::Matrix& weight = output_weight_ ? output_weight_->value : parameters_.get("decoder.embedding.E").value;
  logits.resize(t.rows(), config_.target_vocabulary);  // [N x V]
  math::gemm(t, packed_output_.get(), weight, output_weight_ ? Transpose::kNo : Transpose::kYes, logits, 1.0f, 0.0f,
             "decoder.output.W");
  math::add_row_to_rows(logits, output_bias_.value);
}

void RnnSearch::output_backward(const math::Matrix& t, const math::Matrix& d_logits, math::Matrix& d_t,
                                const TransposedWeights& transposed) {
  d_t.resize(t.rows(), t.cols());
  output_bias_.gradient.row(0) += d_logits.colwise().sum();
  if (output_weight_) {
    math::gemm(t, Transpose::kYes, d_logits, Transpose::kNo, output_weight_->gradient, 1.0f, 1.0f, "decoder.output.W");
    math::check_shape(transposed.output, config_.target_vocabulary, config_.maxout, "decoder.output.W transposed copy");
    math::gemm(d_logits, Transpose::kNo, transposed.output, Transpose::kNo, d_t, 1.0f, 0.0f, "decoder.output.W");
  } else {
    nn::Parameter& table = parameters_.get("decoder.embedding.E");  // [V x l]
    math::gemm(d_logits, Transpose::kYes, t, Transpose::kNo, table.gradient, 1.0f, 1.0f, "decoder.output (tied)");
    math::gemm(d_logits, Transpose::kNo, table.value, Transpose::kNo, d_t, 1.0f, 0.0f, "decoder.output (tied)");
  }
}

void RnnSearch::encode(const std::vector<std::int32_t>& source, const math::Matrix& source_mask, EncoderOutput& out) {
  const math::RowStableProducts row_stable;  // a sentence's annotations do not depend on its batch
  const int B = static_cast<int>(source_mask.cols());
  out.sentences = B;
  out.source_length = static_cast<int>(source_mask.rows());
  out.source_mask = source_mask;
  encoder_.forward(source, source_mask, work_->encoder, out.annotations, nullptr, nn::Pass::kForwardOnly);
  attention_->precompute_keys(out.annotations, out.keys);
  initial_state_forward(out.annotations, source_mask, B, work_->mean, out.initial_state);
}

void RnnSearch::step_to_readout(const EncoderOutput& encoded, const std::vector<int>* row_sentence,
                                const std::vector<std::int32_t>& previous, const math::Matrix& state,
                                math::Matrix& next_state, math::Matrix& weights) {
  Workspace& w = *work_;
  const int B = row_sentence ? static_cast<int>(row_sentence->size()) : encoded.sentences;
  const int e = config_.embedding, D = 2 * config_.encoder_hidden;
  if (static_cast<int>(previous.size()) != B) {
    throw util::Error("decoder_step: " + std::to_string(previous.size()) + " previous tokens for " +
                      std::to_string(B) + " rows");
  }
  math::check_shape(state, B, config_.decoder_hidden, "decoder_step state");
  if (config_.conditional_decoder()) {
    if (precision_ != math::Precision::kFp32) {
      w.word_products.lookup(previous, w.step_projected, w.step_word_deep);
      decoder_.add_input_bias(w.step_projected);
    } else {
      target_embedding_.forward(previous, w.step_embedded);  // [B x e]
      decoder_.project_inputs(w.step_embedded, w.step_projected);
    }
    conditional_step(encoded, row_sentence, state, next_state, weights);
    if (precision_ != math::Precision::kFp32) {
      deep_output_.forward_with_embedding_product(next_state, w.step_word_deep, w.context, w.step_deep, w.step_readout);
    } else {
      deep_output_.forward(next_state, w.step_embedded, w.context, w.step_deep, w.step_readout);
    }
    return;
  }
  attention_->step(state, encoded.annotations, encoded.keys, encoded.source_mask, w.step_attention, w.context, weights,
                   row_sentence);
  if (precision_ != math::Precision::kFp32) {  // the previous word's products from the table
    w.word_products.lookup(previous, w.step_word_gru, w.step_word_deep);
    deep_output_.forward_with_embedding_product(state, w.step_word_deep, w.context, w.step_deep, w.step_readout);
    decoder_.project_inputs_tail(w.context, w.step_word_gru, w.step_projected);
  } else {
    target_embedding_.forward(previous, w.step_embedded);  // [B x e]
    deep_output_.forward(state, w.step_embedded, w.context, w.step_deep, w.step_readout);
    w.step_input.resize(B, e + D);  // [E_y y_{i-1}; c_i]
    w.step_input.leftCols(e) = w.step_embedded;
    w.step_input.rightCols(D) = w.context;
    decoder_.project_inputs(w.step_input, w.step_projected);
  }
  next_state.resize(B, config_.decoder_hidden);
  decoder_.step(w.step_projected, state, next_state, w.step_gru);
}

void RnnSearch::decoder_step(const EncoderOutput& encoded, const std::vector<int>* row_sentence,
                             const std::vector<std::int32_t>& previous, const math::Matrix& state,
                             math::Matrix& log_probs, math::Matrix& next_state, math::Matrix& weights) {
  const math::RowStableProducts row_stable;  // a hypothesis's scores do not depend on its batch
  step_to_readout(encoded, row_sentence, previous, state, next_state, weights);
  output_forward(work_->step_readout, log_probs);
  log_softmax_rows(log_probs);
}

void RnnSearch::gather_output_columns(OutputColumns& columns) const {
  const auto U = static_cast<Eigen::Index>(columns.ids.size());
  for (const std::int32_t id : columns.ids) {
    if (id < 0 || id >= config_.target_vocabulary) {
      throw util::Error("gather_output_columns: id " + std::to_string(id) + " outside the target vocabulary");
    }
  }
  columns.bias.resize(1, U);
  for (Eigen::Index c = 0; c < U; ++c) columns.bias(0, c) = output_bias_.value(0, columns.ids[static_cast<std::size_t>(c)]);
  if (packed_output_) {
    // Each column packs alone (per-column int8 scale, bf16 per element): U's columns are
    // the full layer's packed columns, copied.
    columns.packed = std::make_unique<const math::PackedMatrix>(*packed_output_, columns.ids);
    columns.weight.resize(0, 0);
    return;
  }
  columns.packed.reset();
  const math::Matrix& table = output_weight_ ? output_weight_->value : parameters_.get("decoder.embedding.E").value;
  if (output_weight_) {
    columns.weight.resize(output_weight_->value.rows(), U);  // [l x |U|]
  } else {
    columns.weight.resize(U, config_.maxout);  // E_y rows: [|U| x l]
  }
  for (Eigen::Index c = 0; c < U; ++c) {
    const std::int32_t id = columns.ids[static_cast<std::size_t>(c)];
    if (output_weight_) {
      columns.weight.col(c) = table.col(id);
    } else {
      columns.weight.row(c) = table.row(id);
    }
  }
}

void RnnSearch::decoder_step(const EncoderOutput& encoded, const std::vector<int>* row_sentence,
                             const std::vector<std::int32_t>& previous, const math::Matrix& state,
                             const OutputColumns& columns,
                             const std::vector<const std::vector<int>*>& allowed, math::Matrix& log_probs,
                             math::Matrix& next_state, math::Matrix& weights) {
  const math::RowStableProducts row_stable;  // a hypothesis's scores do not depend on its batch
  const std::size_t rows = row_sentence ? row_sentence->size() : static_cast<std::size_t>(encoded.sentences);
  if (allowed.size() != rows) {
    throw util::Error("decoder_step: " + std::to_string(allowed.size()) + " allowed sets for " +
                      std::to_string(rows) + " rows");
  }
  step_to_readout(encoded, row_sentence, previous, state, next_state, weights);
  const math::Matrix& t = work_->step_readout;
  log_probs.resize(t.rows(), static_cast<Eigen::Index>(columns.ids.size()));  // [B x |U|]
  math::gemm(t, columns.packed.get(), columns.weight, output_weight_ ? Transpose::kNo : Transpose::kYes, log_probs,
             1.0f, 0.0f, "decoder.output.W (shortlist)");
  math::add_row_to_rows(log_probs, columns.bias);
  log_softmax_allowed(log_probs, allowed, work_->step_allowed);
}

}  // namespace rnnsearch::model
