#pragma once
// RnnSearch's private scratch (rnnsearch.cc and rnnsearch_teacher_forced.cc include it):
// everything one teacher-forced batch keeps between its forward and backward passes,
// and the decoder's inference step. Buffers keep their capacity from batch to batch.
#include <cstdint>
#include <vector>

#include "data/batch.h"
#include "math/types.h"
#include "model/model_options.h"
#include "model/rnnsearch.h"
#include "model/word_products.h"
#include "nn/attention.h"
#include "nn/bi_encoder.h"
#include "nn/deep_output.h"
#include "nn/gru.h"

namespace rnnsearch::model {

// The sizes of one teacher-forced batch.
struct BatchDims {
  BatchDims() = default;
  BatchDims(const ModelOptions& config, const data::Batch& batch)
      : B(batch.sentences),
        S(batch.source_length),
        T(batch.target_length),
        e(config.embedding),
        D(2 * config.encoder_hidden),
        m(config.decoder_hidden),
        l(config.maxout),
        G(3 * config.decoder_hidden),
        SB(static_cast<Eigen::Index>(S) * B),
        TB(static_cast<Eigen::Index>(T) * B) {}

  int B = 0, S = 0, T = 0;         // sentences, source length, target length
  int e = 0, D = 0, m = 0, l = 0;  // embedding, annotation (2n), decoder state and maxout widths
  int G = 0;                       // width of the decoder GRU's pre-activations: 3m
  Eigen::Index SB = 0, TB = 0;     // source rows S*B, target rows T*B
};

// The step caches a pass over T steps needs: one per step for backward, else one scratch.
template <typename Cache>
Cache& step_cache(std::vector<Cache>& caches, int i, nn::Pass pass) {
  const std::size_t needed = pass == nn::Pass::kForwardBackward ? static_cast<std::size_t>(i) + 1 : 1;
  if (caches.size() < needed) caches.resize(needed);
  return caches[pass == nn::Pass::kForwardBackward ? static_cast<std::size_t>(i) : 0];
}

struct RnnSearch::Workspace {
  // The batch the forward pass ran on.
  BatchDims dims;
  bool dropout = false;  // the forward pass multiplied dropout masks in
  bool guided = false;   // the loss has a guided-alignment term
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
  // One cache per step for backward, or (Pass::kForwardOnly) one reused by every step.
  std::vector<nn::Attention::StepCache> attention_steps;
  std::vector<nn::Gru::StepCache> gru_steps;
  std::vector<math::Matrix> weights;  // alpha_i of every step: T x [B x S]
  math::Matrix query, context;        // one step's [B x m], [B x 2n]
  // The conditional decoder (RnnSearch::conditional_forward): s'_i and s_i of every step,
  // GRU_2's input projection, and the step caches of GRU_2 and the transition cells (step
  // i, cell k at i * cells + k; one per cell with Pass::kForwardOnly).
  math::Matrix queries;            // [(T*B) x m], block i = s'_i
  math::Matrix next_states;        // [(T*B) x m], block i = s_i (what the readout reads)
  math::Matrix context_projected;  // [(T*B) x 3m], block i = c_i W_2 (+ b_2)
  std::vector<nn::Gru::StepCache> upper_steps;
  // Its backward: d of s_i from the readout, of GRU_2's projection, of each upper cell's
  // recurrent products (for the deferred U gradients, with the states and reset states
  // gathered from the step caches), and one step's scratch.
  math::Matrix d_next_states, d_context_projected;
  std::vector<math::Matrix> d_upper_recurrent, upper_h_prev, upper_reset;
  math::Matrix d_upper, d_lower, d_cell_projected;
  math::Matrix d_recurrent;        // GRU_1 (decoder.gru) under layer normalisation: [(T*B) x 3m]
  // Deep output and softmax layer.
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
  TransposedWeights transposed;      // made by backward when the loss is given none
  // Guided alignment.
  std::vector<char> guided_steps;    // T flags: step i has a target row with links
  math::Matrix d_weights_step;       // d_alpha of one step: [B x S]
  // Alignment head (its own keys and step caches; the query reads [s_{i-1}; E_y y_i]).
  math::Matrix head_embedded;        // E_y y_i: [(T*B) x e]
  math::Matrix head_queries;         // [(T*B) x (m + e)]
  math::Matrix head_keys;            // [(S*B) x A']
  std::vector<nn::Attention::StepCache> head_steps;
  std::vector<math::Matrix> head_weights;                   // beta_i of every step: T x [B x S]
  math::Matrix head_context;                                // one step's [B x 2n]
  math::Matrix head_d_keys, head_d_annotations, head_d_query, head_d_context;
  math::Matrix head_d_projected_queries;                    // [(T*B) x A']
  // Inference step.
  nn::Attention::StepCache step_attention;
  nn::Gru::StepCache step_gru;
  nn::DeepOutput::Cache step_deep;
  math::Matrix step_embedded, step_input, step_projected, step_readout;
  math::Matrix step_query, step_context_projected;  // the conditional decoder's s'_i and c_i W_2
  std::vector<nn::Gru::StepCache> step_upper;       // its GRU_2 and transition cells
  math::Matrix step_word_gru, step_word_deep;  // int8, bf16: the previous words' rows of word_products
  WordProducts word_products;
  math::Matrix step_allowed;  // a row's allowed logits, gathered (decoder_step with a shortlist)
};

}  // namespace rnnsearch::model
