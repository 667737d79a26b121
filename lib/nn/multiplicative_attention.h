#pragma once
// Luong et al. 2015's multiplicative scores, "general" and "dot". Both score a query
// against keys precomputed once per batch, so a decoder step costs one vector product per
// source position and no matrix product:
//   general  K = H W_a^T: [(S*B) x m]      q_b = s_b                e_bj = s_b^T W_a h_{j,b}
//   dot      K = fold_k(H): [(S*B) x k]    q_b = fold_k(s_b)        e_bj = s_b^T P h_{j,b}
//   then     e_bj = q_b . K_{j,b},  alpha_b = masked softmax over j of e_b,  c_b = sum_j alpha_bj h_{j,b}
// general: W_a: [m x 2n], trained ("<name>.W").
// dot: P: [m x 2n] is fixed, never trained, not stored: P_id = 1 when i = d (mod k), else 0,
// with k = min(m, 2n); that is, fold_k(x)_r = sum over i = r (mod k) of x_i. When m == 2n
// (e.g. --dim-dec 512 --dim-enc 256) P is the identity and e_bj the plain dot product
// s_b . h_{j,b}; when m < 2n every annotation coordinate is summed onto a query coordinate
// (m = n: e_bj = s_b . (f_j + b_j), the two encoder directions added); when m > 2n the
// query's coordinates are summed onto the annotation's. No form scales the scores.
// Shapes: H: [(S*B) x 2n] laid out [S x B] (row j*B + b is position j of sentence b),
// s: [B x m], source mask: [S x B], c: [B x 2n], alpha: [B x S].
//   backward:  d_alpha = d_c H_b^T (+ d_weights),  d_e = softmax backward,  dH += alpha^T d_c,
//              d_q_b = sum_j d_e_bj K_{j,b},  dK_{j,b} += d_e_bj q_b,
//              ds += d_q (general) or unfold_k(d_q) (dot: d_q_r added back to every i = r mod k)
//   keys_backward:  general  dW_a += dK^T H,  dH += dK W_a;   dot  dH += unfold_k(dK)
// W_a's gradient comes from the keys, once per batch: no per-step weight gradients to defer.
// A sentence whose mask is all zero gets zero weights and a zero context.
#include <string>

#include "math/types.h"
#include "nn/attention.h"
#include "nn/parameters.h"

namespace rnnsearch::nn {

// The step shared by general and dot: scores q_b . K_{j,b} of a mapped query.
class MultiplicativeAttention : public Attention {
 public:
  // Fills cache annotations, keys, projected_query (q: [B x key_dim()]), weights, span.
  void step(const math::Matrix& query, const math::Matrix& annotations, const math::Matrix& keys,
            const math::Matrix& source_mask, StepCache& cache, math::Matrix& context, math::Matrix& weights,
            const std::vector<int>* row_sentence = nullptr) const override;
  // Leaves cache.d_projected_query (d_q: [B x key_dim()]); `weights` is irrelevant: no
  // weight gradients at the step.
  void step_backward(const StepCache& cache, const math::Matrix& d_context, const math::Matrix* d_weights,
                     math::Matrix& d_query, math::Matrix& d_annotations, math::Matrix& d_keys,
                     WeightGradients weights = WeightGradients::kNow,
                     const TransposedWeights* transposed = nullptr) const override;

 protected:
  // label names the layer in shape errors ("decoder.attention.W", "decoder.attention (dot)").
  MultiplicativeAttention(int annotation_dim, int query_dim, std::string label);
  // projected: [B x key_dim()] (resized) from query: [B x m].
  virtual void map_query(const math::Matrix& query, math::Matrix& projected) const = 0;
  // d_query: [B x m] += the gradient of map_query for d_projected: [B x key_dim()].
  virtual void map_query_backward(const math::Matrix& d_projected, math::Matrix& d_query) const = 0;

  std::string label_;
};

class GeneralAttention final : public MultiplicativeAttention {
 public:
  // Registers "<name>.W" [m x 2n].
  GeneralAttention(ParameterRegistry& parameters, const std::string& name, int annotation_dim, int query_dim);

  AttentionForm form() const override { return AttentionForm::kGeneral; }
  int key_dim() const override { return query_dim(); }
  // keys: [(S*B) x m] = annotations W_a^T, one GEMM per batch.
  void precompute_keys(const math::Matrix& annotations, math::Matrix& keys) const override;
  // dW_a += dK^T H, d_annotations += dK W_a (two GEMMs).
  void keys_backward(const math::Matrix& annotations, const math::Matrix& d_keys,
                     math::Matrix& d_annotations) const override;

 private:
  void map_query(const math::Matrix& query, math::Matrix& projected) const override;
  void map_query_backward(const math::Matrix& d_projected, math::Matrix& d_query) const override;

  Parameter& weight_;  // W_a: [m x 2n]
};

class DotAttention final : public MultiplicativeAttention {
 public:
  // No parameters; name labels shape errors.
  DotAttention(const std::string& name, int annotation_dim, int query_dim);

  AttentionForm form() const override { return AttentionForm::kDot; }
  // k = min(m, 2n).
  int key_dim() const override;
  // keys: [(S*B) x k] = fold_k(annotations) (a copy when 2n <= m).
  void precompute_keys(const math::Matrix& annotations, math::Matrix& keys) const override;
  // d_annotations += unfold_k(dK).
  void keys_backward(const math::Matrix& annotations, const math::Matrix& d_keys,
                     math::Matrix& d_annotations) const override;

 private:
  void map_query(const math::Matrix& query, math::Matrix& projected) const override;
  void map_query_backward(const math::Matrix& d_projected, math::Matrix& d_query) const override;
};

}  // namespace rnnsearch::nn
