// The GRU layer: finite-difference gradients of the sequence (both directions) and of one
// step, masking (padded steps carry the state, padded inputs get no gradient), the step
// API composing to the sequence (and its backward the same with transposed copies of U),
// accumulation, and shape errors.
#include <boost/test/unit_test.hpp>

#include "math/gemm.h"
#include "nn/gru.h"
#include "nn/parameters.h"
#include "support/gradcheck.h"
#include "util/error.h"

using namespace rnnsearch;
namespace rt = rnnsearch::testing;

namespace {

constexpr double kGruTolerance = 2e-2;
constexpr int kGruIn = 3, kGruHidden = 4, kGruBatch = 2, kGruSteps = 3;

// [T x B] mask: sentence 0 has 3 tokens, sentence 1 has 2 (right-padded).
math::Matrix gru_test_mask() {
  math::Matrix mask(kGruSteps, kGruBatch);
  mask << 1, 1,  //
      1, 1,      //
      1, 0;
  return mask;
}

// Rows [t*B + b] of a sequence matrix for one sentence b: [T x d] for that sentence alone.
math::Matrix gru_sentence_rows(const math::Matrix& m, int batch, int b, int length) {
  math::Matrix out(length, m.cols());
  for (int t = 0; t < length; ++t) out.row(t) = m.row(t * batch + b);
  return out;
}

rt::GradientReport check_gru_sequence(nn::Gru::Direction direction) {
  nn::ParameterRegistry registry;
  const nn::Gru gru(registry, "enc", kGruIn, kGruHidden);
  rt::randomize(registry, 21);
  math::Matrix x = rt::random_matrix(kGruSteps * kGruBatch, kGruIn, 3);
  math::Matrix h0 = rt::random_matrix(kGruBatch, kGruHidden, 4, 0.5f);
  const math::Matrix mask = gru_test_mask();
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

}  // namespace

BOOST_AUTO_TEST_SUITE(gru_layer)

BOOST_AUTO_TEST_CASE(registers_fused_parameters) {
  nn::ParameterRegistry registry;
  const nn::Gru gru(registry, "enc.fwd", 5, 7);
  BOOST_TEST(registry.get("enc.fwd.W").value.rows() == 5);
  BOOST_TEST(registry.get("enc.fwd.W").value.cols() == 21);
  BOOST_TEST(registry.get("enc.fwd.b").value.cols() == 21);
  BOOST_TEST(registry.get("enc.fwd.U_zr").value.rows() == 7);
  BOOST_TEST(registry.get("enc.fwd.U_zr").value.cols() == 14);
  BOOST_TEST(registry.get("enc.fwd.U_h").value.cols() == 7);
  BOOST_TEST(gru.input_dim() == 5);
  BOOST_TEST(gru.hidden_dim() == 7);
}

BOOST_AUTO_TEST_CASE(sequence_gradients_match_finite_differences) {
  const auto report = check_gru_sequence(nn::Gru::Direction::kLeftToRight);
  // W, b, U_zr, U_h, x, h0
  BOOST_TEST(report.checked == 3u * 12 + 12 + 4 * 8 + 4 * 4 + 6 * 3 + 2 * 4);
  BOOST_TEST(report.worst_error < kGruTolerance, report.worst_place);
}

BOOST_AUTO_TEST_CASE(reversed_sequence_gradients_match_finite_differences) {
  const auto report = check_gru_sequence(nn::Gru::Direction::kRightToLeft);
  BOOST_TEST(report.checked == 3u * 12 + 12 + 4 * 8 + 4 * 4 + 6 * 3 + 2 * 4);
  BOOST_TEST(report.worst_error < kGruTolerance, report.worst_place);
}

BOOST_AUTO_TEST_CASE(step_gradients_match_finite_differences) {
  nn::ParameterRegistry registry;
  const nn::Gru gru(registry, "dec", kGruIn, kGruHidden);
  rt::randomize(registry, 31);
  math::Matrix projected = rt::random_matrix(kGruBatch, 3 * kGruHidden, 5);
  math::Matrix h_prev = rt::random_matrix(kGruBatch, kGruHidden, 6, 0.8f);
  nn::Gru::StepCache cache;
  const auto report = rt::check_gradients(
      registry, {&projected, &h_prev},
      [&] {
        math::Matrix h(kGruBatch, kGruHidden);
        gru.step(projected, h_prev, h, cache);
        return h;
      },
      [&](const math::Matrix& dh, std::vector<math::Matrix>& d_inputs) {
        gru.step_backward(cache, dh, d_inputs[0], d_inputs[1]);
      });
  BOOST_TEST(report.worst_error < kGruTolerance, report.worst_place);
  // The step leaves W and b to the caller's projection.
  BOOST_TEST(registry.get("dec.W").gradient.cwiseAbs().maxCoeff() == 0.0f);
  BOOST_TEST(registry.get("dec.b").gradient.cwiseAbs().maxCoeff() == 0.0f);
}

BOOST_AUTO_TEST_CASE(padded_steps_carry_the_state_and_get_no_gradient) {
  nn::ParameterRegistry registry;
  const nn::Gru gru(registry, "enc", kGruIn, kGruHidden);
  rt::randomize(registry, 41);
  math::Matrix x = rt::random_matrix(kGruSteps * kGruBatch, kGruIn, 7);
  const math::Matrix h0 = rt::random_matrix(kGruBatch, kGruHidden, 8, 0.5f);
  const math::Matrix mask = gru_test_mask();
  const int padded_row = 2 * kGruBatch + 1;  // t = 2, sentence 1

  for (const auto direction : {nn::Gru::Direction::kLeftToRight, nn::Gru::Direction::kRightToLeft}) {
    const bool reverse = direction == nn::Gru::Direction::kRightToLeft;
    nn::Gru::SequenceCache cache;
    math::Matrix states;
    gru.forward(x, mask, h0, cache, states, direction);
    // Left to right the padded position keeps the last real state; right to left it keeps h0.
    const math::Matrix carried = reverse ? math::Matrix(h0.row(1)) : math::Matrix(states.row(1 * kGruBatch + 1));
    BOOST_TEST((states.row(padded_row) - carried).cwiseAbs().maxCoeff() == 0.0f);

    // Whatever sits in the padded input changes nothing.
    math::Matrix x_changed = x;
    x_changed.row(padded_row).setConstant(9.0f);
    nn::Gru::SequenceCache other_cache;
    math::Matrix other_states;
    gru.forward(x_changed, mask, h0, other_cache, other_states, direction);
    BOOST_TEST((other_states - states).cwiseAbs().maxCoeff() == 0.0f);

    // The padded input gets exactly zero gradient; real inputs do get some.
    registry.zero_gradients();
    math::Matrix dx = math::Matrix::Zero(x.rows(), x.cols());
    math::Matrix dh0 = math::Matrix::Zero(kGruBatch, kGruHidden);
    gru.backward(cache, rt::random_matrix(kGruSteps * kGruBatch, kGruHidden, 9), &dx, &dh0);
    BOOST_TEST(dx.row(padded_row).cwiseAbs().maxCoeff() == 0.0f);
    BOOST_TEST(dx.row(padded_row - 1).cwiseAbs().maxCoeff() > 0.0f);

    // The real states of the padded sentence equal running it alone, unpadded.
    const math::Matrix x_alone = gru_sentence_rows(x, kGruBatch, 1, 2);
    const math::Matrix mask_alone = math::Matrix::Ones(2, 1);
    const math::Matrix h0_alone = h0.row(1);
    nn::Gru::SequenceCache alone_cache;
    math::Matrix alone_states;
    gru.forward(x_alone, mask_alone, h0_alone, alone_cache, alone_states, direction);
    const math::Matrix real_states = gru_sentence_rows(states, kGruBatch, 1, 2);
    BOOST_TEST((real_states - alone_states).cwiseAbs().maxCoeff() < 1e-6f);
  }
}

BOOST_AUTO_TEST_CASE(right_to_left_reads_the_reversed_sentence) {
  nn::ParameterRegistry registry;
  const nn::Gru gru(registry, "enc", kGruIn, kGruHidden);
  rt::randomize(registry, 51);
  const math::Matrix x = rt::random_matrix(kGruSteps * kGruBatch, kGruIn, 10);
  const math::Matrix h0 = math::Matrix::Zero(kGruBatch, kGruHidden);
  nn::Gru::SequenceCache cache;
  math::Matrix states;
  gru.forward(x, gru_test_mask(), h0, cache, states, nn::Gru::Direction::kRightToLeft);
  // Sentence 1 (length 2) reversed by hand and read left to right.
  math::Matrix reversed(2, kGruIn);
  reversed.row(0) = x.row(1 * kGruBatch + 1);
  reversed.row(1) = x.row(0 * kGruBatch + 1);
  nn::Gru::SequenceCache reversed_cache;
  math::Matrix reversed_states;
  gru.forward(reversed, math::Matrix::Ones(2, 1), math::Matrix::Zero(1, kGruHidden), reversed_cache,
              reversed_states);
  BOOST_TEST((states.row(1 * kGruBatch + 1) - reversed_states.row(0)).cwiseAbs().maxCoeff() < 1e-6f);
  BOOST_TEST((states.row(0 * kGruBatch + 1) - reversed_states.row(1)).cwiseAbs().maxCoeff() < 1e-6f);
}

BOOST_AUTO_TEST_CASE(project_inputs_and_steps_equal_forward) {
  nn::ParameterRegistry registry;
  const nn::Gru gru(registry, "enc", kGruIn, kGruHidden);
  rt::randomize(registry, 61);
  const math::Matrix x = rt::random_matrix(kGruSteps * kGruBatch, kGruIn, 11);
  const math::Matrix h0 = rt::random_matrix(kGruBatch, kGruHidden, 12, 0.5f);
  const math::Matrix mask = math::Matrix::Ones(kGruSteps, kGruBatch);
  nn::Gru::SequenceCache cache;
  math::Matrix states;
  gru.forward(x, mask, h0, cache, states);

  math::Matrix projected;  // [(T*B) x 3H]
  gru.project_inputs(x, projected);
  math::Matrix h = h0;  // [B x H], updated in place
  nn::Gru::StepCache step_cache;
  for (int t = 0; t < kGruSteps; ++t) {
    const math::Matrix p = projected.middleRows(t * kGruBatch, kGruBatch);
    gru.step(p, h, h, step_cache);
    BOOST_TEST((h - states.middleRows(t * kGruBatch, kGruBatch)).cwiseAbs().maxCoeff() < 1e-6f);
  }

  // And the step backward composed by hand equals the sequence backward.
  const math::Matrix d_states = rt::random_matrix(kGruSteps * kGruBatch, kGruHidden, 13);
  registry.zero_gradients();
  math::Matrix dx = math::Matrix::Zero(x.rows(), x.cols()), dh0 = math::Matrix::Zero(kGruBatch, kGruHidden);
  gru.backward(cache, d_states, &dx, &dh0);
  const math::Matrix dW = registry.get("enc.W").gradient, dU = registry.get("enc.U_zr").gradient;

  registry.zero_gradients();
  std::vector<nn::Gru::StepCache> steps(kGruSteps);
  h = h0;
  for (int t = 0; t < kGruSteps; ++t) {
    const math::Matrix p = projected.middleRows(t * kGruBatch, kGruBatch);
    gru.step(p, h, h, steps[t]);
  }
  math::Matrix d_projected = math::Matrix::Zero(kGruSteps * kGruBatch, 3 * kGruHidden);
  math::Matrix dh = math::Matrix::Zero(kGruBatch, kGruHidden);
  for (int t = kGruSteps - 1; t >= 0; --t) {
    dh += d_states.middleRows(t * kGruBatch, kGruBatch);
    math::Matrix dh_prev = math::Matrix::Zero(kGruBatch, kGruHidden);
    gru.step_backward(steps[t], dh, d_projected.middleRows(t * kGruBatch, kGruBatch), dh_prev);  // in place
    dh = dh_prev;
  }
  math::Matrix dx_steps = math::Matrix::Zero(x.rows(), x.cols());
  gru.project_inputs_backward(x, d_projected, &dx_steps);
  BOOST_TEST((dh - dh0).cwiseAbs().maxCoeff() < 1e-5f);
  BOOST_TEST((dx_steps - dx).cwiseAbs().maxCoeff() < 1e-5f);
  BOOST_TEST((registry.get("enc.W").gradient - dW).cwiseAbs().maxCoeff() < 1e-5f);
  BOOST_TEST((registry.get("enc.U_zr").gradient - dU).cwiseAbs().maxCoeff() < 1e-5f);
}

BOOST_AUTO_TEST_CASE(steps_write_rows_of_the_sequence_in_place) {
  nn::ParameterRegistry registry;
  const nn::Gru gru(registry, "enc", kGruIn, kGruHidden);
  rt::randomize(registry, 62);
  const math::Matrix x = rt::random_matrix(kGruSteps * kGruBatch, kGruIn, 17);
  const math::Matrix h0 = rt::random_matrix(kGruBatch, kGruHidden, 18, 0.5f);
  nn::Gru::SequenceCache cache;
  math::Matrix states;
  gru.forward(x, math::Matrix::Ones(kGruSteps, kGruBatch), h0, cache, states);

  math::Matrix projected;
  gru.project_inputs(x, projected);
  math::Matrix in_place = math::Matrix::Zero(kGruSteps * kGruBatch, kGruHidden);
  nn::Gru::StepCache step_cache;
  for (int t = 0; t < kGruSteps; ++t) {
    const math::Matrix h_prev = t == 0 ? h0 : math::Matrix(in_place.middleRows((t - 1) * kGruBatch, kGruBatch));
    gru.step(projected.middleRows(t * kGruBatch, kGruBatch), h_prev, in_place.middleRows(t * kGruBatch, kGruBatch),
             step_cache);
  }
  BOOST_TEST((in_place - states).cwiseAbs().maxCoeff() == 0.0f);

  // step_backward overwrites its rows of d_projected (whatever was there before).
  const math::Matrix dh = rt::random_matrix(kGruBatch, kGruHidden, 19);
  math::Matrix dh_prev = math::Matrix::Zero(kGruBatch, kGruHidden);
  math::Matrix once = math::Matrix::Zero(kGruBatch, 3 * kGruHidden);
  gru.step_backward(step_cache, dh, once, dh_prev);
  math::Matrix again = math::Matrix::Constant(kGruBatch, 3 * kGruHidden, 5.0f);
  gru.step_backward(step_cache, dh, again, dh_prev);
  BOOST_TEST((again - once).cwiseAbs().maxCoeff() == 0.0f);

  // With transpose_recurrent's copies of U (products A B instead of A B^T) the same
  // gradients, to rounding.
  nn::Gru::TransposedRecurrent transposed;
  gru.transpose_recurrent(transposed);
  math::Matrix direct_prev = math::Matrix::Zero(kGruBatch, kGruHidden), copies_prev = direct_prev;
  math::Matrix direct(kGruBatch, 3 * kGruHidden), copies(kGruBatch, 3 * kGruHidden);
  gru.step_backward(step_cache, dh, direct, direct_prev, nn::WeightGradients::kDeferred);
  gru.step_backward(step_cache, dh, copies, copies_prev, nn::WeightGradients::kDeferred, &transposed);
  BOOST_TEST((copies - direct).cwiseAbs().maxCoeff() < 1e-6f);
  BOOST_TEST((copies_prev - direct_prev).cwiseAbs().maxCoeff() < 1e-6f);
  BOOST_TEST(direct_prev.cwiseAbs().maxCoeff() > 0.0f);
}

BOOST_AUTO_TEST_CASE(forward_only_gives_the_same_states_and_keeps_nothing_for_backward) {
  nn::ParameterRegistry registry;
  const nn::Gru gru(registry, "enc", kGruIn, kGruHidden);
  rt::randomize(registry, 63);
  const math::Matrix x = rt::random_matrix(kGruSteps * kGruBatch, kGruIn, 20);
  const math::Matrix h0 = rt::random_matrix(kGruBatch, kGruHidden, 21, 0.5f);
  for (const auto direction : {nn::Gru::Direction::kLeftToRight, nn::Gru::Direction::kRightToLeft}) {
    nn::Gru::SequenceCache full, forward_only;
    math::Matrix states, forward_only_states;
    gru.forward(x, gru_test_mask(), h0, full, states, direction);
    gru.forward(x, gru_test_mask(), h0, forward_only, forward_only_states, direction, nn::Pass::kForwardOnly);
    BOOST_TEST((forward_only_states - states).cwiseAbs().maxCoeff() == 0.0f);
    BOOST_TEST(full.steps.size() == static_cast<std::size_t>(kGruSteps));
    BOOST_TEST(forward_only.steps.size() == 1u);
    BOOST_TEST(forward_only.x.size() == 0);
    BOOST_TEST(forward_only.h_prev_all.size() == 0);
    BOOST_TEST(forward_only.reset_all.size() == 0);
  }
}

BOOST_AUTO_TEST_CASE(backward_accumulates) {
  nn::ParameterRegistry registry;
  const nn::Gru gru(registry, "enc", kGruIn, kGruHidden);
  rt::randomize(registry, 71);
  const math::Matrix x = rt::random_matrix(kGruSteps * kGruBatch, kGruIn, 14);
  const math::Matrix h0 = rt::random_matrix(kGruBatch, kGruHidden, 15, 0.5f);
  const math::Matrix d_states = rt::random_matrix(kGruSteps * kGruBatch, kGruHidden, 16);
  nn::Gru::SequenceCache cache;
  math::Matrix states;
  gru.forward(x, gru_test_mask(), h0, cache, states);
  math::Matrix dx = math::Matrix::Zero(x.rows(), x.cols()), dh0 = math::Matrix::Zero(kGruBatch, kGruHidden);
  gru.backward(cache, d_states, &dx, &dh0);
  std::vector<math::Matrix> once;
  for (const nn::Parameter* p : registry.all()) once.push_back(p->gradient);
  const math::Matrix dx_once = dx, dh0_once = dh0;
  gru.backward(cache, d_states, &dx, &dh0);
  for (std::size_t i = 0; i < once.size(); ++i) {
    BOOST_TEST((registry.all()[i]->gradient - 2 * once[i]).cwiseAbs().maxCoeff() < 1e-5f, registry.all()[i]->name);
  }
  BOOST_TEST((dx - 2 * dx_once).cwiseAbs().maxCoeff() < 1e-5f);
  BOOST_TEST((dh0 - 2 * dh0_once).cwiseAbs().maxCoeff() < 1e-5f);
  // Without dx and dh0 only the parameters move.
  gru.backward(cache, d_states, nullptr, nullptr);
  BOOST_TEST((registry.get("enc.U_h").gradient - 3 * once[3]).cwiseAbs().maxCoeff() < 1e-5f);
}

BOOST_AUTO_TEST_CASE(shape_errors_name_the_parameter_and_shapes) {
  nn::ParameterRegistry registry;
  const nn::Gru gru(registry, "enc", kGruIn, kGruHidden);
  const math::Matrix mask = gru_test_mask();
  const math::Matrix x = math::Matrix::Zero(6, kGruIn), h0 = math::Matrix::Zero(kGruBatch, kGruHidden);
  nn::Gru::SequenceCache cache;
  math::Matrix states;
  auto message = [](auto&& call) {
    try {
      call();
    } catch (const util::Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  BOOST_TEST(message([&] { gru.forward(math::Matrix::Zero(6, 2), mask, h0, cache, states); }) ==
             "enc.W input x (mask is [3 x 2]) is [6 x 2], expected [6 x 3]");
  BOOST_TEST(message([&] { gru.forward(math::Matrix::Zero(5, 3), mask, h0, cache, states); }) ==
             "enc.W input x (mask is [3 x 2]) is [5 x 3], expected [6 x 3]");
  BOOST_TEST(message([&] { gru.forward(x, mask, math::Matrix::Zero(2, 5), cache, states); }) ==
             "enc.U_h initial state h0 is [2 x 5], expected [2 x 4]");
  math::Matrix bad_mask = mask;
  bad_mask(2, 1) = 0.5f;
  BOOST_TEST(message([&] { gru.forward(x, bad_mask, h0, cache, states); }) ==
             "enc.W mask[2,1] is 0.500000, expected 0 or 1");

  gru.forward(x, mask, h0, cache, states);
  BOOST_TEST(message([&] { gru.backward(cache, math::Matrix::Zero(6, 3), nullptr, nullptr); }) ==
             "enc.U_h gradient d_states is [6 x 3], expected [6 x 4]");
  math::Matrix bad_dx = math::Matrix::Zero(6, 4);
  BOOST_TEST(message([&] { gru.backward(cache, math::Matrix::Zero(6, 4), &bad_dx, nullptr); }) ==
             "enc.W gradient dx is [6 x 4], expected [6 x 3]");

  nn::Gru::StepCache step_cache;
  math::Matrix h(kGruBatch, 1);
  BOOST_TEST(message([&] { gru.step(math::Matrix::Zero(2, 8), h0, h, step_cache); }) ==
             "enc.W step input projected is [2 x 8], expected [2 x 12]");
  BOOST_TEST(message([&] { gru.step(math::Matrix::Zero(2, 12), math::Matrix::Zero(2, 3), h, step_cache); }) ==
             "enc.U_h state h_prev is [2 x 3], expected [2 x 4]");
  BOOST_TEST(message([&] { gru.step(math::Matrix::Zero(2, 12), h0, h, step_cache); }) ==
             "enc.U_h state h is [2 x 1], expected [2 x 4]");
  h.resize(kGruBatch, kGruHidden);
  gru.step(math::Matrix::Zero(2, 12), h0, h, step_cache);
  math::Matrix d_projected = math::Matrix::Zero(2, 12), dh_prev = math::Matrix::Zero(1, 4);
  BOOST_TEST(message([&] { gru.step_backward(step_cache, h0, d_projected, dh_prev); }) ==
             "enc.U_h gradient dh_prev is [1 x 4], expected [2 x 4]");
  BOOST_TEST(message([&] { gru.project_inputs(math::Matrix::Zero(4, 5), h); }) ==
             "enc.W input x is [4 x 5], expected [4 x 3]");
}

BOOST_AUTO_TEST_SUITE_END()
