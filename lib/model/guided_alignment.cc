#include "model/guided_alignment.h"

#include <cmath>

#include "math/shape_check.h"

namespace rnnsearch::model {

double guided_cost(const std::vector<math::Matrix>& weights, const math::Matrix& guide, int T,
                   std::vector<char>& linked_steps) {
  linked_steps.assign(static_cast<std::size_t>(T), 0);
  double cost = 0.0;
  for (int i = 0; i < T; ++i) {
    const math::Matrix& alpha = weights[static_cast<std::size_t>(i)];
    const Eigen::Index B = alpha.rows(), S = alpha.cols();
    if (i == 0) math::check_shape(guide, static_cast<Eigen::Index>(T) * B, S, "guided alignment (Batch::guide)");
    for (Eigen::Index b = 0; b < B; ++b) {
      const auto gold = guide.row(static_cast<Eigen::Index>(i) * B + b);
      for (Eigen::Index j = 0; j < S; ++j) {
        if (gold(j) == 0.0f) continue;
        cost -= static_cast<double>(gold(j)) * std::log(static_cast<double>(alpha(b, j) + kGuidedAlignmentEpsilon));
        linked_steps[static_cast<std::size_t>(i)] = 1;
      }
    }
  }
  return cost;
}

void guided_step_gradient(const math::Matrix& alpha, const math::Matrix& guide, int i, float scale,
                          math::Matrix& d_weights) {
  const Eigen::Index B = alpha.rows(), S = alpha.cols();
  d_weights.setZero(B, S);
  for (Eigen::Index b = 0; b < B; ++b) {
    const auto gold = guide.row(static_cast<Eigen::Index>(i) * B + b);
    for (Eigen::Index j = 0; j < S; ++j) {
      if (gold(j) != 0.0f) d_weights(b, j) = -scale * gold(j) / (alpha(b, j) + kGuidedAlignmentEpsilon);
    }
  }
}

}  // namespace rnnsearch::model
