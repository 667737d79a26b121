// The deep output layer t = maxout_2(s U + y_emb V + c C + b): values against a composed
// reference, the pairing and tie rule of the maxout, finite-difference gradients (alone and
// through the output Linear and the masked loss), accumulation and shape errors.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "nn/cross_entropy.h"
#include "nn/deep_output.h"
#include "nn/linear.h"
#include "nn/parameters.h"
#include "support/gradcheck.h"
#include "util/error.h"

using namespace rnnsearch;
namespace rt = rnnsearch::testing;

namespace {

constexpr double kDeepOutputTolerance = 2e-2;

// The tiny layer of the checks: N = 4 rows, m = 3, e = 2, 2n = 4, l = 3.
constexpr int kRows = 4, kState = 3, kEmbedding = 2, kContext = 4, kOut = 3;

// Small random weights and a bias that separates every pair by 4 (alternating which column
// wins), so |pre_2k - pre_2k+1| stays far above what a finite-difference step can change.
void separate_pairs(nn::ParameterRegistry& registry, const std::string& name, std::uint32_t seed) {
  rt::randomize(registry, seed, 0.2f);
  math::Matrix& b = registry.get(name + ".b").value;
  for (int k = 0; k < b.cols() / 2; ++k) {
    const float sign = k % 2 == 0 ? 1.0f : -1.0f;
    b(0, 2 * k) = 2.0f * sign;
    b(0, 2 * k + 1) = -2.0f * sign;
  }
}

// The smallest gap inside a maxout pair over all rows.
float smallest_pair_gap(const math::Matrix& pre) {
  float gap = std::numeric_limits<float>::infinity();
  for (Eigen::Index r = 0; r < pre.rows(); ++r) {
    for (Eigen::Index k = 0; k < pre.cols() / 2; ++k) gap = std::min(gap, std::fabs(pre(r, 2 * k) - pre(r, 2 * k + 1)));
  }
  return gap;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(deep_output_layer)

BOOST_AUTO_TEST_CASE(registers_its_parameters_with_their_shapes) {
  nn::ParameterRegistry registry;
  const nn::DeepOutput deep(registry, "deep", kState, kEmbedding, kContext, kOut);
  BOOST_TEST(registry.get("deep.U").value.rows() == kState);
  BOOST_TEST(registry.get("deep.U").value.cols() == 2 * kOut);
  BOOST_TEST(registry.get("deep.V").value.rows() == kEmbedding);
  BOOST_TEST(registry.get("deep.C").value.rows() == kContext);
  BOOST_TEST(registry.get("deep.b").value.rows() == 1);
  BOOST_TEST(registry.get("deep.b").value.cols() == 2 * kOut);
  BOOST_TEST(deep.output_dim() == kOut);
  BOOST_TEST(registry.scalar_count() == static_cast<std::size_t>((kState + kEmbedding + kContext + 1) * 2 * kOut));
}

BOOST_AUTO_TEST_CASE(forward_equals_a_composed_reference) {
  nn::ParameterRegistry registry;
  const nn::DeepOutput deep(registry, "deep", kState, kEmbedding, kContext, kOut);
  rt::randomize(registry, 21);
  const math::Matrix s = rt::random_matrix(kRows, kState, 1), y = rt::random_matrix(kRows, kEmbedding, 2),
                     c = rt::random_matrix(kRows, kContext, 3);
  nn::DeepOutput::Cache cache;
  math::Matrix t;
  deep.forward(s, y, c, cache, t);
  const math::Matrix pre = s * registry.get("deep.U").value + y * registry.get("deep.V").value +
                           c * registry.get("deep.C").value +
                           registry.get("deep.b").value.replicate(kRows, 1);
  BOOST_REQUIRE(t.rows() == kRows);
  BOOST_REQUIRE(t.cols() == kOut);
  for (int r = 0; r < kRows; ++r) {
    for (int k = 0; k < kOut; ++k) {
      BOOST_TEST(std::fabs(t(r, k) - std::max(pre(r, 2 * k), pre(r, 2 * k + 1))) < 1e-5f);
    }
  }
}

BOOST_AUTO_TEST_CASE(maxout_takes_adjacent_pairs_and_a_tie_goes_to_the_first_column) {
  // Weights 0, so pre = b = [1 3 | 5 2 | 4 4] in every row: t = [3 5 4], winners 1, 2, 4 (the tie: 4).
  nn::ParameterRegistry registry;
  const nn::DeepOutput deep(registry, "deep", 1, 1, 1, 3);
  registry.get("deep.b").value << 1, 3, 5, 2, 4, 4;
  const math::Matrix x = math::Matrix::Ones(2, 1);
  nn::DeepOutput::Cache cache;
  math::Matrix t;
  deep.forward(x, x, x, cache, t);
  math::Matrix expected(2, 3);
  expected << 3, 5, 4, 3, 5, 4;
  BOOST_TEST((t - expected).cwiseAbs().maxCoeff() == 0.0f);
  BOOST_TEST(cache.winner(0, 0) == 1);
  BOOST_TEST(cache.winner(0, 1) == 2);
  BOOST_TEST(cache.winner(0, 2) == 4);

  // The gradient flows only to the winners: db = 2 rows of [0 1 | 1 0 | 1 0].
  deep.backward(x, x, x, cache, math::Matrix::Ones(2, 3), nullptr, nullptr, nullptr);
  math::Matrix db(1, 6);
  db << 0, 2, 2, 0, 2, 0;
  BOOST_TEST((registry.get("deep.b").gradient - db).cwiseAbs().maxCoeff() == 0.0f);
}

BOOST_AUTO_TEST_CASE(gradients_match_finite_differences_for_all_parameters_and_inputs) {
  nn::ParameterRegistry registry;
  const nn::DeepOutput deep(registry, "deep", kState, kEmbedding, kContext, kOut);
  separate_pairs(registry, "deep", 31);
  math::Matrix s = rt::random_matrix(kRows, kState, 4), y = rt::random_matrix(kRows, kEmbedding, 5),
               c = rt::random_matrix(kRows, kContext, 6);
  nn::DeepOutput::Cache cache;
  const auto forward = [&] {
    math::Matrix t;
    deep.forward(s, y, c, cache, t);
    return t;
  };
  forward();
  // Weights <= 0.2 and inputs <= 1 move a pair's gap by at most 2 * 0.2 * 9 = 3.6 < 4; a step
  // of 1e-2 moves it by far less than what is left.
  BOOST_REQUIRE(smallest_pair_gap(cache.pre) > 0.2f);
  // Both columns of a pair win somewhere, so routing to either is checked.
  BOOST_TEST(cache.winner(0, 0) == 0);
  BOOST_TEST(cache.winner(0, 1) == 3);

  const auto report = rt::check_gradients(registry, {&s, &y, &c}, forward,
                                          [&](const math::Matrix& d_t, std::vector<math::Matrix>& d_in) {
                                            forward();
                                            deep.backward(s, y, c, cache, d_t, &d_in[0], &d_in[1], &d_in[2]);
                                          });
  BOOST_TEST(report.checked == static_cast<std::size_t>((kState + kEmbedding + kContext + 1) * 2 * kOut +
                                                        kRows * (kState + kEmbedding + kContext)));
  BOOST_TEST(report.worst_error < kDeepOutputTolerance, report.worst_place);
}

BOOST_AUTO_TEST_CASE(gradients_through_readout_and_masked_loss_match_finite_differences) {
  // t = deep(s, y, c); z = t W_o + b_o; L = masked smoothed cross-entropy sum. Row 3 is padding.
  nn::ParameterRegistry registry;
  const nn::DeepOutput deep(registry, "deep", kState, kEmbedding, kContext, kOut);
  const nn::Linear readout(registry, "readout", kOut, 5);
  separate_pairs(registry, "deep", 41);
  math::Matrix s = rt::random_matrix(kRows, kState, 7), y = rt::random_matrix(kRows, kEmbedding, 8),
               c = rt::random_matrix(kRows, kContext, 9);
  const std::vector<std::int32_t> targets = {4, 0, 2, 0};
  math::Matrix mask(kRows, 1);
  mask << 1, 1, 1, 0;
  nn::DeepOutput::Cache cache;
  math::Matrix t, logits;
  const auto forward = [&] {
    deep.forward(s, y, c, cache, t);
    readout.forward(t, logits);
    math::Matrix loss(1, 1);
    loss(0, 0) = static_cast<float>(nn::softmax_cross_entropy(logits, targets, mask, 0.1f).loss);
    return loss;
  };
  const auto backward = [&](const math::Matrix& d_loss, std::vector<math::Matrix>& d_in) {
    forward();
    math::Matrix d_logits;
    nn::softmax_cross_entropy(logits, targets, mask, 0.1f, &d_logits);
    d_logits *= d_loss(0, 0);
    math::Matrix d_t = math::Matrix::Zero(kRows, kOut);
    readout.backward(t, d_logits, &d_t);
    deep.backward(s, y, c, cache, d_t, &d_in[0], &d_in[1], &d_in[2]);
  };
  forward();
  BOOST_REQUIRE(smallest_pair_gap(cache.pre) > 0.2f);
  const auto report = rt::check_gradients(registry, {&s, &y, &c}, forward, backward);
  BOOST_TEST(report.worst_error < kDeepOutputTolerance, report.worst_place);

  // The padding row gets no gradient, and its inputs do not change the loss.
  std::vector<math::Matrix> d_in = {math::Matrix::Zero(kRows, kState), math::Matrix::Zero(kRows, kEmbedding),
                                    math::Matrix::Zero(kRows, kContext)};
  backward(math::Matrix::Ones(1, 1), d_in);
  for (const math::Matrix& d : d_in) {
    BOOST_TEST(d.row(3).cwiseAbs().maxCoeff() == 0.0f);
    BOOST_TEST(d.topRows(3).cwiseAbs().maxCoeff() > 0.0f);
  }
  const float before = forward()(0, 0);
  s.row(3).setConstant(50.0f);
  c.row(3).setConstant(-50.0f);
  BOOST_TEST(forward()(0, 0) == before);
}

BOOST_AUTO_TEST_CASE(padding_rows_do_not_change_real_rows) {
  nn::ParameterRegistry registry;
  const nn::DeepOutput deep(registry, "deep", kState, kEmbedding, kContext, kOut);
  rt::randomize(registry, 51);
  math::Matrix s = rt::random_matrix(kRows, kState, 10), y = rt::random_matrix(kRows, kEmbedding, 11),
               c = rt::random_matrix(kRows, kContext, 12);
  nn::DeepOutput::Cache cache;
  math::Matrix t_before, t_after;
  deep.forward(s, y, c, cache, t_before);
  y.row(1).setConstant(1e3f);
  deep.forward(s, y, c, cache, t_after);
  BOOST_TEST((t_before.row(0) - t_after.row(0)).cwiseAbs().maxCoeff() == 0.0f);
  BOOST_TEST((t_before.bottomRows(2) - t_after.bottomRows(2)).cwiseAbs().maxCoeff() == 0.0f);

  // A row whose d_t is 0 gets zero input gradients.
  math::Matrix d_t = rt::random_matrix(kRows, kOut, 13);
  d_t.row(1).setZero();
  math::Matrix d_s = math::Matrix::Zero(kRows, kState), d_y = math::Matrix::Zero(kRows, kEmbedding),
               d_c = math::Matrix::Zero(kRows, kContext);
  deep.backward(s, y, c, cache, d_t, &d_s, &d_y, &d_c);
  BOOST_TEST(d_s.row(1).cwiseAbs().maxCoeff() == 0.0f);
  BOOST_TEST(d_y.row(1).cwiseAbs().maxCoeff() == 0.0f);
  BOOST_TEST(d_c.row(1).cwiseAbs().maxCoeff() == 0.0f);
}

BOOST_AUTO_TEST_CASE(backward_accumulates) {
  nn::ParameterRegistry registry;
  const nn::DeepOutput deep(registry, "deep", kState, kEmbedding, kContext, kOut);
  rt::randomize(registry, 61);
  const math::Matrix s = rt::random_matrix(kRows, kState, 14), y = rt::random_matrix(kRows, kEmbedding, 15),
                     c = rt::random_matrix(kRows, kContext, 16), d_t = rt::random_matrix(kRows, kOut, 17);
  nn::DeepOutput::Cache cache;
  math::Matrix t;
  deep.forward(s, y, c, cache, t);
  math::Matrix d_s = math::Matrix::Zero(kRows, kState), d_y = math::Matrix::Zero(kRows, kEmbedding),
               d_c = math::Matrix::Zero(kRows, kContext);
  deep.backward(s, y, c, cache, d_t, &d_s, &d_y, &d_c);
  std::vector<math::Matrix> once;
  for (const nn::Parameter* p : registry.all()) once.push_back(p->gradient);
  const math::Matrix d_s1 = d_s, d_y1 = d_y, d_c1 = d_c;
  deep.backward(s, y, c, cache, d_t, &d_s, &d_y, &d_c);
  for (std::size_t i = 0; i < once.size(); ++i) {
    BOOST_TEST((registry.all()[i]->gradient - 2 * once[i]).cwiseAbs().maxCoeff() < 1e-5f, registry.all()[i]->name);
    BOOST_TEST(once[i].cwiseAbs().maxCoeff() > 0.0f, registry.all()[i]->name);
  }
  BOOST_TEST((d_s - 2 * d_s1).cwiseAbs().maxCoeff() < 1e-5f);
  BOOST_TEST((d_y - 2 * d_y1).cwiseAbs().maxCoeff() < 1e-5f);
  BOOST_TEST((d_c - 2 * d_c1).cwiseAbs().maxCoeff() < 1e-5f);
}

BOOST_AUTO_TEST_CASE(shape_errors_name_the_parameter_and_both_shapes) {
  nn::ParameterRegistry registry;
  const nn::DeepOutput deep(registry, "deep", kState, kEmbedding, kContext, kOut);
  const math::Matrix s = math::Matrix::Ones(kRows, kState), y = math::Matrix::Ones(kRows, kEmbedding),
                     c = math::Matrix::Ones(kRows, kContext);
  nn::DeepOutput::Cache cache;
  math::Matrix t;
  const auto message = [](const auto& call) -> std::string {
    try {
      call();
    } catch (const util::Error& e) {
      return e.what();
    }
    return "no error";
  };
  BOOST_TEST(message([&] { deep.forward(s, math::Matrix::Zero(kRows, 3), c, cache, t); }) ==
             "deep.V input y_emb is [4 x 3], expected [4 x 2]");
  BOOST_TEST(message([&] { deep.forward(s, y, math::Matrix::Zero(3, kContext), cache, t); }) ==
             "deep.C input c is [3 x 4], expected [4 x 4]");
  BOOST_TEST(message([&] { deep.forward(math::Matrix::Zero(kRows, 2), y, c, cache, t); }) ==
             "deep.U input s is [4 x 2], expected [4 x 3]");
  deep.forward(s, y, c, cache, t);
  BOOST_TEST(message([&] { deep.backward(s, y, c, cache, math::Matrix::Zero(kRows, 6), nullptr, nullptr, nullptr); }) ==
             "deep.b gradient d_t is [4 x 6], expected [4 x 3]");
  math::Matrix d_c = math::Matrix::Zero(kRows, 2);
  const math::Matrix d_t = math::Matrix::Ones(kRows, kOut);
  BOOST_TEST(message([&] { deep.backward(s, y, c, cache, d_t, nullptr, nullptr, &d_c); }) ==
             "deep.C gradient d_c is [4 x 2], expected [4 x 4]");
  // Nothing accumulated before the shape error.
  BOOST_TEST(registry.get("deep.U").gradient.cwiseAbs().maxCoeff() == 0.0f);
  BOOST_CHECK_THROW(nn::DeepOutput(registry, "bad", kState, kEmbedding, kContext, 0), util::Error);
}

BOOST_AUTO_TEST_SUITE_END()
