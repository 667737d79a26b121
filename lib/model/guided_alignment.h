#pragma once
// Guided alignment (Marian's --guided-alignment-cost ce): the cost of a batch's attention
// weights against its guide g (data::Batch::guide),
//   -sum over steps i, sentences b, positions j of g_ij log(alpha_bj + eps),
// and its gradient, step by step, for the backward pass.
#include <vector>

#include "math/types.h"

namespace rnnsearch::model {

constexpr float kGuidedAlignmentEpsilon = 1e-6f;  // log(alpha + eps): a zero weight costs a finite amount

// The cost of the weights of the first T steps (weights[i]: [B x S]) against guide:
// [(T*B) x S] (checked). linked_steps[i] is set when a target row of step i has links
// (its backward has a term).
double guided_cost(const std::vector<math::Matrix>& weights, const math::Matrix& guide, int T,
                   std::vector<char>& linked_steps);

// d_weights := scale * d(cost of step i)/d alpha = -scale g_ij / (alpha_ij + eps): [B x S].
void guided_step_gradient(const math::Matrix& alpha, const math::Matrix& guide, int i, float scale,
                          math::Matrix& d_weights);

}  // namespace rnnsearch::model
