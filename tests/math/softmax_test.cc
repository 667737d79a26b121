// math::masked_softmax: rows sum to 1 over real positions, padding gets exactly 0, an
// all-padding row gives zeros (no NaN), large scores stay finite, both mask layouts agree,
// and the backward pass matches finite differences and accumulates.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <limits>

#include "math/softmax.h"
#include "nn/parameters.h"
#include "support/gradcheck.h"
#include "util/error.h"

using namespace rnnsearch;
namespace rt = rnnsearch::testing;

namespace {

// mask: [3 x 4], one row per sentence: full, padded after 2, all padding.
math::Matrix softmax_test_mask() {
  math::Matrix mask(3, 4);
  mask << 1, 1, 1, 1,  //
      1, 1, 0, 0,      //
      0, 0, 0, 0;
  return mask;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(masked_softmax)

BOOST_AUTO_TEST_CASE(rows_sum_to_one_and_padding_gets_exactly_zero) {
  const math::Matrix scores = rt::random_matrix(3, 4, 21, 3.0f);
  const math::Matrix mask = softmax_test_mask();
  math::Matrix probs;
  math::masked_softmax(scores, mask, math::MaskLayout::kSame, probs);
  BOOST_TEST(probs.rows() == 3);
  BOOST_TEST(probs.cols() == 4);
  BOOST_TEST(std::fabs(probs.row(0).sum() - 1.0f) < 1e-6f);
  BOOST_TEST(std::fabs(probs.row(1).sum() - 1.0f) < 1e-6f);
  BOOST_TEST(probs(1, 2) == 0.0f);
  BOOST_TEST(probs(1, 3) == 0.0f);
  BOOST_TEST((probs.array() >= 0.0f).all());
  // The real entries of row 1 are the plain softmax of its first two scores.
  const float e0 = std::exp(scores(1, 0)), e1 = std::exp(scores(1, 1));
  BOOST_TEST(std::fabs(probs(1, 0) - e0 / (e0 + e1)) < 1e-6f);
}

BOOST_AUTO_TEST_CASE(an_all_padding_row_gives_zeros_without_nan) {
  math::Matrix scores = rt::random_matrix(3, 4, 22);
  scores(2, 1) = std::numeric_limits<float>::quiet_NaN();  // masked scores are never read
  scores(1, 3) = -std::numeric_limits<float>::infinity();
  math::Matrix probs;
  math::masked_softmax(scores, softmax_test_mask(), math::MaskLayout::kSame, probs);
  BOOST_TEST(probs.allFinite());
  BOOST_TEST(probs.row(2).cwiseAbs().maxCoeff() == 0.0f);
  BOOST_TEST(std::fabs(probs.row(1).sum() - 1.0f) < 1e-6f);

  math::Matrix d_scores = math::Matrix::Zero(3, 4);
  math::masked_softmax_backward(probs, rt::random_matrix(3, 4, 23), d_scores);
  BOOST_TEST(d_scores.allFinite());
  BOOST_TEST(d_scores.row(2).cwiseAbs().maxCoeff() == 0.0f);
  BOOST_TEST(d_scores(1, 2) == 0.0f);
  BOOST_TEST(d_scores(1, 3) == 0.0f);
}

BOOST_AUTO_TEST_CASE(large_scores_stay_finite) {
  math::Matrix scores(1, 3);
  scores << 1000.0f, 1001.0f, -1000.0f;
  math::Matrix probs;
  math::masked_softmax(scores, math::Matrix::Ones(1, 3), math::MaskLayout::kSame, probs);
  BOOST_TEST(probs.allFinite());
  BOOST_TEST(std::fabs(probs(0, 1) - 1.0f / (1.0f + std::exp(-1.0f))) < 1e-6f);
  BOOST_TEST(probs(0, 2) == 0.0f);  // underflows, but no NaN
}

BOOST_AUTO_TEST_CASE(transposed_mask_matches_and_in_place_works) {
  const math::Matrix scores = rt::random_matrix(3, 4, 24);
  const math::Matrix mask = softmax_test_mask();
  const math::Matrix mask_sb = mask.transpose();  // [S x B], the batch layout
  math::Matrix same, transposed;
  math::masked_softmax(scores, mask, math::MaskLayout::kSame, same);
  math::masked_softmax(scores, mask_sb, math::MaskLayout::kTransposed, transposed);
  BOOST_TEST((same - transposed).cwiseAbs().maxCoeff() == 0.0f);
  math::Matrix in_place = scores;
  math::masked_softmax(in_place, mask, math::MaskLayout::kSame, in_place);
  BOOST_TEST((same - in_place).cwiseAbs().maxCoeff() == 0.0f);
}

BOOST_AUTO_TEST_CASE(backward_matches_finite_differences_and_accumulates) {
  nn::ParameterRegistry none;
  math::Matrix scores = rt::random_matrix(3, 4, 25, 2.0f);
  const math::Matrix mask = softmax_test_mask();
  math::Matrix probs;
  const auto report = rt::check_gradients(
      none, {&scores},
      [&] {
        math::Matrix p;
        math::masked_softmax(scores, mask, math::MaskLayout::kSame, p);
        return p;
      },
      [&](const math::Matrix& d_probs, std::vector<math::Matrix>& d_inputs) {
        math::masked_softmax(scores, mask, math::MaskLayout::kSame, probs);
        math::masked_softmax_backward(probs, d_probs, d_inputs[0]);
      });
  BOOST_TEST(report.checked == 12u);
  BOOST_TEST(report.worst_error < 2e-2, report.worst_place);

  // d_scores = alpha (d_alpha - sum alpha d_alpha), added twice gives twice.
  const math::Matrix d_probs = rt::random_matrix(3, 4, 26);
  math::Matrix once = math::Matrix::Zero(3, 4);
  math::masked_softmax_backward(probs, d_probs, once);
  const float dot = probs.row(0).dot(d_probs.row(0));
  BOOST_TEST(std::fabs(once(0, 1) - probs(0, 1) * (d_probs(0, 1) - dot)) < 1e-6f);
  math::Matrix twice = once;
  math::masked_softmax_backward(probs, d_probs, twice);
  BOOST_TEST((twice - 2 * once).cwiseAbs().maxCoeff() < 1e-6f);
}

BOOST_AUTO_TEST_CASE(shape_errors_name_both_shapes) {
  math::Matrix probs;
  try {
    math::masked_softmax(math::Matrix::Zero(3, 4), math::Matrix::Ones(3, 4), math::MaskLayout::kTransposed, probs);
    BOOST_FAIL("no error");
  } catch (const util::Error& e) {
    BOOST_TEST(std::string(e.what()) == "masked_softmax: mask (transposed, [S x B]) is [3 x 4], expected [4 x 3]");
  }
  BOOST_CHECK_THROW(
      math::masked_softmax(math::Matrix::Zero(3, 4), math::Matrix::Ones(4, 3), math::MaskLayout::kSame, probs),
      util::Error);
  math::Matrix d_scores = math::Matrix::Zero(3, 3);
  BOOST_CHECK_THROW(math::masked_softmax_backward(math::Matrix::Zero(3, 4), math::Matrix::Zero(3, 4), d_scores),
                    util::Error);
}

BOOST_AUTO_TEST_SUITE_END()
