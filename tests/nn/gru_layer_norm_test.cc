// The GRU's layer normalisation and its transition cells (nn/gru.h): finite-difference
// gradients of the normalized sequence (both directions), of a normalized step (whose
// input gradient is the raw projection's) and of transition steps with and without layer
// normalisation; a row's numbers do not depend on its batch; the parameters each option
// registers, and the cells the constructor refuses.
#include <boost/test/unit_test.hpp>

#include <cstring>

#include "nn/gru.h"
#include "nn/layer_norm.h"
#include "nn/parameters.h"
#include "support/gradcheck.h"
#include "util/error.h"

using namespace rnnsearch;
namespace rt = rnnsearch::testing;

namespace {

constexpr double kTolerance = 2e-2;
constexpr int kIn = 3, kHidden = 4, kBatch = 2, kSteps = 3;
const nn::GruOptions kNormalized{true, false};

rt::GradientReport check_normalized_sequence(nn::Gru::Direction direction) {
  nn::ParameterRegistry registry;
  const nn::Gru gru(registry, "enc", kIn, kHidden, kNormalized);
  rt::randomize(registry, 21);
  math::Matrix x = rt::random_matrix(kSteps * kBatch, kIn, 3);
  math::Matrix h0 = rt::random_matrix(kBatch, kHidden, 4, 0.5f);
  math::Matrix mask(kSteps, kBatch);
  mask << 1, 1, 1, 1, 1, 0;
  nn::Gru::SequenceCache cache;
  return rt::check_gradients(
      registry, {&x, &h0},
      [&] {
        math::Matrix states;
        gru.forward(x, mask, h0, cache, states, direction);
        return states;
      },
      [&](const math::Matrix& d_states, std::vector<math::Matrix>& d_inputs) {
        gru.backward(cache, d_states, &d_inputs[0], &d_inputs[1]);
      });
}

// W, b, U_zr, U_h, gain_in, gain_zr, gain_h, x, h0
constexpr std::size_t kSequenceCoordinates = 3u * 12 + 12 + 4 * 8 + 4 * 4 + 12 + 8 + 4 + 6 * 3 + 2 * 4;

}  // namespace

BOOST_AUTO_TEST_SUITE(gru_layer_norm)

BOOST_AUTO_TEST_CASE(normalized_sequence_gradients_match_finite_differences) {
  for (const auto direction : {nn::Gru::Direction::kLeftToRight, nn::Gru::Direction::kRightToLeft}) {
    const auto report = check_normalized_sequence(direction);
    BOOST_TEST(report.checked == kSequenceCoordinates);
    BOOST_TEST(report.worst_error < kTolerance, report.worst_place);
  }
}

BOOST_AUTO_TEST_CASE(normalized_step_gradients_reach_the_raw_projection_and_b) {
  nn::ParameterRegistry registry;
  const nn::Gru gru(registry, "dec", kIn, kHidden, kNormalized);
  rt::randomize(registry, 31);
  math::Matrix projected = rt::random_matrix(kBatch, 3 * kHidden, 5);
  math::Matrix h_prev = rt::random_matrix(kBatch, kHidden, 6, 0.8f);
  nn::Gru::StepCache cache;
  const auto report = rt::check_gradients(
      registry, {&projected, &h_prev},
      [&] {
        math::Matrix h(kBatch, kHidden);
        gru.step(projected, h_prev, h, cache);
        return h;
      },
      [&](const math::Matrix& dh, std::vector<math::Matrix>& d_inputs) {
        gru.step_backward(cache, dh, d_inputs[0], d_inputs[1]);
      });
  BOOST_TEST(report.worst_error < kTolerance, report.worst_place);
  // The step adds b after the normalisation, so it takes b's gradient; W stays the caller's.
  BOOST_TEST(registry.get("dec.b").gradient.cwiseAbs().maxCoeff() > 0.0f);
  BOOST_TEST(registry.get("dec.W").gradient.cwiseAbs().maxCoeff() == 0.0f);
}

BOOST_AUTO_TEST_CASE(transition_step_gradients_match_finite_differences) {
  for (const bool layer_norm : {false, true}) {
    nn::ParameterRegistry registry;
    const nn::Gru gru(registry, "dec.transition", 0, kHidden, {layer_norm, true});
    rt::randomize(registry, 41);
    math::Matrix h_prev = rt::random_matrix(kBatch, kHidden, 7, 0.8f);
    nn::Gru::StepCache cache;
    math::Matrix scratch(kBatch, 3 * kHidden);
    const auto report = rt::check_gradients(
        registry, {&h_prev},
        [&] {
          math::Matrix h(kBatch, kHidden);
          gru.transition_step(h_prev, h, cache);
          return h;
        },
        [&](const math::Matrix& dh, std::vector<math::Matrix>& d_inputs) {
          gru.step_backward(cache, dh, scratch, d_inputs[0]);
        });
    // b, U_zr, U_h (and gain_zr, gain_h), h_prev
    BOOST_TEST(report.checked == 12u + 32 + 16 + (layer_norm ? 12u : 0u) + 8, "layer_norm " << layer_norm);
    BOOST_TEST(report.worst_error < kTolerance, report.worst_place);
  }
}

BOOST_AUTO_TEST_CASE(a_rows_normalized_step_does_not_depend_on_its_batch) {
  nn::ParameterRegistry registry;
  const nn::Gru gru(registry, "enc", kIn, 13, kNormalized);  // 3H = 39: a remainder after the lanes
  rt::randomize(registry, 51);
  const math::Matrix projected = rt::random_matrix(5, 39, 8);
  const math::Matrix h_prev = rt::random_matrix(5, 13, 9);
  nn::Gru::StepCache cache;
  math::Matrix all(5, 13), one(1, 13);
  gru.step(projected, h_prev, all, cache);
  for (int r = 0; r < 5; ++r) {
    gru.step(projected.row(r), h_prev.row(r), one, cache);
    BOOST_TEST(std::memcmp(one.data(), all.row(r).data(), 13 * sizeof(float)) == 0, "row " << r);
  }
}

BOOST_AUTO_TEST_CASE(layer_norm_rows_have_zero_mean_and_unit_variance) {
  const math::Matrix x = rt::random_matrix(3, 21, 10, 4.0f);
  math::Matrix hat(3, 21);
  float inv_std[3];
  nn::layer_norm_rows(x, hat, inv_std);
  for (int r = 0; r < 3; ++r) {
    BOOST_TEST(std::abs(hat.row(r).mean()) < 1e-6);
    BOOST_TEST(std::abs(hat.row(r).squaredNorm() / 21 - 1.0f) < 1e-3);
    const float mean = x.row(r).mean();
    BOOST_TEST(std::abs((x(r, 4) - mean) * inv_std[r] - hat(r, 4)) < 1e-6);
  }
}

BOOST_AUTO_TEST_CASE(each_option_registers_its_parameters_and_bad_cells_are_refused) {
  nn::ParameterRegistry registry;
  const nn::Gru normalized(registry, "a", 5, 7, kNormalized);
  BOOST_TEST(registry.get("a.gain_in").value.cols() == 21);
  BOOST_TEST(registry.get("a.gain_zr").value.cols() == 14);
  BOOST_TEST(registry.get("a.gain_h").value.cols() == 7);
  const nn::Gru transition(registry, "t", 0, 7, {true, true});
  BOOST_TEST(transition.input_dim() == 0);
  BOOST_CHECK_THROW(registry.get("t.W"), util::Error);
  BOOST_CHECK_THROW(registry.get("t.gain_in"), util::Error);
  BOOST_TEST(registry.get("t.gain_h").value.cols() == 7);
  BOOST_CHECK_THROW(transition.input_weight(), util::Error);
  BOOST_CHECK_THROW(nn::Gru(registry, "u", 3, 7, {false, true}), util::Error);
  BOOST_CHECK_THROW(nn::Gru(registry, "v", 0, 7, {}), util::Error);
}

BOOST_AUTO_TEST_SUITE_END()
