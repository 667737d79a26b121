// nn::AdditiveAttention: finite-difference checks of precompute_keys + step (+ the two
// backward passes) for the context and for the weights, masking, accumulation, the
// backward pass through a transposed copy of W_a, and shape errors.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <limits>

#include "nn/additive_attention.h"
#include "nn/parameters.h"
#include "support/gradcheck.h"
#include "util/error.h"

using namespace rnnsearch;
namespace rt = rnnsearch::testing;

namespace {

constexpr double kAttentionTolerance = 2e-2;
// Tiny sizes: S source positions, B sentences, 2n annotation width, m query width, A attention width.
constexpr int kS = 3, kB = 2, kD = 4, kM = 3, kA = 5;

// source mask: [S x B]; sentence 0 has 3 tokens, sentence 1 has 2 (position 2 is padding).
math::Matrix attention_test_mask() {
  math::Matrix mask(kS, kB);
  mask << 1, 1,  //
      1, 1,      //
      1, 0;
  return mask;
}

// One attention layer with random parameters and inputs, run through precompute_keys + step.
struct AttentionFixture {
  nn::ParameterRegistry registry;
  nn::AdditiveAttention attention{registry, "att", kD, kM, kA};
  math::Matrix query = rt::random_matrix(kB, kM, 31);             // s: [B x m]
  math::Matrix annotations = rt::random_matrix(kS * kB, kD, 32);  // H: [(S*B) x 2n]
  math::Matrix mask = attention_test_mask();                      // [S x B]
  math::Matrix keys, context, weights;
  nn::AdditiveAttention::StepCache cache;

  AttentionFixture() { rt::randomize(registry, 33, 0.8f); }

  void forward() {
    attention.precompute_keys(annotations, keys);
    attention.step(query, annotations, keys, mask, cache, context, weights);
  }
  // d_inputs = {d_query, d_annotations}, zeroed and shaped.
  void backward(const math::Matrix& d_context, const math::Matrix* d_weights, std::vector<math::Matrix>& d_inputs) {
    math::Matrix d_keys = math::Matrix::Zero(kS * kB, kA);
    attention.step_backward(cache, d_context, d_weights, d_inputs[0], d_inputs[1], d_keys);
    attention.keys_backward(annotations, d_keys, d_inputs[1]);
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(additive_attention_layer)

BOOST_AUTO_TEST_CASE(context_gradients_match_finite_differences) {
  AttentionFixture f;
  const auto report = rt::check_gradients(
      f.registry, {&f.query, &f.annotations},
      [&] {
        f.forward();
        return f.context;
      },
      [&](const math::Matrix& d_context, std::vector<math::Matrix>& d_inputs) {
        f.backward(d_context, nullptr, d_inputs);
      });
  BOOST_TEST(report.checked == static_cast<std::size_t>(kD * kA + kM * kA + kA + kA + kB * kM + kS * kB * kD));
  BOOST_TEST(report.worst_error < kAttentionTolerance, report.worst_place);
}

BOOST_AUTO_TEST_CASE(weight_gradients_match_finite_differences) {
  AttentionFixture f;
  const math::Matrix no_context = math::Matrix::Zero(kB, kD);
  const auto report = rt::check_gradients(
      f.registry, {&f.query, &f.annotations},
      [&] {
        f.forward();
        return f.weights;
      },
      [&](const math::Matrix& d_weights, std::vector<math::Matrix>& d_inputs) {
        f.backward(no_context, &d_weights, d_inputs);
      });
  BOOST_TEST(report.checked == static_cast<std::size_t>(kD * kA + kM * kA + kA + kA + kB * kM + kS * kB * kD));
  BOOST_TEST(report.worst_error < kAttentionTolerance, report.worst_place);
}

BOOST_AUTO_TEST_CASE(context_and_weights_together_match_finite_differences) {
  AttentionFixture f;
  const auto report = rt::check_gradients(
      f.registry, {&f.query, &f.annotations},
      [&] {
        f.forward();
        math::Matrix both(kB, kD + kS);  // [c | alpha]: [B x (2n + S)]
        both << f.context, f.weights;
        return both;
      },
      [&](const math::Matrix& d_both, std::vector<math::Matrix>& d_inputs) {
        const math::Matrix d_context = d_both.leftCols(kD), d_weights = d_both.rightCols(kS);
        f.backward(d_context, &d_weights, d_inputs);
      });
  BOOST_TEST(report.worst_error < kAttentionTolerance, report.worst_place);
}

BOOST_AUTO_TEST_CASE(weights_are_a_masked_softmax_and_context_their_average) {
  AttentionFixture f;
  f.forward();
  BOOST_TEST(f.weights.rows() == kB);
  BOOST_TEST(f.weights.cols() == kS);
  BOOST_TEST(f.context.rows() == kB);
  BOOST_TEST(f.context.cols() == kD);
  BOOST_TEST(f.weights(1, 2) == 0.0f);
  for (int b = 0; b < kB; ++b) BOOST_TEST(std::fabs(f.weights.row(b).sum() - 1.0f) < 1e-6f);
  // Composed reference in plain Eigen: e_bj = v^T tanh(s_b W + b + h_{j,b} U).
  const auto& p = f.registry;
  for (int b = 0; b < kB; ++b) {
    math::Matrix e(1, kS);
    for (int j = 0; j < kS; ++j) {
      const math::Matrix pre = f.query.row(b) * p.get("att.W").value + p.get("att.b").value +
                               f.annotations.row(j * kB + b) * p.get("att.U").value;
      e(0, j) = (pre.array().tanh().matrix() * p.get("att.v").value)(0, 0);
    }
    const int length = b == 0 ? 3 : 2;
    const float max = e.leftCols(length).maxCoeff();
    const float sum = (e.leftCols(length).array() - max).exp().sum();
    math::Matrix c = math::Matrix::Zero(1, kD);
    for (int j = 0; j < length; ++j) {
      const float alpha = std::exp(e(0, j) - max) / sum;
      BOOST_TEST(std::fabs(f.weights(b, j) - alpha) < 1e-5f);
      c += alpha * f.annotations.row(j * kB + b);
    }
    BOOST_TEST((f.context.row(b) - c).cwiseAbs().maxCoeff() < 1e-5f);
  }
}

BOOST_AUTO_TEST_CASE(padded_annotations_change_nothing_and_get_no_gradient) {
  AttentionFixture f;
  f.forward();
  const math::Matrix context = f.context, weights = f.weights;
  const int padded_row = 2 * kB + 1;  // position 2 of sentence 1
  f.annotations.row(padded_row).setConstant(1e6f);
  f.forward();
  BOOST_TEST((f.context - context).cwiseAbs().maxCoeff() == 0.0f);
  BOOST_TEST((f.weights - weights).cwiseAbs().maxCoeff() == 0.0f);
  // Even non-finite keys at padding are never read.
  f.keys.row(padded_row).setConstant(std::numeric_limits<float>::quiet_NaN());
  f.attention.step(f.query, f.annotations, f.keys, f.mask, f.cache, f.context, f.weights);
  BOOST_TEST((f.context - context).cwiseAbs().maxCoeff() == 0.0f);
  BOOST_TEST((f.weights - weights).cwiseAbs().maxCoeff() == 0.0f);

  std::vector<math::Matrix> d_inputs = {math::Matrix::Zero(kB, kM), math::Matrix::Zero(kS * kB, kD)};
  math::Matrix d_keys = math::Matrix::Zero(kS * kB, kA);
  const math::Matrix d_context = rt::random_matrix(kB, kD, 34), d_weights = rt::random_matrix(kB, kS, 35);
  f.attention.step_backward(f.cache, d_context, &d_weights, d_inputs[0], d_inputs[1], d_keys);
  BOOST_TEST(d_keys.allFinite());
  BOOST_TEST(f.registry.get("att.v").gradient.allFinite());
  BOOST_TEST(d_keys.row(padded_row).cwiseAbs().maxCoeff() == 0.0f);
  BOOST_TEST(d_inputs[1].row(padded_row).cwiseAbs().maxCoeff() == 0.0f);
  f.attention.keys_backward(f.annotations, d_keys, d_inputs[1]);
  BOOST_TEST(d_inputs[1].row(padded_row).cwiseAbs().maxCoeff() == 0.0f);
}

BOOST_AUTO_TEST_CASE(an_all_padding_sentence_gets_zero_weights_and_context) {
  AttentionFixture f;
  f.mask.col(1).setZero();
  f.forward();
  BOOST_TEST(f.weights.allFinite());
  BOOST_TEST(f.context.allFinite());
  BOOST_TEST(f.weights.row(1).cwiseAbs().maxCoeff() == 0.0f);
  BOOST_TEST(f.context.row(1).cwiseAbs().maxCoeff() == 0.0f);
  BOOST_TEST(std::fabs(f.weights.row(0).sum() - 1.0f) < 1e-6f);

  std::vector<math::Matrix> d_inputs = {math::Matrix::Zero(kB, kM), math::Matrix::Zero(kS * kB, kD)};
  f.backward(rt::random_matrix(kB, kD, 36), nullptr, d_inputs);
  BOOST_TEST(d_inputs[0].allFinite());
  BOOST_TEST(d_inputs[0].row(1).cwiseAbs().maxCoeff() == 0.0f);
  for (int j = 0; j < kS; ++j) BOOST_TEST(d_inputs[1].row(j * kB + 1).cwiseAbs().maxCoeff() == 0.0f);
}

BOOST_AUTO_TEST_CASE(backward_accumulates) {
  AttentionFixture f;
  f.forward();
  const math::Matrix d_context = rt::random_matrix(kB, kD, 37), d_weights = rt::random_matrix(kB, kS, 38);
  std::vector<math::Matrix> once = {math::Matrix::Zero(kB, kM), math::Matrix::Zero(kS * kB, kD)};
  f.backward(d_context, &d_weights, once);
  std::vector<math::Matrix> gradients_once;
  for (const nn::Parameter* p : f.registry.all()) gradients_once.push_back(p->gradient);
  std::vector<math::Matrix> twice = once;
  f.backward(d_context, &d_weights, twice);
  for (int i = 0; i < 2; ++i) BOOST_TEST((twice[i] - 2 * once[i]).cwiseAbs().maxCoeff() < 1e-5f);
  const auto all = f.registry.all();
  for (std::size_t i = 0; i < all.size(); ++i) {
    BOOST_TEST((all[i]->gradient - 2 * gradients_once[i]).cwiseAbs().maxCoeff() < 1e-5f, all[i]->name);
  }
}

BOOST_AUTO_TEST_CASE(shape_errors_name_the_parameter_and_both_shapes) {
  AttentionFixture f;
  f.attention.precompute_keys(f.annotations, f.keys);
  const auto message = [&](auto&& call) -> std::string {
    try {
      call();
    } catch (const util::Error& e) {
      return e.what();
    }
    return "no error";
  };
  BOOST_TEST(message([&] {
               f.attention.step(math::Matrix::Zero(kB, kM + 1), f.annotations, f.keys, f.mask, f.cache, f.context,
                                f.weights);
             }) == "att.W query is [2 x 4], expected [2 x 3]");
  BOOST_TEST(message([&] {
               f.attention.step(f.query, math::Matrix::Zero(kS * kB - 1, kD), f.keys, f.mask, f.cache, f.context,
                                f.weights);
             }) == "att.U annotations is [5 x 4], expected [6 x 4]");
  BOOST_TEST(message([&] {
               f.attention.step(f.query, f.annotations, f.keys, math::Matrix::Ones(kS + 1, kB), f.cache, f.context,
                                f.weights);
             }) == "att.U annotations is [6 x 4], expected [8 x 4]");
  BOOST_TEST(message([&] { f.attention.precompute_keys(math::Matrix::Zero(6, kD + 1), f.keys); }) ==
             "att.U annotations is [6 x 5], expected [6 x 4]");
  f.attention.step(f.query, f.annotations, f.keys, f.mask, f.cache, f.context, f.weights);
  math::Matrix d_query = math::Matrix::Zero(kB, kM), d_annotations = math::Matrix::Zero(kS * kB, kD);
  math::Matrix d_keys = math::Matrix::Zero(kS * kB, kA + 1);
  BOOST_TEST(message([&] {
               f.attention.step_backward(f.cache, math::Matrix::Zero(kB, kD), nullptr, d_query, d_annotations,
                                         d_keys);
             }) == "att.U gradient d_keys is [6 x 6], expected [6 x 5]");
  BOOST_TEST(message([&] { f.attention.keys_backward(f.annotations, d_keys, d_annotations); }) ==
             "att.U gradient d_keys is [6 x 6], expected [6 x 5]");
}

BOOST_AUTO_TEST_CASE(a_transposed_copy_of_the_query_weights_gives_the_same_gradients) {
  AttentionFixture f;
  f.forward();
  const math::Matrix d_context = rt::random_matrix(kB, kD, 37), d_weights = rt::random_matrix(kB, kS, 38);
  nn::Attention::TransposedWeights transposed;
  f.attention.transpose_weights(transposed);
  BOOST_TEST((transposed.query == f.registry.get("att.W").value.transpose()));
  math::Matrix d_query[2], d_annotations[2], d_keys[2];
  for (int copy = 0; copy < 2; ++copy) {
    d_query[copy] = math::Matrix::Zero(kB, kM);
    d_annotations[copy] = math::Matrix::Zero(kS * kB, kD);
    d_keys[copy] = math::Matrix::Zero(kS * kB, kA);
    f.attention.step_backward(f.cache, d_context, &d_weights, d_query[copy], d_annotations[copy], d_keys[copy],
                              nn::WeightGradients::kDeferred, copy ? &transposed : nullptr);
  }
  BOOST_TEST(d_query[1].isApprox(d_query[0], 1e-6f));
  BOOST_TEST(d_query[1].cwiseAbs().maxCoeff() > 0.0f);
  BOOST_TEST((d_annotations[1] == d_annotations[0]));
  BOOST_TEST((d_keys[1] == d_keys[0]));
  transposed.query.resize(kM, kA);  // W_a itself, not its transpose
  BOOST_CHECK_THROW(f.attention.step_backward(f.cache, d_context, &d_weights, d_query[0], d_annotations[0], d_keys[0],
                                              nn::WeightGradients::kDeferred, &transposed),
                    util::Error);
}

BOOST_AUTO_TEST_SUITE_END()
