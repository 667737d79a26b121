// nn::Attention::step with a row map (inference: a beam's hypotheses read their sentence's
// annotations and keys instead of copies): for every form, each mapped row's context and
// weights are bit for bit those of the unmapped step on a batch holding copies of the rows'
// sentences; step_backward refuses a mapped step's cache; a row naming a sentence outside
// the batch is an error. Additive attention with int8 or bf16 weights scores a mapped step
// with math::tanh_dot (its own composed reference below), and fp32 again restores the bits.
#include <boost/test/unit_test.hpp>
#include <memory>
#include <string>
#include <vector>

#include "math/precision.h"
#include "math/softmax.h"
#include "math/tanh_dot.h"
#include "nn/additive_attention.h"
#include "nn/attention.h"
#include "nn/parameters.h"
#include "support/gradcheck.h"
#include "util/error.h"

using namespace rnnsearch;
namespace rt = rnnsearch::testing;

namespace {

// S source positions, B sentences; sentence 1 has 2 real positions, sentence 2 none.
constexpr int kS = 3, kB = 3;

math::Matrix row_map_mask() {
  math::Matrix mask(kS, kB);  // [S x B]
  mask << 1, 1, 0,  //
      1, 1, 0,      //
      1, 0, 0;
  return mask;
}

// The batch of sentences `rows` of (annotations, keys, mask): row j*R + r is position j
// of sentence rows[r].
void copy_rows(const math::Matrix& in, int B, const std::vector<int>& rows, math::Matrix& out) {
  const auto R = static_cast<Eigen::Index>(rows.size());
  out.resize(kS * R, in.cols());
  for (Eigen::Index j = 0; j < kS; ++j) {
    for (Eigen::Index r = 0; r < R; ++r) out.row(j * R + r) = in.row(j * B + rows[static_cast<std::size_t>(r)]);
  }
}

struct Form {
  nn::AttentionForm form;
  int D, M, A;
  const char* what;
};

// Widths off the vector sizes too, so that rows of the copies start at other alignments.
const Form kForms[] = {
    {nn::AttentionForm::kAdditive, 6, 5, 7, "additive, A 7"},
    {nn::AttentionForm::kAdditive, 32, 16, 32, "additive, A 32"},
    {nn::AttentionForm::kGeneral, 6, 5, 0, "general"},
    {nn::AttentionForm::kDot, 6, 4, 0, "dot"},
    {nn::AttentionForm::kNone, 6, 5, 0, "none"},
};

}  // namespace

BOOST_AUTO_TEST_SUITE(attention_row_map)

BOOST_AUTO_TEST_CASE(a_mapped_step_equals_the_step_on_copied_sentences) {
  const std::vector<int> rows = {1, 0, 0, 2, 1, 1};  // a beam's rows, sentence 2 all padding
  const auto R = static_cast<Eigen::Index>(rows.size());
  for (const Form& f : kForms) {
    BOOST_TEST_CONTEXT(f.what) {
      nn::ParameterRegistry registry;
      const auto attention = nn::make_attention(f.form, registry, "att", f.D, f.M, f.A);
      rt::randomize(registry, 7, 0.8f);
      const math::Matrix annotations = rt::random_matrix(kS * kB, f.D, 8), query = rt::random_matrix(R, f.M, 9);
      const math::Matrix mask = row_map_mask();
      math::Matrix keys;
      attention->precompute_keys(annotations, keys);

      nn::Attention::StepCache mapped_cache;
      math::Matrix mapped_context, mapped_weights;
      attention->step(query, annotations, keys, mask, mapped_cache, mapped_context, mapped_weights, &rows);

      math::Matrix copied_annotations, copied_keys, copied_mask(kS, R);
      copy_rows(annotations, kB, rows, copied_annotations);
      copy_rows(keys, kB, rows, copied_keys);
      for (Eigen::Index r = 0; r < R; ++r) copied_mask.col(r) = mask.col(rows[static_cast<std::size_t>(r)]);
      nn::Attention::StepCache cache;
      math::Matrix context, weights;
      attention->step(query, copied_annotations, copied_keys, copied_mask, cache, context, weights);

      BOOST_TEST(mapped_context.rows() == R);
      BOOST_TEST(mapped_weights.rows() == R);
      BOOST_TEST((mapped_context.array() == context.array()).all());
      BOOST_TEST((mapped_weights.array() == weights.array()).all());
      BOOST_TEST(mapped_context.row(3).isZero(0.0f));  // the all-padding sentence
      BOOST_TEST(mapped_weights.row(3).isZero(0.0f));

      math::Matrix d_query = math::Matrix::Zero(R, f.M), d_annotations = math::Matrix::Zero(kS * kB, f.D);
      math::Matrix d_keys = math::Matrix::Zero(kS * kB, attention->key_dim());
      try {
        attention->step_backward(mapped_cache, math::Matrix::Ones(R, f.D), nullptr, d_query, d_annotations, d_keys);
        BOOST_ERROR("step_backward accepted a mapped step");
      } catch (const util::Error& e) {
        BOOST_TEST(std::string(e.what()).find("step_backward after an inference step with a row map") !=
                   std::string::npos);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(reduced_precision_scores_a_mapped_additive_step_with_tanh_dot) {
  constexpr int D = 32, M = 16, A = 37;  // A % 16 != 0
  const std::vector<int> rows = {1, 0, 0, 2, 1, 1};
  const auto R = static_cast<Eigen::Index>(rows.size());
  nn::ParameterRegistry registry;
  nn::AdditiveAttention attention(registry, "att", D, M, A);
  rt::randomize(registry, 7, 0.8f);
  const math::Matrix annotations = rt::random_matrix(kS * kB, D, 8), query = rt::random_matrix(R, M, 9);
  const math::Matrix mask = row_map_mask();
  math::Matrix keys, exact_context, exact_weights, context, weights;
  attention.precompute_keys(annotations, keys);
  nn::Attention::StepCache cache;
  attention.step(query, annotations, keys, mask, cache, exact_context, exact_weights, &rows);
  BOOST_TEST((attention.score_arithmetic() == nn::AdditiveAttention::ScoreArithmetic::kExact));

  for (const math::Precision precision : {math::Precision::kInt8, math::Precision::kBf16}) {
    if (!math::precision_supported(precision)) continue;
    BOOST_TEST_CONTEXT(math::precision_name(precision)) {
      attention.set_inference_precision(precision);
      BOOST_TEST((attention.score_arithmetic() == nn::AdditiveAttention::ScoreArithmetic::kFastTanh));
      attention.step(query, annotations, keys, mask, cache, context, weights, &rows);
      math::Matrix scores = math::Matrix::Zero(R, kS), expected_weights;  // e: [R x S] from the step's own q
      const float* v = registry.get("att.v").value.data();
      for (Eigen::Index j = 0; j < kS; ++j) {
        for (Eigen::Index r = 0; r < R; ++r) {
          const int b = rows[static_cast<std::size_t>(r)];
          if (mask(j, b) == 0.0f) continue;
          scores(r, j) = math::tanh_dot_function()(cache.projected_query.row(r).data(), keys.row(j * kB + b).data(), v, A);
        }
      }
      BOOST_TEST((cache.scores_bs.array() == scores.array()).all());
      math::masked_softmax(scores, cache.row_mask, math::MaskLayout::kTransposed, expected_weights);
      BOOST_TEST((weights.array() == expected_weights.array()).all());
      BOOST_TEST(weights.row(3).isZero(0.0f));  // the all-padding sentence
      BOOST_TEST((weights - exact_weights).cwiseAbs().maxCoeff() < 0.05f);  // int8 q, close to fp32's
    }
  }
  attention.set_inference_precision(math::Precision::kFp32);
  BOOST_TEST((attention.score_arithmetic() == nn::AdditiveAttention::ScoreArithmetic::kExact));
  attention.step(query, annotations, keys, mask, cache, context, weights, &rows);
  BOOST_TEST((context.array() == exact_context.array()).all());
  BOOST_TEST((weights.array() == exact_weights.array()).all());
}

BOOST_AUTO_TEST_CASE(a_row_outside_the_batch_is_an_error) {
  nn::ParameterRegistry registry;
  const auto attention = nn::make_attention(nn::AttentionForm::kAdditive, registry, "att", 4, 3, 5);
  const math::Matrix annotations = rt::random_matrix(kS * kB, 4, 1);
  math::Matrix keys, context, weights;
  attention->precompute_keys(annotations, keys);
  nn::Attention::StepCache cache;
  const std::vector<int> rows = {0, 3};
  try {
    attention->step(rt::random_matrix(2, 3, 2), annotations, keys, row_map_mask(), cache, context, weights, &rows);
    BOOST_ERROR("no error");
  } catch (const util::Error& e) {
    BOOST_TEST(std::string(e.what()) == "attention step: row 1 reads sentence 3 of a batch of 3");
  }
}

BOOST_AUTO_TEST_SUITE_END()
