#pragma once
// Masked softmax, row by row over a score matrix  scores: [B x S]  (one row per sentence,
// one column per position):
//   alpha_bj = mask_bj exp(e_bj - max_k{e_bk : mask_bk}) / sum_k mask_bk exp(e_bk - max)
// Masked entries (mask 0) get weight exactly 0 and their scores are never read (they may
// be -inf or NaN). A row whose mask is all zero gets all-zero weights, not NaN.
//   backward:  d_e_bj += alpha_bj (d_alpha_bj - sum_k alpha_bk d_alpha_bk)
// which is 0 at masked entries because alpha is 0 there, so backward needs no mask.
#include "math/types.h"

namespace rnnsearch::math {

// How the mask lies relative to the scores: kSame is mask: [B x S]; kTransposed is
// mask: [S x B], the layout of a batch (one row per position, one column per sentence),
// so a source mask can be passed as it is. Any nonzero mask value means "real position".
enum class MaskLayout { kSame, kTransposed };

// probs: [B x S] (resized; may be the same matrix as scores). Throws util::Error naming
// both shapes when the mask does not fit the scores.
void masked_softmax(const Matrix& scores, const Matrix& mask, MaskLayout layout, Matrix& probs);

// Adds the gradient with respect to the scores into d_scores: [B x S] (already shaped).
// probs: [B x S] from masked_softmax, d_probs: [B x S]. Throws util::Error on a shape mismatch.
void masked_softmax_backward(const Matrix& probs, const Matrix& d_probs, Matrix& d_scores);

}  // namespace rnnsearch::math
