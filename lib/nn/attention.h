#pragma once
// The decoder's attention, one interface over four forms (s = s_{i-1}: [B x m], the
// decoder state before step i; h_{j,b}: [1 x 2n], annotation j of sentence b):
//   additive  e_bj = v_a^T tanh(W_a s_b + U_a h_{j,b})    AdditiveAttention (Bahdanau et al. 2015)
//   general   e_bj = s_b^T W_a h_{j,b}                     GeneralAttention (Luong et al. 2015)
//   dot       e_bj = s_b^T P h_{j,b}, P fixed             DotAttention (Luong et al. 2015)
//   none      c_b  = [f_{L_b-1}; b_0]                      FixedContext (RNNencdec: no alignment)
// With scores, alpha_b = masked softmax over j of e_b and c_b = sum_j alpha_bj h_{j,b}.
//
// Every form splits its work the same way (the speed structure of DESIGN.md):
//   precompute_keys  whatever depends on the annotations only, once per batch (one GEMM)
//   step             per decoder step, only what depends on s
//   step_backward    per step; with WeightGradients::kDeferred, the step's weight
//                    gradients are left to one query_weights_backward over all steps
//   keys_backward    once per batch, after the last step_backward
// Shapes: H: [(S*B) x 2n] laid out [S x B] (row j*B + b is position j of sentence b),
// keys: [(S*B) x key_dim()], source mask: [S x B] (1 = real token, 0 = padding),
// c: [B x 2n], alpha: [B x S]. A sentence whose mask is all zero gets zero weights and a
// zero context.
// Inference may give step a row map instead: R decoder rows, row r reading sentence
// row_sentence[r] of the batch (the hypotheses of a beam share their sentence's
// annotations and keys, never copied); query, c and alpha then have R rows. Such a step
// keeps nothing for step_backward, and each row's numbers are those of the unmapped step
// on a batch holding copies of its sentence (additive attention with int8 or bf16 weights
// excepted: its mapped step has cheaper scores of its own, see additive_attention.h).
#include <memory>
#include <string>
#include <vector>

#include "math/precision.h"
#include "math/types.h"
#include "nn/parameters.h"

namespace rnnsearch::nn {

// The values are what model files store: never renumber.
enum class AttentionForm : int { kAdditive = 0, kDot = 1, kGeneral = 2, kNone = 3 };

// "additive", "dot", "general", "none".
const char* attention_form_name(AttentionForm form);

class Attention {
 public:
  // What step_backward needs, filled by step; each form uses the fields it names. Buffers
  // are reused from step to step, so keeping one cache per decoder step allocates only on
  // the first batch of a new shape.
  struct StepCache {
    const math::Matrix* annotations = nullptr;  // H: [(S*B) x 2n]; must outlive the cache
    const math::Matrix* keys = nullptr;         // [(S*B) x key_dim()]; must outlive the cache
    math::Matrix query;                          // s: [B x m] (additive)
    const std::vector<int>* row_sentence = nullptr;  // the step's row map; null: row b is sentence b
    math::Matrix weights;                        // alpha: [B x S] (zero with none)
    std::vector<int> span;                       // per sentence: last real position + 1
    // Scratch reused by step and step_backward.
    math::Matrix projected_query;                // q: [B x A] additive, [B x key_dim()] general and dot
    mutable math::Matrix d_score_weight;         // step_backward scratch (additive): dv as a row [1 x A]
    mutable math::Matrix scores_bs;              // e: [B x S] in step; d_e: [B x S] in step_backward
    mutable math::Matrix d_weights;              // d_alpha: [B x S]
    mutable math::Matrix d_projected_query;      // d_q: [B x A] additive, [B x key_dim()] general and dot
    math::Matrix row_mask;                       // a mapped step's mask per row: [S x R]
    mutable math::Matrix hidden_row;             // additive fp32: tanh(q_b + K_{j,b}) of one row: [1 x A]
  };

  // Copies of the weights step_backward multiplies by transposed (additive: W_a^T), made
  // once for a backward pass by transpose_weights, so that the per-step products run as
  // A B: oneDNN's sgemm runs A B^T at about 70% of the speed of A B at a batch's few rows
  // (as nn::Gru::TransposedRecurrent). Valid until the parameters change.
  struct TransposedWeights {
    math::Matrix query;  // additive: W_a^T: [A x m]
  };

  virtual ~Attention() = default;

  virtual AttentionForm form() const = 0;
  // False for none: its weights are all zero and mean nothing (no alignment to extract).
  virtual bool has_weights() const { return true; }
  int annotation_dim() const { return annotation_dim_; }
  int query_dim() const { return query_dim_; }
  // Width of the keys precompute_keys writes (0: the form has none).
  virtual int key_dim() const = 0;
  // Width of cache.d_projected_query that query_weights_backward takes (0: the form has
  // no per-step weight gradients to defer).
  virtual int deferred_dim() const { return 0; }

  // keys: [(S*B) x key_dim()] (resized) from annotations: [(S*B) x 2n].
  virtual void precompute_keys(const math::Matrix& annotations, math::Matrix& keys) const = 0;
  // Parameter gradients of the keys and d_annotations: [(S*B) x 2n] += dK dK/dH.
  virtual void keys_backward(const math::Matrix& annotations, const math::Matrix& d_keys,
                             math::Matrix& d_annotations) const = 0;
  // One decoder step. query: [B x m], annotations: [(S*B) x 2n], keys from precompute_keys,
  // source_mask: [S x B]. context: [B x 2n] and weights: [B x S] are resized. Throws
  // util::Error naming the parameter (or layer) and both shapes when a shape is wrong.
  // With row_sentence (inference only, see above): query [R x m], context [R x 2n],
  // weights [R x S], and step_backward refuses the cache.
  virtual void step(const math::Matrix& query, const math::Matrix& annotations, const math::Matrix& keys,
                    const math::Matrix& source_mask, StepCache& cache, math::Matrix& context,
                    math::Matrix& weights, const std::vector<int>* row_sentence = nullptr) const = 0;
  // Adds parameter gradients (except the keys', see keys_backward) and input gradients:
  // d_query: [B x m], d_annotations: [(S*B) x 2n], d_keys: [(S*B) x key_dim()], all
  // already shaped. d_context: [B x 2n]; d_weights: [B x S] or null when nothing depends
  // on the weights. Gradients at padded positions stay zero. With kDeferred, the weights
  // of the query's projection get nothing here: the caller collects cache.d_projected_query
  // ([B x deferred_dim()]) of every step and passes them all to query_weights_backward.
  // With `transposed` (transpose_weights's, from the current parameters) its products by
  // transposed weights read the copies.
  virtual void step_backward(const StepCache& cache, const math::Matrix& d_context, const math::Matrix* d_weights,
                             math::Matrix& d_query, math::Matrix& d_annotations, math::Matrix& d_keys,
                             WeightGradients weights = WeightGradients::kNow,
                             const TransposedWeights* transposed = nullptr) const = 0;
  // Fills `out` for step_backward (nothing for forms without per-step products).
  virtual void transpose_weights(TransposedWeights& /*out*/) const {}
  // queries: [N x m], d_projected_queries: [N x deferred_dim()]. Nothing to do for a form
  // with deferred_dim() == 0.
  virtual void query_weights_backward(const math::ConstMatrixRef& /*queries*/,
                                      const math::ConstMatrixRef& /*d_projected_queries*/) const {}
  // Inference only: step and precompute_keys multiply by copies of their weights packed
  // in `precision` (math::PackedMatrix; additive: W_a and U_a) from now on; kFp32 drops them and
  // multiplies the parameters again. The copies are of the values now: set it again after
  // they change. Forms without such products ignore it.
  virtual void set_inference_precision(math::Precision /*precision*/) {}

 protected:
  Attention(int annotation_dim, int query_dim) : annotation_dim_(annotation_dim), query_dim_(query_dim) {}

  // The start of every scoring form's step_backward, from cache.weights (alpha: [B x S]),
  // cache.span and *cache.annotations: d_alpha_b = d_c_b H_b^T (+ d_weights) into
  // cache.d_weights, dH_b += alpha_b^T d_c_b, then the masked softmax backward, d_e: [B x S],
  // into cache.scores_bs (exactly 0 at padding).
  static void context_backward(const StepCache& cache, const math::Matrix& d_context, const math::Matrix* d_weights,
                               math::Matrix& d_annotations);

  // The start of every form's step: the step's rows (R = B, or row_sentence's size), each
  // row's span into cache.span (its sentence's last real position + 1) and
  // cache.row_sentence; returns the mask in row order, [S x R]: source_mask itself
  // without a map, else cache.row_mask. Throws util::Error for a sentence outside the batch.
  static const math::Matrix& map_rows(const math::Matrix& source_mask, const std::vector<int>* row_sentence,
                                      StepCache& cache);
  // The sentence row r reads (after map_rows).
  static Eigen::Index sentence_of(const StepCache& cache, Eigen::Index r) {
    return cache.row_sentence ? (*cache.row_sentence)[static_cast<std::size_t>(r)] : r;
  }
  // c_r = sum_j alpha_rj h_{j,b(r)} over the row's span: context [R x 2n] (resized) from
  // cache.weights and annotations of a batch of B sentences.
  static void weighted_context(const StepCache& cache, const math::Matrix& annotations, Eigen::Index B,
                               math::Matrix& context);
  // Throws util::Error "<label>: step_backward after ..." unless step ran without a row map.
  static void check_backward_cache(const StepCache& cache, const std::string& label);

 private:
  int annotation_dim_;  // 2n
  int query_dim_;       // m
};

// The layer of `form`, registering its parameters under "<name>." (additive: U, W, b, v;
// general: W; dot and none: nothing). attention_dim (A) is read by additive only.
std::unique_ptr<Attention> make_attention(AttentionForm form, ParameterRegistry& parameters, const std::string& name,
                                          int annotation_dim, int query_dim, int attention_dim);

}  // namespace rnnsearch::nn
