// nn::Attention's other forms, general, dot and none (nn/multiplicative_attention.h,
// nn/fixed_context.h): finite-difference checks of precompute_keys + step (+ both backward
// passes) for the context and the weights, the scores against a composed reference
// (dot's fixed projection P written out as a matrix), padding, accumulation, and the
// factory. Additive has its own file (additive_attention_test.cc).
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <limits>
#include <memory>

#include "nn/attention.h"
#include "nn/parameters.h"
#include "support/gradcheck.h"
#include "util/error.h"

using namespace rnnsearch;
namespace rt = rnnsearch::testing;

namespace {

constexpr double kAttentionTolerance = 2e-2;
// Tiny sizes: S source positions, B sentences, A additive's hidden width (unused by these forms).
constexpr int kS = 3, kB = 2, kA = 5;

// source mask: [S x B]; sentence 0 has 3 tokens, sentence 1 has 2 (position 2 is padding).
math::Matrix attention_test_mask() {
  math::Matrix mask(kS, kB);
  mask << 1, 1,  //
      1, 1,      //
      1, 0;
  return mask;
}

// One layer of `form` with annotation width D = 2n and query width M, random parameters
// and inputs, run through precompute_keys + step.
struct FormFixture {
  nn::AttentionForm form;
  int D, M;
  nn::ParameterRegistry registry;
  std::unique_ptr<nn::Attention> attention;
  math::Matrix query, annotations, mask = attention_test_mask();
  math::Matrix keys, context, weights;
  nn::Attention::StepCache cache;

  FormFixture(nn::AttentionForm f, int d, int m)
      : form(f), D(d), M(m), attention(nn::make_attention(f, registry, "att", d, m, kA)),
        query(rt::random_matrix(kB, m, 41)), annotations(rt::random_matrix(kS * kB, d, 42)) {
    rt::randomize(registry, 43, 0.8f);
  }

  void forward() {
    attention->precompute_keys(annotations, keys);
    attention->step(query, annotations, keys, mask, cache, context, weights);
  }
  // d_inputs = {d_query, d_annotations}, zeroed and shaped.
  void backward(const math::Matrix& d_context, const math::Matrix* d_weights, std::vector<math::Matrix>& d_inputs) {
    math::Matrix d_keys = math::Matrix::Zero(kS * kB, attention->key_dim());
    attention->step_backward(cache, d_context, d_weights, d_inputs[0], d_inputs[1], d_keys);
    attention->keys_backward(annotations, d_keys, d_inputs[1]);
  }
  std::size_t coordinates() const {
    std::size_t count = static_cast<std::size_t>(kB * M + kS * kB * D);
    for (const nn::Parameter* p : registry.all()) count += static_cast<std::size_t>(p->value.size());
    return count;
  }
};

struct Case {
  nn::AttentionForm form;
  int D, M;
  const char* what;
};

// general with m != 2n; dot with m == 2n (plain dot product), m < 2n and m > 2n (folded); none.
const Case kCases[] = {
    {nn::AttentionForm::kGeneral, 4, 3, "general, m 3, 2n 4"},
    {nn::AttentionForm::kDot, 4, 4, "dot, m = 2n = 4"},
    {nn::AttentionForm::kDot, 6, 4, "dot, m 4 < 2n 6"},
    {nn::AttentionForm::kDot, 4, 7, "dot, m 7 > 2n 4"},
    {nn::AttentionForm::kNone, 4, 3, "none"},
};

// e_bj by the documented formula, in plain Eigen: s_b^T W h (general), s_b^T P h (dot).
float reference_score(const FormFixture& f, int b, int j) {
  const math::Matrix s = f.query.row(b), h = f.annotations.row(j * kB + b);
  if (f.form == nn::AttentionForm::kGeneral) return (s * f.registry.get("att.W").value * h.transpose())(0, 0);
  const int k = std::min(f.D, f.M);
  math::Matrix P = math::Matrix::Zero(f.M, f.D);  // P_id = 1 when i = d (mod k)
  for (int i = 0; i < f.M; ++i) {
    for (int d = 0; d < f.D; ++d) P(i, d) = i % k == d % k ? 1.0f : 0.0f;
  }
  return (s * P * h.transpose())(0, 0);
}

std::string message_of(const std::function<void()>& call) {
  try {
    call();
  } catch (const util::Error& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(attention_forms)

BOOST_AUTO_TEST_CASE(context_gradients_match_finite_differences) {
  for (const Case& c : kCases) {
    FormFixture f(c.form, c.D, c.M);
    const auto report = rt::check_gradients(
        f.registry, {&f.query, &f.annotations},
        [&] {
          f.forward();
          return f.context;
        },
        [&](const math::Matrix& d_context, std::vector<math::Matrix>& d_inputs) {
          f.backward(d_context, nullptr, d_inputs);
        });
    BOOST_TEST_CONTEXT(c.what) {
      BOOST_TEST(report.checked == f.coordinates());
      BOOST_TEST(report.worst_error < kAttentionTolerance, report.worst_place);
    }
  }
}

BOOST_AUTO_TEST_CASE(context_and_weights_together_match_finite_differences) {
  for (const Case& c : kCases) {
    FormFixture f(c.form, c.D, c.M);
    const auto report = rt::check_gradients(
        f.registry, {&f.query, &f.annotations},
        [&] {
          f.forward();
          math::Matrix both(kB, c.D + kS);  // [c | alpha]: [B x (2n + S)]
          both << f.context, f.weights;
          return both;
        },
        [&](const math::Matrix& d_both, std::vector<math::Matrix>& d_inputs) {
          const math::Matrix d_context = d_both.leftCols(c.D), d_weights = d_both.rightCols(kS);
          f.backward(d_context, &d_weights, d_inputs);
        });
    BOOST_TEST_CONTEXT(c.what) { BOOST_TEST(report.worst_error < kAttentionTolerance, report.worst_place); }
  }
}

BOOST_AUTO_TEST_CASE(weight_gradients_match_finite_differences) {
  for (const Case& c : kCases) {
    if (c.form == nn::AttentionForm::kNone) continue;  // constant zero weights
    FormFixture f(c.form, c.D, c.M);
    const math::Matrix no_context = math::Matrix::Zero(kB, c.D);
    const auto report = rt::check_gradients(
        f.registry, {&f.query, &f.annotations},
        [&] {
          f.forward();
          return f.weights;
        },
        [&](const math::Matrix& d_weights, std::vector<math::Matrix>& d_inputs) {
          f.backward(no_context, &d_weights, d_inputs);
        });
    BOOST_TEST_CONTEXT(c.what) { BOOST_TEST(report.worst_error < kAttentionTolerance, report.worst_place); }
  }
}

BOOST_AUTO_TEST_CASE(a_wrong_backward_is_caught) {
  // The check is not vacuous for the new forms: a backward pass that drops the score's
  // gradient (context term only) fails it.
  for (const nn::AttentionForm form : {nn::AttentionForm::kGeneral, nn::AttentionForm::kDot}) {
    FormFixture f(form, 4, 4);
    const auto report = rt::check_gradients(
        f.registry, {&f.query, &f.annotations},
        [&] {
          f.forward();
          return f.weights;
        },
        [&](const math::Matrix&, std::vector<math::Matrix>& d_inputs) {
          f.backward(math::Matrix::Zero(kB, 4), nullptr, d_inputs);
        });
    BOOST_TEST(report.worst_error > 0.2, nn::attention_form_name(form));
  }
}

BOOST_AUTO_TEST_CASE(scores_are_the_documented_bilinear_forms) {
  for (const Case& c : kCases) {
    if (c.form == nn::AttentionForm::kNone) continue;
    FormFixture f(c.form, c.D, c.M);
    f.forward();
    BOOST_TEST_CONTEXT(c.what) {
      BOOST_TEST(f.attention->has_weights());
      BOOST_TEST(f.weights(1, 2) == 0.0f);
      for (int b = 0; b < kB; ++b) {
        const int length = b == 0 ? 3 : 2;
        math::Matrix e(1, length);
        for (int j = 0; j < length; ++j) e(0, j) = reference_score(f, b, j);
        const float max = e.maxCoeff();
        double sum = 0.0;  // scalar exp: Eigen's vectorized one trips a GCC 12 false warning here
        for (int j = 0; j < length; ++j) sum += std::exp(static_cast<double>(e(0, j) - max));
        math::Matrix context = math::Matrix::Zero(1, c.D);
        for (int j = 0; j < length; ++j) {
          const float alpha = static_cast<float>(std::exp(static_cast<double>(e(0, j) - max)) / sum);
          BOOST_TEST(std::fabs(f.weights(b, j) - alpha) < 1e-5f);
          context += alpha * f.annotations.row(j * kB + b);
        }
        BOOST_TEST((f.context.row(b) - context).cwiseAbs().maxCoeff() < 1e-5f);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(dot_with_equal_sizes_is_the_plain_dot_product) {
  FormFixture f(nn::AttentionForm::kDot, 4, 4);
  f.forward();
  BOOST_TEST(f.registry.all().empty());  // nothing trained
  BOOST_TEST((f.keys == f.annotations));  // P = I: the keys are the annotations
  const float e00 = f.query.row(0).dot(f.annotations.row(0)), e01 = f.query.row(0).dot(f.annotations.row(kB));
  BOOST_TEST(std::fabs(f.weights(0, 0) / f.weights(0, 1) - std::exp(e00 - e01)) < 1e-4f);
}

BOOST_AUTO_TEST_CASE(dot_with_a_decoder_of_encoder_size_adds_the_two_directions) {
  // m = n: e_bj = s_b . (f_j + b_j), the annotation's halves summed.
  FormFixture f(nn::AttentionForm::kDot, 6, 3);
  f.forward();
  BOOST_TEST(f.attention->key_dim() == 3);
  for (int r = 0; r < kS * kB; ++r) {
    const math::Matrix sum = f.annotations.row(r).head(3) + f.annotations.row(r).tail(3);
    BOOST_TEST((f.keys.row(r) - sum).cwiseAbs().maxCoeff() < 1e-6f);
  }
}

BOOST_AUTO_TEST_CASE(none_is_the_final_encoder_states_at_every_step) {
  FormFixture f(nn::AttentionForm::kNone, 4, 3);
  f.forward();
  BOOST_TEST(!f.attention->has_weights());
  BOOST_TEST(f.attention->key_dim() == 0);
  BOOST_TEST(f.registry.all().empty());
  BOOST_TEST(f.weights.rows() == kB);
  BOOST_TEST(f.weights.cols() == kS);
  BOOST_TEST(f.weights.cwiseAbs().maxCoeff() == 0.0f);
  // c_b = [forward half at the last real position; backward half at position 0].
  for (int b = 0; b < kB; ++b) {
    const int last = b == 0 ? 2 : 1;
    BOOST_TEST((f.context.row(b).head(2) == f.annotations.row(last * kB + b).head(2)));
    BOOST_TEST((f.context.row(b).tail(2) == f.annotations.row(b).tail(2)));
  }
  // The same whatever the decoder state.
  const math::Matrix context = f.context;
  f.query = rt::random_matrix(kB, 3, 44);
  f.forward();
  BOOST_TEST((f.context == context));
}

BOOST_AUTO_TEST_CASE(padded_annotations_change_nothing_and_get_no_gradient) {
  for (const Case& c : kCases) {
    FormFixture f(c.form, c.D, c.M);
    f.forward();
    const math::Matrix context = f.context, weights = f.weights;
    const int padded_row = 2 * kB + 1;  // position 2 of sentence 1
    f.annotations.row(padded_row).setConstant(1e6f);
    f.forward();
    BOOST_TEST_CONTEXT(c.what) {
      BOOST_TEST((f.context - context).cwiseAbs().maxCoeff() == 0.0f);
      BOOST_TEST((f.weights - weights).cwiseAbs().maxCoeff() == 0.0f);
      if (f.keys.cols() > 0) {  // non-finite keys at padding are never read
        f.keys.row(padded_row).setConstant(std::numeric_limits<float>::quiet_NaN());
        f.attention->step(f.query, f.annotations, f.keys, f.mask, f.cache, f.context, f.weights);
        BOOST_TEST((f.context - context).cwiseAbs().maxCoeff() == 0.0f);
        BOOST_TEST((f.weights - weights).cwiseAbs().maxCoeff() == 0.0f);
      }
      std::vector<math::Matrix> d_inputs = {math::Matrix::Zero(kB, c.M), math::Matrix::Zero(kS * kB, c.D)};
      math::Matrix d_keys = math::Matrix::Zero(kS * kB, f.attention->key_dim());
      const math::Matrix d_context = rt::random_matrix(kB, c.D, 45), d_weights = rt::random_matrix(kB, kS, 46);
      f.attention->step_backward(f.cache, d_context, &d_weights, d_inputs[0], d_inputs[1], d_keys);
      BOOST_TEST(d_keys.allFinite());
      if (d_keys.cols() > 0) BOOST_TEST(d_keys.row(padded_row).cwiseAbs().maxCoeff() == 0.0f);
      BOOST_TEST(d_inputs[1].row(padded_row).cwiseAbs().maxCoeff() == 0.0f);
      f.attention->keys_backward(f.annotations, d_keys, d_inputs[1]);
      BOOST_TEST(d_inputs[1].row(padded_row).cwiseAbs().maxCoeff() == 0.0f);
    }
  }
}

BOOST_AUTO_TEST_CASE(an_all_padding_sentence_gets_zero_weights_and_context) {
  for (const Case& c : kCases) {
    FormFixture f(c.form, c.D, c.M);
    f.mask.col(1).setZero();
    f.forward();
    BOOST_TEST_CONTEXT(c.what) {
      BOOST_TEST(f.weights.allFinite());
      BOOST_TEST(f.context.allFinite());
      BOOST_TEST(f.weights.row(1).cwiseAbs().maxCoeff() == 0.0f);
      BOOST_TEST(f.context.row(1).cwiseAbs().maxCoeff() == 0.0f);
      std::vector<math::Matrix> d_inputs = {math::Matrix::Zero(kB, c.M), math::Matrix::Zero(kS * kB, c.D)};
      f.backward(rt::random_matrix(kB, c.D, 47), nullptr, d_inputs);
      BOOST_TEST(d_inputs[0].allFinite());
      BOOST_TEST(d_inputs[0].row(1).cwiseAbs().maxCoeff() == 0.0f);
      for (int j = 0; j < kS; ++j) BOOST_TEST(d_inputs[1].row(j * kB + 1).cwiseAbs().maxCoeff() == 0.0f);
    }
  }
}

BOOST_AUTO_TEST_CASE(backward_accumulates) {
  for (const Case& c : kCases) {
    FormFixture f(c.form, c.D, c.M);
    f.forward();
    const math::Matrix d_context = rt::random_matrix(kB, c.D, 48), d_weights = rt::random_matrix(kB, kS, 49);
    std::vector<math::Matrix> once = {math::Matrix::Zero(kB, c.M), math::Matrix::Zero(kS * kB, c.D)};
    f.backward(d_context, &d_weights, once);
    std::vector<math::Matrix> gradients_once;
    for (const nn::Parameter* p : f.registry.all()) gradients_once.push_back(p->gradient);
    std::vector<math::Matrix> twice = once;
    f.backward(d_context, &d_weights, twice);
    BOOST_TEST_CONTEXT(c.what) {
      for (int i = 0; i < 2; ++i) BOOST_TEST((twice[i] - 2 * once[i]).cwiseAbs().maxCoeff() < 1e-5f);
      const auto all = f.registry.all();
      for (std::size_t i = 0; i < all.size(); ++i) {
        BOOST_TEST((all[i]->gradient - 2 * gradients_once[i]).cwiseAbs().maxCoeff() < 1e-5f, all[i]->name);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(the_factory_registers_each_forms_parameters) {
  const auto names = [](nn::AttentionForm form) {
    nn::ParameterRegistry registry;
    const auto attention = nn::make_attention(form, registry, "att", 4, 3, kA);
    BOOST_TEST((attention->form() == form));
    std::string out;
    for (const nn::Parameter* p : registry.all()) {
      out += (out.empty() ? "" : " ") + p->name + "[" + std::to_string(p->value.rows()) + "x" +
             std::to_string(p->value.cols()) + "]";
    }
    return out;
  };
  BOOST_TEST(names(nn::AttentionForm::kAdditive) == "att.U[4x5] att.W[3x5] att.b[1x5] att.v[5x1]");
  BOOST_TEST(names(nn::AttentionForm::kGeneral) == "att.W[3x4]");
  BOOST_TEST(names(nn::AttentionForm::kDot) == "");
  BOOST_TEST(names(nn::AttentionForm::kNone) == "");
  BOOST_TEST(std::string(nn::attention_form_name(nn::AttentionForm::kGeneral)) == "general");
}

BOOST_AUTO_TEST_CASE(shape_errors_name_the_layer_and_both_shapes) {
  FormFixture general(nn::AttentionForm::kGeneral, 4, 3);
  general.forward();
  BOOST_TEST(message_of([&] {
               general.attention->step(math::Matrix::Zero(kB, 4), general.annotations, general.keys, general.mask,
                                       general.cache, general.context, general.weights);
             }) == "att.W query is [2 x 4], expected [2 x 3]");
  BOOST_TEST(message_of([&] { general.attention->precompute_keys(math::Matrix::Zero(6, 5), general.keys); }) ==
             "att.W annotations is [6 x 5], expected [6 x 4]");
  FormFixture dot(nn::AttentionForm::kDot, 6, 4);
  dot.forward();
  BOOST_TEST(message_of([&] {
               dot.attention->step(dot.query, dot.annotations, math::Matrix::Zero(kS * kB, 6), dot.mask, dot.cache,
                                   dot.context, dot.weights);
             }) == "att (dot) keys is [6 x 6], expected [6 x 4]");
  FormFixture none(nn::AttentionForm::kNone, 4, 3);
  none.forward();
  BOOST_TEST(message_of([&] {
               none.attention->step(none.query, math::Matrix::Zero(kS * kB, 5), none.keys, none.mask, none.cache,
                                    none.context, none.weights);
             }) == "att (none) annotations is [6 x 5], expected [6 x 4]");
}

BOOST_AUTO_TEST_SUITE_END()
