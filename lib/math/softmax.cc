#include "math/softmax.h"

#include <cmath>
#include <limits>
#include <string>

#include "math/shape_check.h"
#include "util/error.h"

namespace rnnsearch::math {

void masked_softmax(const Matrix& scores, const Matrix& mask, MaskLayout layout, Matrix& probs) {
  const Eigen::Index rows = scores.rows(), cols = scores.cols();  // scores: [B x S]
  if (layout == MaskLayout::kSame) {
    check_shape(mask, rows, cols, "masked_softmax: mask (same layout as scores)");
  } else {
    check_shape(mask, cols, rows, "masked_softmax: mask (transposed, [S x B])");
  }
  probs.resize(rows, cols);
  for (Eigen::Index b = 0; b < rows; ++b) {
    const auto real = [&](Eigen::Index j) {
      return (layout == MaskLayout::kSame ? mask(b, j) : mask(j, b)) != 0.0f;
    };
    float max = -std::numeric_limits<float>::infinity();
    bool any = false;
    for (Eigen::Index j = 0; j < cols; ++j) {
      if (!real(j)) continue;
      any = true;
      if (scores(b, j) > max) max = scores(b, j);
    }
    if (!any) {
      probs.row(b).setZero();
      continue;
    }
    float sum = 0.0f;
    for (Eigen::Index j = 0; j < cols; ++j) {
      const float p = real(j) ? std::exp(scores(b, j) - max) : 0.0f;
      probs(b, j) = p;
      sum += p;
    }
    probs.row(b) *= 1.0f / sum;  // sum >= 1: the maximum contributes exp(0)
  }
}

void masked_softmax_backward(const Matrix& probs, const Matrix& d_probs, Matrix& d_scores) {
  check_shape(d_probs, probs.rows(), probs.cols(), "masked_softmax_backward: d_probs");
  check_shape(d_scores, probs.rows(), probs.cols(), "masked_softmax_backward: d_scores");
  for (Eigen::Index b = 0; b < probs.rows(); ++b) {
    const float dot = probs.row(b).dot(d_probs.row(b));
    d_scores.row(b).array() += probs.row(b).array() * (d_probs.row(b).array() - dot);
  }
}

}  // namespace rnnsearch::math
