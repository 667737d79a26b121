// Softmax cross-entropy with a row mask and label smoothing: hand-computed values,
// finite-difference gradients w.r.t. the logits, masking, the gradient's scale, stability
// and errors.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "support/error_message.h"
#include "nn/cross_entropy.h"
#include "nn/parameters.h"
#include "support/gradcheck.h"
#include "util/error.h"

using namespace rnnsearch;
namespace rt = rnnsearch::testing;

namespace {

constexpr double kCrossEntropyTolerance = 2e-2;

// N = 4 rows over V = 5 words; row 2 is padding.
math::Matrix four_row_mask() {
  math::Matrix mask(4, 1);
  mask << 1, 1, 0, 1;
  return mask;
}
const std::vector<std::int32_t> kFourTargets = {3, 0, 1, 4};

// The finite-difference check of L(logits) = softmax_cross_entropy(...).loss.
rt::GradientReport check_loss_gradient(float label_smoothing, std::uint32_t seed) {
  nn::ParameterRegistry none;
  math::Matrix logits = rt::random_matrix(4, 5, seed, 2.0f);
  const math::Matrix mask = four_row_mask();
  return rt::check_gradients(
      none, {&logits},
      [&] {
        math::Matrix loss(1, 1);
        loss(0, 0) = static_cast<float>(nn::softmax_cross_entropy(logits, kFourTargets, mask, label_smoothing).loss);
        return loss;
      },
      [&](const math::Matrix& d_loss, std::vector<math::Matrix>& d_in) {
        math::Matrix d_logits;
        nn::softmax_cross_entropy(logits, kFourTargets, mask, label_smoothing, &d_logits);
        d_in[0] += d_loss(0, 0) * d_logits;
      });
}

}  // namespace

BOOST_AUTO_TEST_SUITE(softmax_cross_entropy)

BOOST_AUTO_TEST_CASE(uniform_logits_give_log_v_per_real_token) {
  const math::Matrix logits = math::Matrix::Constant(4, 5, 0.7f);
  for (const float eps : {0.0f, 0.1f, 0.5f}) {
    math::Matrix d_logits;
    const auto sum = nn::softmax_cross_entropy(logits, kFourTargets, four_row_mask(), eps, &d_logits);
    BOOST_TEST(sum.tokens == 3u);
    BOOST_TEST(std::fabs(sum.loss - 3 * std::log(5.0)) < 1e-5, "eps " << eps);
    // p = 1/5 everywhere: d = 1/5 - (1 - eps) onehot - eps/5.
    BOOST_TEST(std::fabs(d_logits(0, 3) - (0.2f - (1 - eps) - eps / 5)) < 1e-6f);
    BOOST_TEST(std::fabs(d_logits(0, 0) - (0.2f - eps / 5)) < 1e-6f);
  }
  const auto log_p = nn::target_log_probabilities(logits, kFourTargets);
  for (const double lp : log_p) BOOST_TEST(std::fabs(lp + std::log(5.0)) < 1e-6);
}

BOOST_AUTO_TEST_CASE(a_hand_computed_smoothed_loss_and_gradient) {
  // z = [0, ln 3]: p = [1/4, 3/4]; target 1, eps = 0.2: q = [0.1, 0.9].
  math::Matrix logits(1, 2);
  logits << 0.0f, static_cast<float>(std::log(3.0));
  const math::Matrix mask = math::Matrix::Ones(1, 1);
  math::Matrix d_logits;
  const auto sum = nn::softmax_cross_entropy(logits, {1}, mask, 0.2f, &d_logits);
  const double expected = 0.8 * -std::log(0.75) + 0.2 * 0.5 * (-std::log(0.25) - std::log(0.75));
  BOOST_TEST(std::fabs(sum.loss - expected) < 1e-6);
  BOOST_TEST(sum.tokens == 1u);
  BOOST_TEST(std::fabs(d_logits(0, 0) - 0.15f) < 1e-6f);
  BOOST_TEST(std::fabs(d_logits(0, 1) + 0.15f) < 1e-6f);
}

BOOST_AUTO_TEST_CASE(without_smoothing_it_is_the_negative_log_likelihood) {
  const math::Matrix logits = rt::random_matrix(4, 5, 3, 3.0f);
  const math::Matrix mask = four_row_mask();
  double nll = 0.0;
  for (int r = 0; r < 4; ++r) {
    if (mask(r, 0) == 0.0f) continue;
    double z_sum = 0.0;
    for (int v = 0; v < 5; ++v) z_sum += std::exp(static_cast<double>(logits(r, v)));
    nll -= std::log(std::exp(static_cast<double>(logits(r, kFourTargets[r]))) / z_sum);
  }
  const auto sum = nn::softmax_cross_entropy(logits, kFourTargets, mask, 0.0f);
  BOOST_TEST(std::fabs(sum.loss - nll) < 1e-5);

  // The per-row log-probabilities agree: masked rows give 0, real rows sum to -NLL.
  const auto log_p = nn::target_log_probabilities(logits, kFourTargets, &mask);
  BOOST_REQUIRE(log_p.size() == 4u);
  BOOST_TEST(log_p[2] == 0.0);
  BOOST_TEST(std::fabs(log_p[0] + log_p[1] + log_p[3] + nll) < 1e-5);
  // Over every possible target, the probabilities of a row sum to 1.
  double total = 0.0;
  for (std::int32_t v = 0; v < 5; ++v) total += std::exp(nn::target_log_probabilities(logits.topRows(1), {v})[0]);
  BOOST_TEST(std::fabs(total - 1.0) < 1e-6);
}

BOOST_AUTO_TEST_CASE(gradient_matches_finite_differences_without_smoothing) {
  const auto report = check_loss_gradient(0.0f, 5);
  BOOST_TEST(report.checked == 20u);
  BOOST_TEST(report.worst_error < kCrossEntropyTolerance, report.worst_place);
}

BOOST_AUTO_TEST_CASE(gradient_matches_finite_differences_with_smoothing) {
  const auto report = check_loss_gradient(0.1f, 6);
  BOOST_TEST(report.checked == 20u);
  BOOST_TEST(report.worst_error < kCrossEntropyTolerance, report.worst_place);
}

BOOST_AUTO_TEST_CASE(a_gradient_scale_gives_the_bits_of_scaling_afterwards) {
  const math::Matrix logits = rt::random_matrix(4, 5, 8, 2.0f);
  math::Matrix unscaled, scaled;
  const auto plain = nn::softmax_cross_entropy(logits, kFourTargets, four_row_mask(), 0.1f, &unscaled);
  const auto with_scale = nn::softmax_cross_entropy(logits, kFourTargets, four_row_mask(), 0.1f, &scaled, 1.0f / 37);
  unscaled *= 1.0f / 37;
  BOOST_TEST((scaled == unscaled));
  BOOST_TEST(scaled.row(0).cwiseAbs().maxCoeff() > 0.0f);
  BOOST_TEST(with_scale.loss == plain.loss);  // the loss is not scaled
}

BOOST_AUTO_TEST_CASE(masked_rows_contribute_nothing_and_are_not_read) {
  math::Matrix logits = rt::random_matrix(4, 5, 7, 2.0f);
  const math::Matrix mask = four_row_mask();
  math::Matrix d_before, d_after;
  const auto before = nn::softmax_cross_entropy(logits, kFourTargets, mask, 0.1f, &d_before);
  BOOST_TEST(d_before.row(2).cwiseAbs().maxCoeff() == 0.0f);

  // Garbage in the padding row: a NaN logit and an out-of-range target change nothing.
  logits.row(2).setConstant(std::numeric_limits<float>::quiet_NaN());
  std::vector<std::int32_t> targets = kFourTargets;
  targets[2] = -1;
  const auto after = nn::softmax_cross_entropy(logits, targets, mask, 0.1f, &d_after);
  BOOST_TEST(after.loss == before.loss);
  BOOST_TEST(after.tokens == 3u);
  BOOST_TEST((d_after - d_before).cwiseAbs().maxCoeff() == 0.0f);
  BOOST_TEST(nn::target_log_probabilities(logits, targets, &mask)[2] == 0.0);

  // The loss is a sum: each real row adds its own term.
  const math::Matrix clean = rt::random_matrix(4, 5, 7, 2.0f);
  double rows = 0.0;
  for (int r : {0, 1, 3}) {
    math::Matrix one_hot_mask = math::Matrix::Zero(4, 1);
    one_hot_mask(r, 0) = 1.0f;
    rows += nn::softmax_cross_entropy(clean, kFourTargets, one_hot_mask, 0.1f).loss;
  }
  BOOST_TEST(std::fabs(rows - before.loss) < 1e-6);
}

BOOST_AUTO_TEST_CASE(large_logits_stay_finite) {
  math::Matrix logits(2, 5);
  logits << 1000, 0, 0, 0, 0, -1000, 80, 90, 100, 0;
  const math::Matrix mask = math::Matrix::Ones(2, 1);
  math::Matrix d_logits;
  const auto sum = nn::softmax_cross_entropy(logits, {1, 3}, mask, 0.0f, &d_logits);
  // Row 0: -log p_1 = 1000 (to float precision); row 1: log(1 + e^-10 + e^-20 + ...) ~ 4.54e-5.
  const double row1 = std::log(1.0 + std::exp(-10.0) + std::exp(-20.0) + std::exp(-100.0) + std::exp(-1100.0));
  BOOST_TEST(std::isfinite(sum.loss));
  BOOST_TEST(std::fabs(sum.loss - (1000.0 + row1)) < 1e-4);
  BOOST_TEST(d_logits.allFinite());
  BOOST_TEST(std::fabs(d_logits(0, 0) - 1.0f) < 1e-6f);
  BOOST_TEST(std::fabs(d_logits(0, 1) + 1.0f) < 1e-6f);
}

BOOST_AUTO_TEST_CASE(row_weights_scale_loss_and_gradient) {
  const math::Matrix logits = rt::random_matrix(4, 5, 8, 2.0f);
  const math::Matrix ones = math::Matrix::Ones(4, 1);
  const math::Matrix twos = math::Matrix::Constant(1, 4, 2.0f);  // any shape with N entries
  math::Matrix d_one, d_two;
  const auto one = nn::softmax_cross_entropy(logits, kFourTargets, ones, 0.1f, &d_one);
  const auto two = nn::softmax_cross_entropy(logits, kFourTargets, twos, 0.1f, &d_two);
  BOOST_TEST(std::fabs(two.loss - 2 * one.loss) < 1e-9);
  BOOST_TEST(two.tokens == 4u);
  BOOST_TEST((d_two - 2 * d_one).cwiseAbs().maxCoeff() < 1e-6f);
  // Each row's gradient sums to 0 (p and q are both distributions).
  BOOST_TEST(d_one.rowwise().sum().cwiseAbs().maxCoeff() < 1e-6f);
}

BOOST_AUTO_TEST_CASE(a_target_out_of_range_names_the_row) {
  const math::Matrix logits = math::Matrix::Zero(4, 5);
  const math::Matrix mask = four_row_mask();
  std::vector<std::int32_t> targets = kFourTargets;
  targets[3] = 5;
  BOOST_TEST(rnnsearch::testing::error_message([&] { nn::softmax_cross_entropy(logits, targets, mask); }) ==
             "cross-entropy: target id 5 at row 3 is outside the vocabulary [0, 5)");
  BOOST_TEST(rnnsearch::testing::error_message([&] { nn::target_log_probabilities(logits, targets); }) ==
             "cross-entropy: target id 5 at row 3 is outside the vocabulary [0, 5)");
  targets[3] = -2;
  BOOST_TEST(rnnsearch::testing::error_message([&] { nn::softmax_cross_entropy(logits, targets, mask); }) ==
             "cross-entropy: target id -2 at row 3 is outside the vocabulary [0, 5)");
}

BOOST_AUTO_TEST_CASE(mismatched_sizes_and_bad_smoothing_are_errors) {
  const math::Matrix logits = math::Matrix::Zero(4, 5);
  const math::Matrix mask = four_row_mask();
  BOOST_TEST(rnnsearch::testing::error_message([&] { nn::softmax_cross_entropy(logits, {0, 1, 2}, mask); }) ==
             "cross-entropy: 3 targets for logits of [4 x 5], expected one per row");
  BOOST_TEST(rnnsearch::testing::error_message([&] { nn::softmax_cross_entropy(logits, kFourTargets, math::Matrix::Ones(3, 1)); }) ==
             "cross-entropy: mask [3 x 1] has 3 entries for logits of [4 x 5], expected one per row");
  BOOST_CHECK_THROW(nn::softmax_cross_entropy(logits, kFourTargets, mask, 1.0f), util::Error);
  BOOST_CHECK_THROW(nn::softmax_cross_entropy(logits, kFourTargets, mask, -0.1f), util::Error);
  math::Matrix negative = mask;
  negative(1, 0) = -1.0f;
  BOOST_CHECK_THROW(nn::softmax_cross_entropy(logits, kFourTargets, negative), util::Error);
}

BOOST_AUTO_TEST_SUITE_END()
