#pragma once
// No attention (--attention none): the plain encoder-decoder, RNNencdec (Cho et al. 2014),
// the baseline of Bahdanau et al. 2015. The context is one vector per sentence, the same
// at every decoder step, made of each encoder direction's final state:
//   c_b = [f_{L_b - 1, b} ; b_{0, b}]
// f: the forward half of the annotations (columns 0..n-1) at the sentence's last real
// position L_b - 1 (its </s>), having read the whole sentence left to right; b: the
// backward half (columns n..2n-1) at position 0, having read it right to left. The
// decoder state s is not read: no scores, no alignment. The weights a step returns are
// all zero (has_weights() is false), and nothing can be aligned with them.
// Shapes: H: [(S*B) x 2n] laid out [S x B] (row j*B + b is position j of sentence b),
// source mask: [S x B] (right-padded), c: [B x 2n], alpha: [B x S] (zeros). No keys
// ([(S*B) x 0]), no parameters.
//   backward:  dH_{L_b - 1, b}[0 : n] += d_c_b[0 : n],   dH_{0, b}[n : 2n] += d_c_b[n : 2n]
// A sentence whose mask is all zero gets a zero context.
#include <string>

#include "math/types.h"
#include "nn/attention.h"

namespace rnnsearch::nn {

class FixedContext final : public Attention {
 public:
  // name labels shape errors; annotation_dim (2n) must be even.
  FixedContext(const std::string& name, int annotation_dim, int query_dim);

  AttentionForm form() const override { return AttentionForm::kNone; }
  bool has_weights() const override { return false; }
  int key_dim() const override { return 0; }
  // keys: [(S*B) x 0].
  void precompute_keys(const math::Matrix& annotations, math::Matrix& keys) const override;
  void keys_backward(const math::Matrix& annotations, const math::Matrix& d_keys,
                     math::Matrix& d_annotations) const override;
  // Fills cache annotations, span and weights (zeros). query is only shape-checked.
  void step(const math::Matrix& query, const math::Matrix& annotations, const math::Matrix& keys,
            const math::Matrix& source_mask, StepCache& cache, math::Matrix& context, math::Matrix& weights,
            const std::vector<int>* row_sentence = nullptr) const override;
  // d_weights is ignored (the weights are constant), d_query and d_keys get nothing.
  void step_backward(const StepCache& cache, const math::Matrix& d_context, const math::Matrix* d_weights,
                     math::Matrix& d_query, math::Matrix& d_annotations, math::Matrix& d_keys,
                     WeightGradients weights = WeightGradients::kNow,
                     const TransposedWeights* transposed = nullptr) const override;

 private:
  std::string label_;
};

}  // namespace rnnsearch::nn
