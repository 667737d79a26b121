// Adam and Adadelta against hand-computed updates, convergence on a quadratic, and
// global-norm gradient clipping.
#include <boost/test/unit_test.hpp>
#include <cmath>

#include "nn/optimizer.h"
#include "util/error.h"

using namespace rnnsearch;

namespace {

// One scalar parameter w with gradient g.
nn::Parameter& scalar(nn::ParameterRegistry& registry, float w, float g) {
  nn::Parameter& p = registry.add("w", 1, 1);
  p.value(0, 0) = w;
  p.gradient(0, 0) = g;
  return p;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(optimizers)

BOOST_AUTO_TEST_CASE(adam_first_steps_match_the_formula) {
  nn::ParameterRegistry registry;
  nn::Parameter& p = scalar(registry, 1.0f, 0.5f);
  nn::Adam adam(0.9f, 0.999f, 1e-8f);
  adam.step(registry, 0.1f);
  // Step 1: m^ = g, v^ = g^2, so the update is lr * g / (|g| + eps) = 0.1.
  BOOST_TEST(p.value(0, 0) == 0.9f, boost::test_tools::tolerance(1e-6f));
  p.gradient(0, 0) = -1.0f;
  adam.step(registry, 0.1f);
  const double m = 0.9 * (0.1 * 0.5) + 0.1 * -1.0, v = 0.999 * (0.001 * 0.25) + 0.001 * 1.0;
  const double expected = 0.9 - 0.1 * (m / (1 - 0.81)) / (std::sqrt(v / (1 - 0.998001)) + 1e-8);
  BOOST_TEST(p.value(0, 0) == static_cast<float>(expected), boost::test_tools::tolerance(1e-5f));
  BOOST_TEST(adam.steps() == 2);
  BOOST_TEST(adam.state().size() == 2u);
}

BOOST_AUTO_TEST_CASE(adadelta_first_step_matches_the_formula) {
  nn::ParameterRegistry registry;
  nn::Parameter& p = scalar(registry, 1.0f, 2.0f);
  nn::Adadelta adadelta(0.95f, 1e-6f);
  adadelta.step(registry, 1.0f);
  const double eg2 = 0.05 * 4.0;
  const double dx = -std::sqrt(1e-6) / std::sqrt(eg2 + 1e-6) * 2.0;
  BOOST_TEST(p.value(0, 0) == static_cast<float>(1.0 + dx), boost::test_tools::tolerance(1e-6f));
}

BOOST_AUTO_TEST_CASE(both_minimize_a_quadratic) {
  for (int which = 0; which < 2; ++which) {
    nn::ParameterRegistry registry;
    nn::Parameter& p = registry.add("w", 2, 2);
    p.value << 3, -2, 1, 4;
    std::unique_ptr<nn::Optimizer> opt;
    if (which == 0) opt = std::make_unique<nn::Adam>();
    else opt = std::make_unique<nn::Adadelta>();
    const float lr = which == 0 ? 0.05f : 1.0f;
    for (int i = 0; i < (which == 0 ? 500 : 3000); ++i) {
      p.gradient = 2 * p.value;  // d/dw of |w|^2
      opt->step(registry, lr);
    }
    BOOST_TEST(p.value.norm() < 0.2f, opt->name() << " left |w| = " << p.value.norm());
  }
}

BOOST_AUTO_TEST_CASE(a_changed_registry_is_an_error) {
  nn::ParameterRegistry registry;
  scalar(registry, 0, 1);
  nn::Adam adam;
  adam.step(registry, 0.1f);
  registry.add("extra", 1, 1);
  BOOST_CHECK_THROW(adam.step(registry, 0.1f), util::Error);
}

BOOST_AUTO_TEST_CASE(clipping_scales_to_the_global_norm) {
  nn::ParameterRegistry registry;
  registry.add("a", 1, 2).gradient << 3, 0;
  registry.add("b", 1, 1).gradient << 4;
  BOOST_TEST(nn::clip_gradient_norm(registry, 1.0) == 5.0);
  BOOST_TEST(nn::gradient_norm(registry) == 1.0, boost::test_tools::tolerance(1e-6));
  BOOST_TEST(registry.get("a").gradient(0, 0) == 0.6f, boost::test_tools::tolerance(1e-6f));
  // Small gradients are left alone; max_norm 0 disables clipping.
  BOOST_TEST(nn::clip_gradient_norm(registry, 10.0) == 1.0, boost::test_tools::tolerance(1e-6));
  BOOST_TEST(registry.get("b").gradient(0, 0) == 0.8f, boost::test_tools::tolerance(1e-6f));
  registry.get("b").gradient(0, 0) = std::nanf("");
  BOOST_TEST(std::isnan(nn::clip_gradient_norm(registry, 1.0)));
}

BOOST_AUTO_TEST_SUITE_END()
