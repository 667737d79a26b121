#pragma once
// Additive (Bahdanau) attention, Bahdanau et al. 2015, appendix A.1.2:
//   K = H U_a                                  once per batch (precompute_keys)
//   q = s W_a + b_a                            per decoder step, s = s_{i-1}
//   e_bj = v_a^T tanh(q_b + K_{j,b})           for sentence b, source position j
//   alpha_b = masked softmax over j of e_b     padded positions get weight exactly 0
//   c_b = sum_j alpha_bj h_{j,b}
// Shapes: H: [(S*B) x 2n] and K: [(S*B) x A] laid out [S x B] (row j*B + b is position j of
// sentence b), s: [B x m], source mask: [S x B] (1 = real token, 0 = padding), U_a: [2n x A],
// W_a: [m x A], b_a: [1 x A], v_a: [A x 1], c: [B x 2n], alpha: [B x S].
//   backward:  d_alpha = d_c H_b^T (+ d_weights),  d_e = softmax backward,
//              d_pre = (d_e v_a^T) (1 - tanh^2),   dK += d_pre,  dv_a += tanh^T d_e,
//              d_q = sum_j d_pre,  dW_a += s^T d_q,  db_a += sum_b d_q,  ds += d_q W_a^T,
//              dH += alpha^T d_c;  keys_backward: dU_a += H^T dK,  dH += dK U_a^T
// A sentence whose mask is all zero gets zero weights and a zero context.
// Scores in inference: fp32 (and training, and every step without a row map) computes
// e_bj as written, Eigen's tanh then the dot with v_a. With W_a packed in int8 or bf16
// (set_inference_precision), a step with a row map computes each e_rj with
// math::tanh_dot: a fused kernel of a cheaper tanh (error < 4.6e-5, below what those
// products put into q), the same bits on every machine kind (tanh_dot.h).
#include <memory>
#include <string>
#include <vector>

#include "math/packed_matrix.h"
#include "math/types.h"
#include "nn/attention.h"
#include "nn/parameters.h"

namespace rnnsearch::nn {

class AdditiveAttention : public Attention {
 public:
  using StepCache = Attention::StepCache;  // fills annotations, query, hidden, weights, span

  // Registers "<name>.U" [2n x A], "<name>.W" [m x A], "<name>.b" [1 x A], "<name>.v" [A x 1].
  AdditiveAttention(ParameterRegistry& parameters, const std::string& name, int annotation_dim, int query_dim,
                    int attention_dim);

  // keys: [(S*B) x A] (resized) = annotations: [(S*B) x 2n] U_a, one GEMM per batch.
  void precompute_keys(const math::Matrix& annotations, math::Matrix& keys) const override;
  // dU_a += H^T dK (one GEMM); d_annotations: [(S*B) x 2n] += dK U_a^T.
  void keys_backward(const math::Matrix& annotations, const math::Matrix& d_keys,
                     math::Matrix& d_annotations) const override;

  // One decoder step. query: [B x m], annotations: [(S*B) x 2n], keys: [(S*B) x A] from
  // precompute_keys, source_mask: [S x B]. context: [B x 2n] and weights: [B x S] are
  // resized. Throws util::Error naming the parameter and both shapes when a shape is wrong.
  void step(const math::Matrix& query, const math::Matrix& annotations, const math::Matrix& keys,
            const math::Matrix& source_mask, StepCache& cache, math::Matrix& context, math::Matrix& weights,
            const std::vector<int>* row_sentence = nullptr) const override;
  // Adds parameter gradients (except U_a's, see keys_backward) and input gradients:
  // d_query: [B x m], d_annotations: [(S*B) x 2n], d_keys: [(S*B) x A], all already shaped.
  // d_context: [B x 2n]; d_weights: [B x S] or null when nothing depends on the weights.
  // Gradients at padded positions stay zero.
  // With kDeferred, W_a and b_a get nothing here: the caller collects cache.d_projected_query
  // (d_q: [B x A]) of every step and passes them all to query_weights_backward.
  void step_backward(const StepCache& cache, const math::Matrix& d_context, const math::Matrix* d_weights,
                     math::Matrix& d_query, math::Matrix& d_annotations, math::Matrix& d_keys,
                     WeightGradients weights = WeightGradients::kNow,
                     const TransposedWeights* transposed = nullptr) const override;
  // out.query = W_a^T: [A x m].
  void transpose_weights(TransposedWeights& out) const override;
  // dW_a += queries^T d_q,  db_a += sum_rows(d_q): queries [N x m], d_q [N x A].
  void query_weights_backward(const math::ConstMatrixRef& queries,
                              const math::ConstMatrixRef& d_projected_queries) const override;

  // How a step with a row map computes its scores e_rj (one enum, set with the precision):
  //   kExact     fp32 (the default; training never sets a precision): hidden row =
  //              tanh(q_r + K_{j,b}) into cache.hidden_row, then math::lane_dot with v_a (both
  //              in math::tanh_score);
  //              the bits of the unmapped step on copied sentences.
  //   kFastTanh  int8 and bf16: e_rj = math::tanh_dot(q_r, K_{j,b}, v_a, A), fused, nothing
  //              stored. Steps without a row map (training's) stay kExact's arithmetic.
  enum class ScoreArithmetic { kExact, kFastTanh };

  // Packs U_a for precompute_keys and W_a for step (Attention::set_inference_precision)
  // and sets score_arithmetic(): kExact for fp32, kFastTanh for int8 and bf16.
  void set_inference_precision(math::Precision precision) override;
  ScoreArithmetic score_arithmetic() const { return score_arithmetic_; }

  AttentionForm form() const override { return AttentionForm::kAdditive; }
  int key_dim() const override { return attention_dim(); }
  int deferred_dim() const override { return attention_dim(); }
  int attention_dim() const { return static_cast<int>(keys_weight_.value.cols()); }

 private:
  Parameter& keys_weight_;   // U_a: [2n x A]
  Parameter& query_weight_;  // W_a: [m x A]
  Parameter& bias_;          // b_a: [1 x A]
  Parameter& score_weight_;  // v_a: [A x 1]
  // e: [R x S] (cache.scores_bs) of every (row, position) pair, 0 at padding; mask: [S x R].
  void exact_scores(const math::Matrix& keys, Eigen::Index B, const math::Matrix& mask, StepCache& cache) const;
  void fast_scores(const math::Matrix& keys, Eigen::Index B, const math::Matrix& mask, StepCache& cache) const;

  std::unique_ptr<const math::PackedMatrix> packed_keys_weight_, packed_query_weight_;  // U_a, W_a for inference; null: fp32
  ScoreArithmetic score_arithmetic_ = ScoreArithmetic::kExact;
};

}  // namespace rnnsearch::nn
