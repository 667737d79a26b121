// The deep-transition GRU layer (nn/deep_gru.h): finite-difference gradients through
// several transitions in both directions, with and without layer normalisation; depth 1
// is nn::Gru bit for bit; a padded step carries the whole state; a sentence's states do
// not depend on its batch; transposed copies given or made give the same gradients.
#include <boost/test/unit_test.hpp>

#include <cstring>

#include "nn/deep_gru.h"
#include "nn/gru.h"
#include "nn/parameters.h"
#include "support/gradcheck.h"

using namespace rnnsearch;
namespace rt = rnnsearch::testing;

namespace {

constexpr double kTolerance = 2e-2;
constexpr int kIn = 3, kHidden = 4, kBatch = 2, kSteps = 3;

math::Matrix test_mask() {
  math::Matrix mask(kSteps, kBatch);
  mask << 1, 1, 1, 1, 1, 0;
  return mask;
}

bool same_bits(const math::Matrix& a, const math::Matrix& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         std::memcmp(a.data(), b.data(), static_cast<std::size_t>(a.size()) * sizeof(float)) == 0;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(deep_gru)

BOOST_AUTO_TEST_CASE(gradients_through_three_transitions_match_finite_differences) {
  for (const bool layer_norm : {false, true}) {
    for (const auto direction : {nn::Gru::Direction::kLeftToRight, nn::Gru::Direction::kRightToLeft}) {
      nn::ParameterRegistry registry;
      const nn::DeepGru gru(registry, "enc", kIn, kHidden, 3, {layer_norm, false});
      rt::randomize(registry, 61);
      math::Matrix x = rt::random_matrix(kSteps * kBatch, kIn, 3);
      math::Matrix h0 = rt::random_matrix(kBatch, kHidden, 4, 0.5f);
      const math::Matrix mask = test_mask();
      nn::DeepGru::SequenceCache cache;
      const auto report = rt::check_gradients(
          registry, {&x, &h0},
          [&] {
            math::Matrix states;
            gru.forward(x, mask, h0, cache, states, direction);
            return states;
          },
          [&](const math::Matrix& d_states, std::vector<math::Matrix>& d_inputs) {
            gru.backward(cache, d_states, &d_inputs[0], &d_inputs[1]);
          });
      BOOST_TEST(report.checked == registry.scalar_count() + 6 * kIn + 2 * kHidden);
      BOOST_TEST(report.worst_error < kTolerance,
                 report.worst_place << " layer_norm " << layer_norm << " reverse " << (direction != nn::Gru::Direction::kLeftToRight));
    }
  }
}

BOOST_AUTO_TEST_CASE(depth_one_is_the_gru_bit_for_bit) {
  nn::ParameterRegistry deep_registry, plain_registry;
  const nn::DeepGru deep(deep_registry, "enc", kIn, kHidden, 1);
  const nn::Gru plain(plain_registry, "enc", kIn, kHidden);
  rt::randomize(deep_registry, 71);
  rt::randomize(plain_registry, 71);
  BOOST_TEST(deep_registry.scalar_count() == plain_registry.scalar_count());
  const math::Matrix x = rt::random_matrix(kSteps * kBatch, kIn, 5);
  const math::Matrix h0 = math::Matrix::Zero(kBatch, kHidden);
  nn::DeepGru::SequenceCache deep_cache;
  nn::Gru::SequenceCache plain_cache;
  math::Matrix deep_states, plain_states;
  deep.forward(x, test_mask(), h0, deep_cache, deep_states);
  plain.forward(x, test_mask(), h0, plain_cache, plain_states);
  BOOST_TEST(same_bits(deep_states, plain_states));
}

BOOST_AUTO_TEST_CASE(padded_steps_carry_the_state_and_a_sentence_does_not_depend_on_its_batch) {
  nn::ParameterRegistry registry;
  const nn::DeepGru gru(registry, "enc", kIn, 9, 2, {true, false});
  rt::randomize(registry, 81);
  const math::Matrix x = rt::random_matrix(kSteps * kBatch, kIn, 6);
  const math::Matrix h0 = math::Matrix::Zero(kBatch, 9);
  nn::DeepGru::SequenceCache cache;
  math::Matrix states;
  gru.forward(x, test_mask(), h0, cache, states, nn::Gru::Direction::kLeftToRight, nn::Pass::kForwardOnly);
  // Sentence 1 has two tokens: its state after position 2 is the one after position 1.
  BOOST_TEST(same_bits(states.row(2 * kBatch + 1), states.row(1 * kBatch + 1)));
  // Sentence 1 alone.
  math::Matrix alone_x(2, kIn), alone_states;
  alone_x.row(0) = x.row(1);
  alone_x.row(1) = x.row(kBatch + 1);
  const math::Matrix alone_mask = math::Matrix::Ones(2, 1);
  gru.forward(alone_x, alone_mask, math::Matrix::Zero(1, 9), cache, alone_states);
  BOOST_TEST(same_bits(alone_states.row(1), states.row(kBatch + 1)));
}

BOOST_AUTO_TEST_CASE(given_transposed_copies_give_the_same_gradients) {
  nn::ParameterRegistry registry(nn::GradientStorage::kEager);
  const nn::DeepGru gru(registry, "enc", kIn, kHidden, 2, {true, false});
  rt::randomize(registry, 91);
  const math::Matrix x = rt::random_matrix(kSteps * kBatch, kIn, 7);
  const math::Matrix h0 = math::Matrix::Zero(kBatch, kHidden);
  const math::Matrix d_states = rt::random_matrix(kSteps * kBatch, kHidden, 8);
  nn::DeepGru::SequenceCache cache;
  math::Matrix states;
  gru.forward(x, test_mask(), h0, cache, states);
  gru.backward(cache, d_states, nullptr, nullptr);
  std::vector<math::Matrix> made;
  for (const nn::Parameter* p : registry.all()) made.push_back(p->gradient);
  registry.zero_gradients();
  nn::DeepGru::TransposedRecurrent transposed;
  gru.transpose_recurrent(transposed);
  gru.backward(cache, d_states, nullptr, nullptr, &transposed);
  for (std::size_t i = 0; i < made.size(); ++i) {
    BOOST_TEST(same_bits(made[i], registry.all()[i]->gradient), registry.all()[i]->name);
  }
}

BOOST_AUTO_TEST_SUITE_END()
