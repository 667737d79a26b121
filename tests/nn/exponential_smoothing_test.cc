// Exponential smoothing of the parameters: Marian's rate, the update on a hand-computed
// case, the smoothing pass fused into the optimizer's against the separate one, bit for
// bit, and the swap that validates and saves with the smoothed copy.
#include <boost/test/unit_test.hpp>
#include <cstring>
#include <random>

#include "nn/exponential_smoothing.h"
#include "nn/optimizer.h"
#include "support/random_matrix.h"
#include "util/error.h"

using namespace rnnsearch;

namespace {

bool same_bits(const math::Matrix& a, const math::Matrix& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         std::memcmp(a.data(), b.data(), static_cast<std::size_t>(a.size()) * sizeof(float)) == 0;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(exponential_smoothing)

BOOST_AUTO_TEST_CASE(the_rate_is_marians_early_term_until_the_decay_takes_over) {
  const nn::ExponentialSmoothing smoothing(1e-4f);
  BOOST_TEST(smoothing.rate(0) == 0.9f);                      // 1 - 1/10
  BOOST_TEST(smoothing.rate(90) == 0.09f);                    // 1 - 91/100
  BOOST_TEST(smoothing.rate(990) == 0.009f);
  BOOST_TEST(smoothing.rate(89990) == 1e-4f);                 // 9 / 90000: where the decay takes over
  BOOST_TEST(smoothing.rate(1000000) == 1e-4f);
  BOOST_TEST(nn::ExponentialSmoothing(0.5f).rate(0) == 0.9f);
  BOOST_TEST(nn::ExponentialSmoothing(0.5f).rate(100) == 0.5f);
}

BOOST_AUTO_TEST_CASE(smoothed_values_follow_the_formula_on_a_tiny_case) {
  nn::ParameterRegistry registry;
  nn::Parameter& w = registry.add("w", 1, 2);
  w.value << 1.0f, -2.0f;
  nn::ExponentialSmoothing smoothing(0.5f);
  smoothing.reset(registry);  // s starts as w
  w.value << 3.0f, 2.0f;
  smoothing.step(registry, 0);  // d = 0.9
  BOOST_TEST(smoothing.values()[0](0, 0) == 0.1f * 1.0f + 0.9f * 3.0f, boost::test_tools::tolerance(1e-6f));  // 2.8
  BOOST_TEST(smoothing.values()[0](0, 1) == 0.1f * -2.0f + 0.9f * 2.0f, boost::test_tools::tolerance(1e-6f));  // 1.6
  w.value << 5.0f, 0.0f;
  smoothing.step(registry, 1000);  // d = max(0.5, 9/1010) = 0.5
  BOOST_TEST(smoothing.values()[0](0, 0) == 0.5f * 2.8f + 0.5f * 5.0f, boost::test_tools::tolerance(1e-6f));
  BOOST_TEST(smoothing.values()[0](0, 1) == 0.5f * 1.6f, boost::test_tools::tolerance(1e-6f));
  BOOST_TEST(w.value(0, 0) == 5.0f);  // the parameters themselves are left alone
}

BOOST_AUTO_TEST_CASE(a_parameter_that_stays_put_keeps_its_smoothed_copy_bit_for_bit) {
  std::mt19937 rng(3);
  nn::ParameterRegistry registry;
  registry.add("frozen", 7, 9).value = testing::uniform_matrix(7, 9, rng);
  registry.add("moving", 2, 3).value = testing::uniform_matrix(2, 3, rng);
  nn::ExponentialSmoothing smoothing(0.3f);
  smoothing.reset(registry);
  for (long step = 0; step < 20; ++step) {
    registry.all()[1]->value = testing::uniform_matrix(2, 3, rng);
    smoothing.step(registry, step);
  }
  BOOST_TEST(same_bits(smoothing.values()[0], registry.all()[0]->value));
  BOOST_TEST(!same_bits(smoothing.values()[1], registry.all()[1]->value));
}

BOOST_AUTO_TEST_CASE(fused_smoothing_is_the_step_then_the_smoothing_bit_for_bit) {
  std::mt19937 rng(9);
  nn::ParameterRegistry separate, fused, copy;
  const int shapes[][2] = {{70, 130}, {1, 3}, {1, 4096}};
  for (const auto& shape : shapes) {
    nn::Parameter& p = separate.add("p" + std::to_string(separate.all().size()), shape[0], shape[1]);
    p.value = testing::uniform_matrix(shape[0], shape[1], rng);
    fused.add(p.name, 0, 0) = p;
    copy.add(p.name, shape[0], shape[1]);
  }
  nn::Adam expected_adam, actual_adam;
  nn::ExponentialSmoothing expected(1e-3f), actual(1e-3f);
  expected.reset(separate);
  actual.reset(fused);
  const std::size_t n = separate.all().size();
  for (long step = 0; step < 3; ++step) {
    for (std::size_t i = 0; i < n; ++i) {
      const auto& v = separate.all()[i]->value;
      separate.all()[i]->gradient = testing::uniform_matrix(static_cast<int>(v.rows()), static_cast<int>(v.cols()), rng);
      fused.all()[i]->gradient = separate.all()[i]->gradient;
    }
    expected_adam.step(separate, 0.01f);
    expected.step(separate, step);
    actual_adam.begin_step(fused);
    actual.begin_step(step);
    nn::fused_update(actual_adam, fused, 0.01f, 1.0f, 0, 1, {&copy}, &actual);  // two ranges, as two threads do
    nn::fused_update(actual_adam, fused, 0.01f, 1.0f, 1, n, {&copy}, &actual);
    for (std::size_t i = 0; i < n; ++i) {
      BOOST_TEST(same_bits(fused.all()[i]->value, separate.all()[i]->value), "step " << step);
      BOOST_TEST(same_bits(actual.values()[i], expected.values()[i]), "step " << step);
    }
  }
  BOOST_TEST(!same_bits(actual.values()[0], fused.all()[0]->value));  // smoothing did something
}

BOOST_AUTO_TEST_CASE(swapping_twice_gives_everything_back_and_restore_checks_shapes) {
  std::mt19937 rng(5);
  nn::ParameterRegistry registry;
  registry.add("a", 3, 4).value = testing::uniform_matrix(3, 4, rng);
  nn::ExponentialSmoothing smoothing(0.1f);
  smoothing.reset(registry);
  const math::Matrix raw = testing::uniform_matrix(3, 4, rng);
  registry.all()[0]->value = raw;
  const math::Matrix smoothed = smoothing.values()[0];
  smoothing.swap_with(registry);
  BOOST_TEST(same_bits(registry.all()[0]->value, smoothed));
  BOOST_TEST(same_bits(smoothing.values()[0], raw));
  smoothing.swap_with(registry);
  BOOST_TEST(same_bits(registry.all()[0]->value, raw));
  BOOST_TEST(same_bits(smoothing.values()[0], smoothed));

  BOOST_CHECK_THROW(smoothing.restore(registry, {math::Matrix::Zero(4, 3)}), util::Error);
  BOOST_CHECK_THROW(smoothing.restore(registry, {}), util::Error);
  smoothing.restore(registry, {math::Matrix::Ones(3, 4)});
  BOOST_TEST(smoothing.values()[0](2, 3) == 1.0f);
}

BOOST_AUTO_TEST_SUITE_END()
