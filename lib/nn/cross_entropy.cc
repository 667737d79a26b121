#include "nn/cross_entropy.h"

#include <cmath>
#include <string>
#include <vector>

#include "math/elementwise.h"
#include "util/error.h"

namespace rnnsearch::nn {

namespace {

void check_sizes(const math::Matrix& logits, const std::vector<std::int32_t>& targets, const math::Matrix* mask) {
  if (logits.cols() < 1) throw util::Error("cross-entropy: logits have no columns (vocabulary size 0)");
  if (static_cast<Eigen::Index>(targets.size()) != logits.rows()) {
    throw util::Error("cross-entropy: " + std::to_string(targets.size()) + " targets for logits of [" +
                      std::to_string(logits.rows()) + " x " + std::to_string(logits.cols()) +
                      "], expected one per row");
  }
  if (mask && mask->size() != logits.rows()) {
    throw util::Error("cross-entropy: mask [" + std::to_string(mask->rows()) + " x " + std::to_string(mask->cols()) +
                      "] has " + std::to_string(mask->size()) + " entries for logits of [" +
                      std::to_string(logits.rows()) + " x " + std::to_string(logits.cols()) +
                      "], expected one per row");
  }
}

void check_target(std::int32_t target, Eigen::Index row, Eigen::Index vocabulary) {
  if (target < 0 || target >= vocabulary) {
    throw util::Error("cross-entropy: target id " + std::to_string(target) + " at row " + std::to_string(row) +
                      " is outside the vocabulary [0, " + std::to_string(vocabulary) + ")");
  }
}

// Row weight r of a mask in row order (row-major over any shape).
float weight_of(const math::Matrix& mask, Eigen::Index row) {
  const float w = mask.data()[row];
  if (!(w >= 0.0f)) {
    throw util::Error("cross-entropy: mask weight " + std::to_string(w) + " at row " + std::to_string(row) +
                      " is negative or not a number");
  }
  return w;
}

// sum_i x_i in 16 lanes (x_i into lane i % 16), then the lanes pairwise: one fixed order.
float lane_sum(const float* x, Eigen::Index n) {
  constexpr int kLanes = 16;
  float lane[kLanes] = {};
  for (Eigen::Index i = 0; i < n; ++i) lane[i % kLanes] += x[i];
  for (int width = kLanes / 2; width >= 1; width /= 2) {
    for (int l = 0; l < width; ++l) lane[l] += lane[l + width];
  }
  return lane[0];
}

// sum_j exp(z_j - max) of one row, its exps written to `exps` (d's row in training, else a
// scratch row): the loss, its gradient and target_log_probabilities all take it from here,
// so a forward-only pass reports the training pass's numbers exactly.
double exp_row_sum(const math::Matrix& logits, Eigen::Index row, float max, float* exps) {
  math::exp_array(logits.row(row).data(), max, exps, static_cast<int>(logits.cols()));
  return lane_sum(exps, logits.cols());
}

// The scratch row of a pass without d_logits.
float* scratch_row(Eigen::Index vocabulary) {
  thread_local std::vector<float> scratch;
  if (scratch.size() < static_cast<std::size_t>(vocabulary)) scratch.resize(static_cast<std::size_t>(vocabulary));
  return scratch.data();
}

// logsumexp of one row, with the row maximum subtracted before exponentiating.
double log_sum_exp(const math::Matrix& logits, Eigen::Index row) {
  const float max = logits.row(row).maxCoeff();
  return static_cast<double>(max) + std::log(exp_row_sum(logits, row, max, scratch_row(logits.cols())));
}

}  // namespace

CrossEntropySum softmax_cross_entropy(const math::Matrix& logits, const std::vector<std::int32_t>& targets,
                                      const math::Matrix& mask, float label_smoothing, math::Matrix* d_logits,
                                      float gradient_scale) {
  check_sizes(logits, targets, &mask);
  if (!(label_smoothing >= 0.0f && label_smoothing < 1.0f)) {
    throw util::Error("cross-entropy: label smoothing must be in [0, 1), got " + std::to_string(label_smoothing));
  }
  const Eigen::Index n = logits.rows(), vocabulary = logits.cols();
  const double eps = label_smoothing;
  if (d_logits) d_logits->resize(n, vocabulary);  // d_logits: [N x V]

  CrossEntropySum result;
  for (Eigen::Index r = 0; r < n; ++r) {
    const float w = weight_of(mask, r);
    if (w == 0.0f) {
      if (d_logits) d_logits->row(r).setZero();
      continue;
    }
    const std::int32_t target = targets[r];
    check_target(target, r, vocabulary);
    const auto z = logits.row(r);
    const float max = z.maxCoeff();
    const double sum = exp_row_sum(logits, r, max, d_logits ? d_logits->row(r).data() : scratch_row(vocabulary));
    const double lse = static_cast<double>(max) + std::log(sum);
    double row_loss = lse - static_cast<double>(z(target));
    if (eps > 0.0) {
      const double mean_z = static_cast<double>(z.sum()) / static_cast<double>(vocabulary);
      row_loss = (1.0 - eps) * row_loss + eps * (lse - mean_z);
    }
    result.loss += static_cast<double>(w) * row_loss;
    ++result.tokens;

    if (d_logits) {
      // d = w * (p - q): p = exp(z - max) / sum, q = (1 - eps) onehot(target) + eps / V,
      // in one pass over the row.
      auto d = d_logits->row(r).array();
      const auto scale = static_cast<float>(w / sum);
      const auto shift = static_cast<float>(w * eps / static_cast<double>(vocabulary));
      d = d * scale - shift;
      d(target) -= static_cast<float>(w * (1.0 - eps));
      if (gradient_scale != 1.0f) d *= gradient_scale;
    }
  }
  return result;
}

std::vector<double> target_log_probabilities(const math::Matrix& logits, const std::vector<std::int32_t>& targets,
                                             const math::Matrix* mask) {
  check_sizes(logits, targets, mask);
  const Eigen::Index n = logits.rows(), vocabulary = logits.cols();
  std::vector<double> log_p(static_cast<std::size_t>(n), 0.0);
  for (Eigen::Index r = 0; r < n; ++r) {
    if (mask && weight_of(*mask, r) == 0.0f) continue;
    check_target(targets[r], r, vocabulary);
    log_p[r] = static_cast<double>(logits(r, targets[r])) - log_sum_exp(logits, r);
  }
  return log_p;
}

}  // namespace rnnsearch::nn
