// Finite-difference gradient checks of the layers, and the registry's bookkeeping.
#include <boost/test/unit_test.hpp>

#include "nn/embedding.h"
#include "nn/linear.h"
#include "nn/parameters.h"
#include "support/gradcheck.h"
#include "util/error.h"

using namespace rnnsearch;
namespace rt = rnnsearch::testing;

namespace {

// Tolerance of the float finite-difference check; a wrong sign or missing term gives ~1.
constexpr double kTolerance = 2e-2;

}  // namespace

BOOST_AUTO_TEST_SUITE(nn_layers)

BOOST_AUTO_TEST_CASE(registry_keeps_order_names_and_counts) {
  nn::ParameterRegistry registry;
  registry.add("a", 2, 3);
  registry.add("b", 4, 1);
  BOOST_TEST(registry.scalar_count() == 10u);
  BOOST_TEST(registry.all().front()->name == "a");
  BOOST_TEST(registry.get("b").value.rows() == 4);
  BOOST_CHECK_THROW(registry.add("a", 1, 1), util::Error);
  BOOST_CHECK_THROW(registry.get("c"), util::Error);
  registry.get("a").gradient.setOnes();
  registry.zero_gradients();
  BOOST_TEST(registry.get("a").gradient.sum() == 0.0f);
}

BOOST_AUTO_TEST_CASE(linear_gradients_match_finite_differences) {
  nn::ParameterRegistry registry;
  const nn::Linear linear(registry, "proj", 5, 3);
  rt::randomize(registry, 11);
  math::Matrix x = rt::random_matrix(4, 5, 3);
  const auto report = rt::check_gradients(
      registry, {&x},
      [&] {
        math::Matrix y;
        linear.forward(x, y);
        return y;
      },
      [&](const math::Matrix& dy, std::vector<math::Matrix>& dx) { linear.backward(x, dy, &dx[0]); });
  BOOST_TEST(report.checked == 5u * 3 + 3 + 4 * 5);
  BOOST_TEST(report.worst_error < kTolerance, report.worst_place);
}

BOOST_AUTO_TEST_CASE(linear_backward_accumulates) {
  nn::ParameterRegistry registry;
  const nn::Linear linear(registry, "proj", 2, 2);
  rt::randomize(registry, 5);
  const math::Matrix x = rt::random_matrix(3, 2, 6), dy = rt::random_matrix(3, 2, 7);
  math::Matrix dx = math::Matrix::Zero(3, 2);
  linear.backward(x, dy, &dx);
  const math::Matrix once = registry.get("proj.W").gradient, dx_once = dx;
  linear.backward(x, dy, &dx);
  BOOST_TEST((registry.get("proj.W").gradient - 2 * once).cwiseAbs().maxCoeff() < 1e-6f);
  BOOST_TEST((dx - 2 * dx_once).cwiseAbs().maxCoeff() < 1e-6f);
}

BOOST_AUTO_TEST_CASE(linear_rejects_wrong_input_width) {
  nn::ParameterRegistry registry;
  const nn::Linear linear(registry, "proj", 5, 3);
  math::Matrix y;
  try {
    linear.forward(math::Matrix::Zero(2, 4), y);
    BOOST_FAIL("no error");
  } catch (const util::Error& e) {
    BOOST_TEST(std::string(e.what()) == "proj.W input x is [2 x 4], expected [2 x 5]");
  }
}

BOOST_AUTO_TEST_CASE(embedding_gradients_match_finite_differences_with_repeated_ids) {
  nn::ParameterRegistry registry;
  const nn::Embedding embedding(registry, "src", 6, 4);
  rt::randomize(registry, 2);
  const std::vector<std::int32_t> ids = {1, 4, 1, 0, 5};
  const auto report = rt::check_gradients(
      registry, {},
      [&] {
        math::Matrix y;
        embedding.forward(ids, y);
        return y;
      },
      [&](const math::Matrix& dy, std::vector<math::Matrix>&) { embedding.backward(ids, dy); });
  BOOST_TEST(report.checked == 24u);
  BOOST_TEST(report.worst_error < kTolerance, report.worst_place);
  math::Matrix y;
  BOOST_CHECK_THROW(embedding.forward({6}, y), util::Error);
}

BOOST_AUTO_TEST_CASE(the_check_catches_a_wrong_gradient) {
  // A backward pass with the wrong sign must fail the check: the check can fail.
  nn::ParameterRegistry registry;
  const nn::Linear linear(registry, "proj", 3, 2);
  rt::randomize(registry, 4);
  math::Matrix x = rt::random_matrix(2, 3, 9);
  const auto report = rt::check_gradients(
      registry, {&x},
      [&] {
        math::Matrix y;
        linear.forward(x, y);
        return y;
      },
      [&](const math::Matrix& dy, std::vector<math::Matrix>& dx) {
        const math::Matrix negated = -dy;
        linear.backward(x, negated, &dx[0]);
      });
  BOOST_TEST(report.worst_error > 0.5);
}

BOOST_AUTO_TEST_CASE(the_check_catches_a_small_wrong_coordinate) {
  // Input column 0 is tiny (1e-4), so the true gradients of W's row 0 are ~1e-4: a
  // backward pass that leaves them out must still fail the check. (With the absolute
  // floor of 0.01 used before, its error was ~1e-2, under the tolerance.)
  nn::ParameterRegistry registry;
  nn::Linear linear(registry, "proj", 3, 2);
  rt::randomize(registry, 4);
  math::Matrix x = rt::random_matrix(2, 3, 9);
  x.col(0) *= 1e-4f;
  const auto forward = [&] {
    math::Matrix y;
    linear.forward(x, y);
    return y;
  };
  const auto right = rt::check_gradients(registry, {&x}, forward, [&](const math::Matrix& dy, std::vector<math::Matrix>& dx) {
    linear.backward(x, dy, &dx[0]);
  });
  BOOST_TEST(right.worst_error < kTolerance, right.worst_place);
  const auto wrong = rt::check_gradients(registry, {&x}, forward, [&](const math::Matrix& dy, std::vector<math::Matrix>& dx) {
    linear.backward(x, dy, &dx[0]);
    linear.weight().gradient.row(0).setZero();
  });
  BOOST_TEST(wrong.worst_error > 2 * kTolerance, wrong.worst_place);  // ~0.1 here; 0.0097 with the old floor
}

BOOST_AUTO_TEST_SUITE_END()
