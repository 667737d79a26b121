// The bidirectional encoder: finite-difference gradients of the annotations with respect
// to every parameter (embedding rows included), padding (a padded sentence encodes as it
// does alone; padded rows are zero and pass no gradient), accumulation, and errors.
#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <vector>

#include "nn/bi_encoder.h"
#include "nn/parameters.h"
#include "support/gradcheck.h"
#include "util/error.h"

using namespace rnnsearch;
namespace rt = rnnsearch::testing;

namespace {

constexpr double kBiEncoderTolerance = 2e-2;
constexpr int kBiEncoderVocabulary = 6, kBiEncoderEmbedding = 3, kBiEncoderHidden = 2;
constexpr int kBiEncoderSteps = 3, kBiEncoderBatch = 2;
constexpr std::int32_t kBiEncoderPadId = 5;  // used only at the padded position

// [T x B]: sentence 0 has 3 tokens, sentence 1 has 2 (right-padded).
math::Matrix bi_encoder_test_mask() {
  math::Matrix mask(kBiEncoderSteps, kBiEncoderBatch);
  mask << 1, 1,  //
      1, 1,      //
      1, 0;
  return mask;
}

// ids t*B + b: sentence 0 = {1, 2, 1}, sentence 1 = {3, 4, <pad>}.
std::vector<std::int32_t> bi_encoder_test_ids() { return {1, 3, 2, 4, 1, kBiEncoderPadId}; }

}  // namespace

BOOST_AUTO_TEST_SUITE(bi_encoder_layer)

BOOST_AUTO_TEST_CASE(registers_sub_layers) {
  nn::ParameterRegistry registry;
  const nn::BiEncoder encoder(registry, "enc", kBiEncoderVocabulary, kBiEncoderEmbedding, kBiEncoderHidden);
  BOOST_TEST(registry.get("enc.embedding.E").value.rows() == kBiEncoderVocabulary);
  BOOST_TEST(registry.get("enc.embedding.E").value.cols() == kBiEncoderEmbedding);
  BOOST_TEST(registry.get("enc.forward.W").value.rows() == kBiEncoderEmbedding);
  BOOST_TEST(registry.get("enc.forward.U_h").value.rows() == kBiEncoderHidden);
  BOOST_TEST(registry.get("enc.backward.W").value.rows() == kBiEncoderEmbedding);
  BOOST_TEST(registry.get("enc.backward.U_zr").value.cols() == 2 * kBiEncoderHidden);
  BOOST_TEST(registry.all().size() == 9u);
  BOOST_TEST(encoder.annotation_dim() == 2 * kBiEncoderHidden);
}

BOOST_AUTO_TEST_CASE(finite_difference_gradients_of_all_parameters) {
  nn::ParameterRegistry registry;
  const nn::BiEncoder encoder(registry, "enc", kBiEncoderVocabulary, kBiEncoderEmbedding, kBiEncoderHidden);
  rt::randomize(registry, 31);
  const std::vector<std::int32_t> ids = bi_encoder_test_ids();
  const math::Matrix mask = bi_encoder_test_mask();
  nn::BiEncoder::Cache cache;
  const rt::GradientReport report = rt::check_gradients(
      registry, {},
      [&] {
        math::Matrix annotations;
        encoder.forward(ids, mask, cache, annotations);
        return annotations;
      },
      [&](const math::Matrix& d_annotations, std::vector<math::Matrix>&) { encoder.backward(cache, d_annotations); });
  BOOST_TEST_MESSAGE("bi_encoder worst " << report.worst_error << " at " << report.worst_place);
  BOOST_TEST(report.worst_error < kBiEncoderTolerance);
  BOOST_TEST(report.checked == registry.scalar_count());
}

BOOST_AUTO_TEST_CASE(finite_difference_gradients_of_a_deep_normalized_encoder) {
  nn::ParameterRegistry registry;
  // Four units: a normalisation over two values is +-1 whatever they are. The step is
  // smaller than the other checks': normalized products of small states bend too sharply
  // for 1e-2.
  const nn::BiEncoder encoder(registry, "enc", kBiEncoderVocabulary, kBiEncoderEmbedding, 4, 3, {true, false});
  BOOST_TEST(registry.get("enc.backward.transition3.gain_h").value.cols() == 4);
  rt::randomize(registry, 32);
  const std::vector<std::int32_t> ids = bi_encoder_test_ids();
  const math::Matrix mask = bi_encoder_test_mask();
  nn::BiEncoder::Cache cache;
  const rt::GradientReport report = rt::check_gradients(
      registry, {},
      [&] {
        math::Matrix annotations;
        encoder.forward(ids, mask, cache, annotations);
        return annotations;
      },
      [&](const math::Matrix& d_annotations, std::vector<math::Matrix>&) { encoder.backward(cache, d_annotations); },
      1, 3e-3f);
  BOOST_TEST(report.worst_error < kBiEncoderTolerance, report.worst_place);
  BOOST_TEST(report.checked == registry.scalar_count());
}

BOOST_AUTO_TEST_CASE(padded_sentence_encodes_as_alone) {
  nn::ParameterRegistry registry;
  const nn::BiEncoder encoder(registry, "enc", kBiEncoderVocabulary, kBiEncoderEmbedding, kBiEncoderHidden);
  rt::randomize(registry, 32);
  nn::BiEncoder::Cache cache;
  math::Matrix batched;
  encoder.forward(bi_encoder_test_ids(), bi_encoder_test_mask(), cache, batched);

  math::Matrix alone_mask(2, 1);
  alone_mask << 1, 1;
  math::Matrix alone;
  nn::BiEncoder::Cache alone_cache;
  encoder.forward({3, 4}, alone_mask, alone_cache, alone);
  BOOST_TEST_REQUIRE(alone.rows() == 2);
  for (int t = 0; t < 2; ++t) {
    for (int c = 0; c < encoder.annotation_dim(); ++c) {
      BOOST_TEST(batched(t * kBiEncoderBatch + 1, c) == alone(t, c), boost::test_tools::tolerance(1e-6f));
    }
  }
  // The backward half of the last real position has read only that token from zero: it
  // differs from zero, and the forward half of position 0 likewise.
  BOOST_TEST(alone.row(1).rightCols(kBiEncoderHidden).norm() > 0.0f);
  BOOST_TEST(alone.row(0).leftCols(kBiEncoderHidden).norm() > 0.0f);
}

BOOST_AUTO_TEST_CASE(padded_rows_are_zero_and_pass_no_gradient) {
  nn::ParameterRegistry registry;
  const nn::BiEncoder encoder(registry, "enc", kBiEncoderVocabulary, kBiEncoderEmbedding, kBiEncoderHidden);
  rt::randomize(registry, 33);
  nn::BiEncoder::Cache cache;
  math::Matrix annotations;
  encoder.forward(bi_encoder_test_ids(), bi_encoder_test_mask(), cache, annotations);
  const int padded_row = 2 * kBiEncoderBatch + 1;
  BOOST_TEST(annotations.row(padded_row).norm() == 0.0f);
  for (int row = 0; row < annotations.rows(); ++row) {
    if (row != padded_row) BOOST_TEST(annotations.row(row).norm() > 0.0f);
  }

  // A gradient only at the padded row reaches no parameter.
  math::Matrix d_annotations = math::Matrix::Zero(annotations.rows(), annotations.cols());
  d_annotations.row(padded_row).setConstant(1.0f);
  encoder.backward(cache, d_annotations);
  for (const nn::Parameter* p : registry.all()) BOOST_TEST(p->gradient.norm() == 0.0f, p->name);

  // A full gradient leaves the padding id's embedding row untouched.
  encoder.backward(cache, rt::random_matrix(annotations.rows(), annotations.cols(), 7));
  const nn::Parameter& table = registry.get("enc.embedding.E");
  BOOST_TEST(table.gradient.row(kBiEncoderPadId).norm() == 0.0f);
  BOOST_TEST(table.gradient.row(1).norm() > 0.0f);
  BOOST_TEST(table.gradient.row(0).norm() == 0.0f);  // id 0 never occurs
}

BOOST_AUTO_TEST_CASE(backward_accumulates) {
  nn::ParameterRegistry registry;
  const nn::BiEncoder encoder(registry, "enc", kBiEncoderVocabulary, kBiEncoderEmbedding, kBiEncoderHidden);
  rt::randomize(registry, 34);
  nn::BiEncoder::Cache cache;
  math::Matrix annotations;
  encoder.forward(bi_encoder_test_ids(), bi_encoder_test_mask(), cache, annotations);
  const math::Matrix d_annotations = rt::random_matrix(annotations.rows(), annotations.cols(), 8);
  encoder.backward(cache, d_annotations);
  std::vector<math::Matrix> once;
  for (const nn::Parameter* p : registry.all()) once.push_back(p->gradient);
  encoder.backward(cache, d_annotations);
  std::size_t i = 0;
  for (const nn::Parameter* p : registry.all()) {
    BOOST_TEST(once[i].norm() > 0.0f, p->name);
    BOOST_TEST((p->gradient - 2.0f * once[i]).norm() <= 1e-5f * (1.0f + once[i].norm()), p->name);
    ++i;
  }
}

BOOST_AUTO_TEST_CASE(errors) {
  nn::ParameterRegistry registry;
  const nn::BiEncoder encoder(registry, "enc", kBiEncoderVocabulary, kBiEncoderEmbedding, kBiEncoderHidden);
  nn::BiEncoder::Cache cache;
  math::Matrix annotations;
  const math::Matrix mask = bi_encoder_test_mask();
  BOOST_CHECK_THROW(encoder.forward({1, 2, 3}, mask, cache, annotations), util::Error);
  BOOST_CHECK_THROW(encoder.forward({1, 3, 2, 4, 1, kBiEncoderVocabulary}, mask, cache, annotations), util::Error);
  math::Matrix bad_mask = mask;
  bad_mask(0, 0) = 0.5f;
  BOOST_CHECK_THROW(encoder.forward(bi_encoder_test_ids(), bad_mask, cache, annotations), util::Error);
  encoder.forward(bi_encoder_test_ids(), mask, cache, annotations);
  BOOST_CHECK_THROW(encoder.backward(cache, math::Matrix::Zero(annotations.rows(), kBiEncoderHidden)), util::Error);
  BOOST_CHECK_THROW(encoder.backward(cache, math::Matrix::Zero(annotations.rows() - 1, annotations.cols())),
                    util::Error);
}

BOOST_AUTO_TEST_SUITE_END()
