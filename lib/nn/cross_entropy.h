#pragma once
// Softmax cross-entropy over rows of logits (the output Linear's z = t W_o + b_o), with
// uniform label smoothing eps:
//   log p_v = z_v - logsumexp(z)                      (stable: the row maximum is subtracted)
//   loss_r  = (1 - eps) * -log p_{target_r} + eps * mean_v(-log p_v)
//           = logsumexp(z) - (1 - eps) * z_{target_r} - eps * mean_v(z_v)
//   L       = sum_r w_r * loss_r                      (w_r: the row mask, 0 for padding)
//   dL/dz_r = w_r * (p_r - q_r),  q_r = (1 - eps) * onehot(target_r) + eps / V
// i.e. the target distribution is (1 - eps) on the target plus eps spread evenly over all V
// words (the target included). eps = 0 is plain negative log-likelihood.
// The loss and gradient are of the SUM over rows: the caller decides the normalization
// (per token, per sentence, per batch) by scaling both.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "math/types.h"

namespace rnnsearch::nn {

struct CrossEntropySum {
  double loss = 0.0;       // sum over rows of w_r * loss_r, in nats
  std::size_t tokens = 0;  // rows with a nonzero weight (the real tokens)
};

// logits: [N x V]; targets: N ids in [0, V); mask: N row weights in row order, any shape
// with N entries (a [T x B] mask read row-major matches the rows t*B + b of [(T*B) x V]
// logits): 1 = real token, 0 = padding; other nonnegative values scale the row.
// label_smoothing: eps in [0, 1).
// d_logits, when given: resized to [N x V] and OVERWRITTEN with dL/dz (zero on padding rows)
// times gradient_scale, each row scaled once finished, while it is in cache (the bits of
// scaling the whole matrix afterwards).
// Padding rows are skipped entirely: their targets are not checked and their logits are not read.
// Throws util::Error for a target outside [0, V) on a real row (naming the row), a negative
// weight, mismatched sizes, or eps outside [0, 1).
CrossEntropySum softmax_cross_entropy(const math::Matrix& logits, const std::vector<std::int32_t>& targets,
                                      const math::Matrix& mask, float label_smoothing = 0.0f,
                                      math::Matrix* d_logits = nullptr, float gradient_scale = 1.0f);

// log p(target_r) for every row r, unsmoothed (for validation perplexity and forced
// decoding). With a mask, rows of weight 0 give 0 and their targets are not checked.
// Throws util::Error for a target outside [0, V) (naming the row) or mismatched sizes.
std::vector<double> target_log_probabilities(const math::Matrix& logits, const std::vector<std::int32_t>& targets,
                                             const math::Matrix* mask = nullptr);

}  // namespace rnnsearch::nn
