// Adam and Adadelta against hand-computed updates, convergence on a quadratic,
// global-norm gradient clipping, and the fused passes of data-parallel updates against
// the separate ones, bit for bit.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstring>
#include <random>

#include "nn/optimizer.h"
#include "support/random_matrix.h"
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

// Parameters of several shapes (one spans three of fused_update's 4096-float slices, with
// a tail) with random values and gradients.
void random_registry(nn::ParameterRegistry& registry, std::mt19937& rng) {
  const int shapes[][2] = {{70, 130}, {1, 3}, {33, 33}, {1, 4096}};
  for (const auto& shape : shapes) {
    nn::Parameter& p = registry.add("p" + std::to_string(registry.all().size()), shape[0], shape[1]);
    p.value = testing::uniform_matrix(shape[0], shape[1], rng);
    p.gradient = testing::uniform_matrix(shape[0], shape[1], rng);
  }
}

bool same_bits(const math::Matrix& a, const math::Matrix& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         std::memcmp(a.data(), b.data(), static_cast<std::size_t>(a.size()) * sizeof(float)) == 0;
}

std::unique_ptr<nn::Optimizer> make(int which) {
  if (which == 0) return std::make_unique<nn::Adam>();
  return std::make_unique<nn::Adadelta>();
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

BOOST_AUTO_TEST_CASE(fused_update_is_clip_step_zero_and_copy_one_after_the_other) {
  for (int which = 0; which < 2; ++which) {
    for (const float factor : {1.0f, 0.37f}) {
      std::mt19937 rng(7);
      nn::ParameterRegistry separate, fused, copy;
      random_registry(separate, rng);
      for (const nn::Parameter* p : separate.all()) fused.add(p->name, 0, 0) = *p;
      for (const nn::Parameter* p : separate.all()) copy.add(p->name, static_cast<int>(p->value.rows()), static_cast<int>(p->value.cols()));
      const auto expected = make(which), actual = make(which);
      const std::size_t n = separate.all().size();
      for (int step = 0; step < 3; ++step) {  // the state carries over
        for (std::size_t i = 0; i < n; ++i) fused.all()[i]->gradient = separate.all()[i]->gradient;
        expected->begin_step(separate);
        if (factor != 1.0f) nn::scale_gradients(separate, factor, 0, n);
        expected->update(separate, 0.01f, 0, n);
        actual->begin_step(fused);
        nn::fused_update(*actual, fused, 0.01f, factor, 0, 2, {&copy});  // two ranges, as two threads do
        nn::fused_update(*actual, fused, 0.01f, factor, 2, n, {&copy});
        for (std::size_t i = 0; i < n; ++i) {
          const nn::Parameter &e = *separate.all()[i], &a = *fused.all()[i];
          BOOST_TEST(same_bits(a.value, e.value), expected->name() << " " << e.name << " step " << step);
          BOOST_TEST(same_bits(copy.all()[i]->value, e.value));
          BOOST_TEST(a.gradient.isZero(0.0f));
          separate.all()[i]->gradient = testing::uniform_matrix(static_cast<int>(e.value.rows()), static_cast<int>(e.value.cols()), rng);
        }
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(adding_gradients_measures_the_sum_and_zeroes_the_addends) {
  std::mt19937 rng(11);
  nn::ParameterRegistry sum, first, second;
  random_registry(sum, rng);
  random_registry(first, rng);
  random_registry(second, rng);
  const std::size_t n = sum.all().size();
  for (std::size_t i = 0; i < n; ++i) {
    nn::Parameter& into = *sum.all()[i];
    const math::Matrix expected = into.gradient + first.all()[i]->gradient + second.all()[i]->gradient;
    const double square = nn::add_gradients_and_square(into, {first.all()[i], second.all()[i]});
    BOOST_TEST(same_bits(into.gradient, expected), into.name);
    BOOST_TEST(square == nn::squared_gradient_norm(sum, i, i + 1));  // the same float sums, exactly
    BOOST_TEST(first.all()[i]->gradient.isZero(0.0f));
    BOOST_TEST(second.all()[i]->gradient.isZero(0.0f));
  }
  nn::Parameter& other_shape = first.add("other", 2, 2);
  BOOST_CHECK_THROW(nn::add_gradients_and_square(*sum.all()[0], {&other_shape}), util::Error);
}

BOOST_AUTO_TEST_SUITE_END()
