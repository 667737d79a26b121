#pragma once
// RNNsearch (Bahdanau, Cho and Bengio 2015, appendix A) composed from nn/ layers:
//   h_j   = [fwd_j; bwd_j]                    BiEncoder over E_x x_j
//   s_0   = tanh(mean_j(h_j) W_s + b_s)       masked mean over the real source positions
//   c_i   = attention(s_{i-1}, h)             the config's nn::Attention form: additive (keys h U_a
//                                             once per batch), general, dot or none (a fixed c)
//   s_i   = GRU(s_{i-1}, [E_y y_{i-1}; c_i])
//   t_i   = maxout_2(s_{i-1} U_o + E_y y_{i-1} V_o + c_i C_o + b_o)     DeepOutput
//   p(y_i) = softmax(t_i W_out + b_out)       W_out = E_y^T with tied embeddings
// Dropout (inverted) on both embeddings and on t_i, in training only.
//
// Options of the field's later RNN systems (Nematus, Marian --type s2s), off by default:
// layer normalisation inside every GRU (config.layer_norm, nn::Gru), deep-transition
// encoder GRUs (config.encoder_depth, nn::DeepGru), and with config.decoder_depth = D > 1
// the conditional GRU decoder (Sennrich et al. 2017, "Nematus"; Miceli Barone et al. 2017):
//   s'_i  = GRU_1(s_{i-1}, E_y y_{i-1})        "decoder.gru", input e
//   c_i   = attention(s'_i, h)
//   s_i   = T_D(... T_3(GRU_2(s'_i, c_i)))     "decoder.gru2", input 2n; transition cells
//                                              "decoder.gru3" ... "decoder.gruD"
//   t_i   = maxout_2(s_i U_o + E_y y_{i-1} V_o + c_i C_o + b_o)
// so the attention reads a state that has seen y_{i-1}, and the readout the new state.
//
// Optional alignment head (config.alignment_head = A' > 0; Zenkel et al. 2019 and Garg et
// al. 2019 add such a layer for alignment): a second additive attention whose query also
// reads the word being emitted,
//   beta_i = softmax_j(v_b^T tanh([s_{i-1}; E_y y_i] W_b + b_b + h_j U_b)),
// so it can point at the source word that y_i translates, which alpha_i (computed before
// y_i is known) can only guess. It feeds nothing back into translation: it is trained
// with the guided-alignment cost alone, over a frozen translation model
// (LossOptions::alignment_head_only), and read by forced_attention.
//
// Speed structure (DESIGN.md): the target-embedding half of the decoder GRU's input
// projection, the deep output and the softmax layer each run as one GEMM over all target
// rows of a batch (the softmax layer over real rows only); only the attention, the
// context half of the input projection and the recurrent products run per step. Their
// weight gradients are again one GEMM over all rows after the backward loop.
//
// One object holds one set of parameters and the scratch buffers of one batch: data-
// parallel training keeps one replica per thread.
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "data/batch.h"
#include "math/packed_matrix.h"
#include "math/precision.h"
#include "math/product_precision.h"
#include "math/types.h"
#include "model/model_options.h"
#include "nn/attention.h"
#include "nn/bi_encoder.h"
#include "nn/cross_entropy.h"
#include "nn/deep_output.h"
#include "nn/embedding.h"
#include "nn/gru.h"
#include "nn/linear.h"
#include "nn/parameters.h"
#include "util/rng.h"

namespace rnnsearch::model {

enum class Initialization {
  kPaper,   // appendix B.1: orthogonal recurrent blocks, N(0, 0.01^2) weights, N(0, 0.001^2) attention, zero biases
  kXavier,  // orthogonal recurrent blocks, Glorot-scaled Gaussian weights, zero biases (trains faster)
};

// Copies of the weights the backward pass multiplies transposed, so that its per-step
// products run as A B (nn::Gru::TransposedRecurrent says why): the GRUs' recurrent
// weights, the decoder's context weights, the attention's query weights, the output
// layer's weights (oneDNN: 250 against 200 GFLOP/s at 800 x 256 x 4388). Made from the
// current values by RnnSearch::transpose_weights; a loss given them (LossOptions::transposed)
// reads them instead of making its own, so data-parallel replicas, whose values are the
// same, share one set made once per update.
struct TransposedWeights {
  nn::BiEncoder::TransposedRecurrent encoder;
  nn::Gru::TransposedRecurrent decoder;
  // The conditional decoder's other cells: decoder.gru2, then the transition cells (an
  // array, so that parts made at the same time never resize it).
  std::array<nn::Gru::TransposedRecurrent, kMaxCellDepth> decoder_cells;
  // The context's input weights, transposed: [3m x 2n], rows e.. of decoder.gru.W (or
  // decoder.gru2.W, conditional).
  math::Matrix context;
  nn::Attention::TransposedWeights attention;  // additive: W_a^T
  math::Matrix output;                         // W_out^T: [V_y x l]; empty with tied embeddings
};

struct LossOptions {
  float dropout = 0.0f;          // probability of zeroing an embedding or deep-output unit
  float label_smoothing = 0.0f;  // eps of nn::softmax_cross_entropy
  // Guided alignment (Marian's --guided-alignment-cost ce): for a batch with a guide g
  // (data::Batch::guide), adds to the loss
  //   weight * sum over target rows i with links of -sum_j g_ij log(alpha_ij + 1e-6),
  // alpha_i the attention weights of step i. 0 (or a batch without a guide): no term.
  float guided_alignment_weight = 0.0f;
  // Train the alignment head only: the loss is the weighted guided-alignment cost of the
  // head's weights beta (no translation cost, no dropout), and only the head's parameters
  // get gradients. Needs a model with an alignment head.
  bool alignment_head_only = false;
  // The matrix products of a loss with gradients (math/product_precision.h); a loss
  // without gradients (validation) multiplies in fp32.
  math::Precision precision = math::Precision::kFp32;
  // Made by transpose_weights from this model's current values (or those of a model with
  // the same values); null: the backward pass makes its own.
  const TransposedWeights* transposed = nullptr;
};

// Which weights forced_attention returns: the decoder's attention alpha, or the
// alignment head's beta.
enum class AttentionSource { kDecoder, kAlignmentHead };

// The encoder's results for a batch of B sentences, what every decoder step reads.
struct EncoderOutput {
  int sentences = 0, source_length = 0;  // B, S
  math::Matrix annotations;              // h: [(S*B) x 2n]
  math::Matrix keys;                     // the attention's keys, h U_a for additive: [(S*B) x key_dim]
  math::Matrix source_mask;              // [S x B]
  math::Matrix initial_state;            // s_0: [B x m]
};

// The output layer over some columns of the target vocabulary, for decoding with a
// shortlist: gathered once per batch by RnnSearch::gather_output_columns.
struct OutputColumns {
  std::vector<std::int32_t> ids;  // U: vocabulary ids, ascending; compact column c is word ids[c]
  // fp32: W_out's columns U: [l x |U|]; with tied embeddings E_y's rows U: [|U| x l].
  // Empty in int8 and bf16, which multiply by `packed` alone.
  math::Matrix weight;
  math::Matrix bias;              // b_out's columns U: [1 x |U|]
  // int8, bf16: the columns U of the output layer's packed copy (null: fp32).
  std::unique_ptr<const math::PackedMatrix> packed;
};

class RnnSearch {
 public:
  explicit RnnSearch(const ModelOptions& config);
  ~RnnSearch();
  RnnSearch(const RnnSearch&) = delete;
  RnnSearch& operator=(const RnnSearch&) = delete;

  const ModelOptions& config() const { return config_; }
  // False for --attention none: the decoder has no alignment, and forced_attention and the
  // weights of decoder_step (all zero) mean nothing.
  bool has_attention() const { return attention_->has_weights(); }
  bool has_alignment_head() const { return alignment_head_ != nullptr; }
  nn::ParameterRegistry& parameters() { return parameters_; }
  const nn::ParameterRegistry& parameters() const { return parameters_; }
  void initialize(Initialization init, util::Rng& rng);
  // Copies every parameter value from `other` (same config).
  void copy_parameters_from(const RnnSearch& other);
  // Copies every parameter of `other` into the one of the same name here (a model that
  // differs only by its alignment head); throws util::Error when one is missing or has
  // another shape.
  void copy_matching_parameters_from(const RnnSearch& other);

  // The training objective of the batch: its teacher-forced cross-entropy summed over its
  // target tokens, plus the weighted guided-alignment cost when options and batch ask
  // for it (so the returned loss is what the gradient is of; tokens counts the target
  // tokens only). With gradient_scale != 0, adds gradient_scale * d(loss sum) into the
  // parameter gradients (pass 1/tokens of the whole update for a per-token mean); with
  // gradient_scale == 0 only the forward pass runs and keeps nothing for a backward one.
  // dropout_rng is needed when options.dropout > 0.
  nn::CrossEntropySum loss(const data::Batch& batch, const LossOptions& options, float gradient_scale,
                           util::Rng* dropout_rng = nullptr);
  // Fills the pieces of `out` that fall to part `part` of `parts` (pieces go to parts by
  // size): parts made at the same time, one per thread, make all of it.
  void transpose_weights(TransposedWeights& out, int part = 0, int parts = 1) const;

  // Teacher-forced attention of every pair of the batch (no dropout): out[b] is
  // [(target length + 1) x (source length + 1)], one row per target token and </s>, one
  // column per source token and </s>; row i holds the weights of the step that emits
  // target token i. Runs the forward pass up to the weights only (no output layer, nothing
  // kept for backward). Throws util::Error for a model without the weights asked for.
  std::vector<math::Matrix> forced_attention(const data::Batch& batch,
                                             AttentionSource source = AttentionSource::kDecoder);

  // Inference interface (the decoder and aligner build on it).
  // source: S*B ids (t*B + b, </s>-terminated, padded), source_mask: [S x B].
  void encode(const std::vector<std::int32_t>& source, const math::Matrix& source_mask, EncoderOutput& out);
  // One decoder step for B rows: row r continues sentence row_sentence[r] of `encoded`
  // (null: row r is sentence r, B = encoded.sentences; the hypotheses of a beam share
  // their sentence's encoding this way, nothing copied, and each row's numbers are the
  // same whatever the other rows). Reads y_{i-1} (previous: B ids) and s_{i-1} (state:
  // [B x m]); writes log p(y_i | ...) into log_probs [B x V], s_i into next_state [B x m]
  // and the attention weights alpha_i into weights [B x S] (all resized).
  void decoder_step(const EncoderOutput& encoded, const std::vector<int>* row_sentence,
                    const std::vector<std::int32_t>& previous, const math::Matrix& state, math::Matrix& log_probs,
                    math::Matrix& next_state, math::Matrix& weights);
  // columns.weight and bias for columns.ids (ascending ids of the target vocabulary).
  void gather_output_columns(OutputColumns& columns) const;
  // decoder_step with the output layer restricted to `columns`: log_probs is [B x |U|],
  // column c for word columns.ids[c]; row r is a log-softmax over its allowed columns
  // allowed[r] (ascending compact indices) only, every other column -infinity. Each logit
  // is the same product as in the full layer (math::row_stable_gemm: one chain over the
  // hidden units, whatever the other columns), and the normalizer reads the allowed values
  // alone, in id order: a row's scores do not depend on U, so not on the batch; with every
  // column allowed they are the full step's bits.
  void decoder_step(const EncoderOutput& encoded, const std::vector<int>* row_sentence,
                    const std::vector<std::int32_t>& previous, const math::Matrix& state, const OutputColumns& columns,
                    const std::vector<const std::vector<int>*>& allowed, math::Matrix& log_probs, math::Matrix& next_state, math::Matrix& weights);

  // The arithmetic of the weight products from now on (math/precision.h): int8 or bf16
  // pack copies of the weights once (the encoder GRUs' input and recurrent weights, the
  // attention's U_a and W_a, the decoder GRU's, the deep output's U, V, C and the output
  // layer's W_out), which encode, decoder_step and forced_attention then multiply with;
  // fp32 (the default) multiplies the parameters. The initial state's product stays fp32.
  // For inference only: the copies are of the parameters now (set it again after they
  // change) and training must not run with another precision than fp32. Throws
  // util::UsageError for bf16 on a CPU without it.
  void set_inference_precision(math::Precision precision);
  math::Precision inference_precision() const { return precision_; }

 private:
  struct Workspace;
  void output_forward(const math::Matrix& t, math::Matrix& logits) const;
  // The decoder step up to the readout t_i (work_->step_readout), with s_i and alpha_i.
  void step_to_readout(const EncoderOutput& encoded, const std::vector<int>* row_sentence,
                       const std::vector<std::int32_t>& previous,
                       const math::Matrix& state, math::Matrix& next_state, math::Matrix& weights);
  void output_backward(const math::Matrix& t, const math::Matrix& d_logits, math::Matrix& d_t,
                       const TransposedWeights& transposed);
  void initial_state_forward(const math::Matrix& annotations, const math::Matrix& source_mask, int B,
                             math::Matrix& mean, math::Matrix& state) const;

  // The teacher-forced passes over a batch (rnnsearch_teacher_forced.cc), through the
  // workspace. forward: the encoder, the decoder's inputs and its recurrence, up to the
  // states and attention weights of every step (dropout: the probability, 0 for none);
  // output_loss: the deep output, the softmax layer and the guided-alignment cost;
  // backward: the gradients of all of them, in reverse order.
  void forward(const data::Batch& batch, float dropout, util::Rng* dropout_rng, nn::Pass pass);
  void encoder_forward(const data::Batch& batch, float dropout, util::Rng* dropout_rng, nn::Pass pass);
  void decoder_inputs_forward(const data::Batch& batch, float dropout, util::Rng* dropout_rng);
  void decoder_forward(const data::Batch& batch, nn::Pass pass);
  // With kForwardBackward, the gradient of the logits is kept, scaled by gradient_scale.
  nn::CrossEntropySum output_loss(const data::Batch& batch, const LossOptions& options, util::Rng* dropout_rng,
                                  nn::Pass pass, float gradient_scale);
  void backward(const data::Batch& batch, const LossOptions& options, float gradient_scale);
  void output_loss_backward(const TransposedWeights& transposed);
  void decoder_backward(const data::Batch& batch, const LossOptions& options, float gradient_scale,
                        const TransposedWeights& transposed);
  void decoder_weights_backward(const data::Batch& batch);
  // Both decoders' step i backward: GRU_1's step for the gradient dh of its output (into
  // block i of the GRU's input-projection gradient and of d_states); the attention's step
  // for block i of d_contexts and the guided-alignment term (its query's gradient added
  // into work_->d_query_step).
  void first_cell_step_backward(int i, const math::ConstMatrixRef& dh, const TransposedWeights& transposed);
  void attention_step_backward(const data::Batch& batch, const LossOptions& options, float gradient_scale, int i,
                               const TransposedWeights& transposed);
  void encoder_backward(const data::Batch& batch, const TransposedWeights& transposed);
  // The alignment head over the states of the forward pass: its weights for every step,
  // then its guided cost (result.loss) and, with gradient_scale != 0, its parameters'
  // gradients.
  void alignment_head_forward(const data::Batch& batch, nn::Pass pass);
  nn::CrossEntropySum alignment_head_loss(const data::Batch& batch, const LossOptions& options, float gradient_scale);
  void alignment_head_backward(const data::Batch& batch, const LossOptions& options, float gradient_scale);

  // The conditional decoder (rnnsearch_conditional.cc): its recurrence over a batch, the
  // backward pass through it and its cells' weight gradients, and its inference step up to
  // s_i, c_i and alpha_i (the previous word's embedding or products already looked up).
  void conditional_forward(const data::Batch& batch, nn::Pass pass);
  void conditional_backward(const data::Batch& batch, const LossOptions& options, float gradient_scale,
                            const TransposedWeights& transposed);
  void conditional_weights_backward(const data::Batch& batch);
  void conditional_step(const EncoderOutput& encoded, const std::vector<int>* row_sentence,
                        const math::Matrix& state, math::Matrix& next_state, math::Matrix& weights);
  // The backward pass of one step's GRU_2 and transition cells, from the gradient of s_i
  // to those of c_i's projection and s'_i (work_->d_query_step, added to).
  void conditional_cells_step_backward(int i, const TransposedWeights& transposed);
  // The cells after GRU_1 (GRU_2 and the transition cells), in order.
  std::vector<const nn::Gru*> upper_decoder_cells() const;

  ModelOptions config_;
  nn::ParameterRegistry parameters_{nn::GradientStorage::kOnDemand};  // gradients from the first loss with them
  nn::BiEncoder encoder_;
  nn::Linear init_;                  // W_s, b_s: [2n x m]
  nn::Embedding target_embedding_;   // E_y: [V_y x e]
  std::unique_ptr<nn::Attention> attention_;
  nn::Gru decoder_;                  // input [e + 2n]: rows 0..e-1 read E_y y, rows e.. read c
                                     // (conditional: input e, E_y y only)
  std::unique_ptr<nn::Gru> context_gru_;                         // conditional: GRU_2, input 2n
  std::vector<std::unique_ptr<nn::Gru>> decoder_transitions_;   // conditional: T_3 ... T_D
  nn::DeepOutput deep_output_;
  nn::Parameter* output_weight_;     // W_out: [l x V_y], null with tied embeddings
  nn::Parameter& output_bias_;       // b_out: [1 x V_y]
  std::unique_ptr<nn::Attention> alignment_head_;  // query [s_{i-1}; E_y y_i]: [m + e]; null without one
  std::unique_ptr<Workspace> work_;
  math::Precision precision_ = math::Precision::kFp32;
  std::unique_ptr<const math::PackedMatrix> packed_output_;  // W_out (or E_y^T) for inference; null: fp32
};

}  // namespace rnnsearch::model
