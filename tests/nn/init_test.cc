// Seeded initialization: orthogonal blocks, Gaussian scale, reproducibility; the RNG's
// state round trip for exact resume.
#include <boost/test/unit_test.hpp>

#include "util/rng.h"
#include "nn/init.h"
#include "util/error.h"

using namespace rnnsearch;

BOOST_AUTO_TEST_SUITE(initialization)

BOOST_AUTO_TEST_CASE(orthogonal_blocks_are_orthogonal) {
  util::Rng rng(3);
  math::Matrix u(4, 8);
  nn::fill_orthogonal(u, rng);
  for (int b = 0; b < 2; ++b) {
    const math::Matrix q = u.block(0, 4 * b, 4, 4);
    BOOST_TEST((q.transpose() * q - math::Matrix::Identity(4, 4)).cwiseAbs().maxCoeff() < 1e-5f);
  }
  BOOST_TEST((u.block(0, 0, 4, 4) - u.block(0, 4, 4, 4)).cwiseAbs().maxCoeff() > 0.1f);  // independent blocks
  math::Matrix bad(3, 5);
  BOOST_CHECK_THROW(nn::fill_orthogonal(bad, rng), util::Error);
}

BOOST_AUTO_TEST_CASE(gaussian_has_the_requested_scale_and_is_seeded) {
  util::Rng a(42), b(42), c(43);
  math::Matrix x(100, 100), y(100, 100), z(100, 100);
  nn::fill_normal(x, 0.01f, a);
  nn::fill_normal(y, 0.01f, b);
  nn::fill_normal(z, 0.01f, c);
  BOOST_TEST((x - y).cwiseAbs().maxCoeff() == 0.0f);
  BOOST_TEST((x - z).cwiseAbs().maxCoeff() > 0.0f);
  const double mean = x.mean();
  const double stddev = std::sqrt((x.array() - mean).square().mean());
  BOOST_TEST(std::abs(mean) < 0.001);
  BOOST_TEST(stddev == 0.01, boost::test_tools::tolerance(0.05));
}

BOOST_AUTO_TEST_CASE(rng_state_round_trip_continues_the_stream) {
  util::Rng rng(9);
  rng.normal();  // leaves a cached second normal
  const util::Rng::State saved = rng.state();
  const float n1 = rng.normal(), n2 = rng.normal();
  const std::uint64_t k = rng.below(1000);
  util::Rng restored(1);
  restored.set_state(saved);
  BOOST_TEST(restored.normal() == n1);
  BOOST_TEST(restored.normal() == n2);
  BOOST_TEST(restored.below(1000) == k);
}

BOOST_AUTO_TEST_CASE(uniform_values_stay_in_range) {
  util::Rng rng(5);
  for (int i = 0; i < 10000; ++i) {
    const float u = rng.uniform();
    BOOST_TEST_REQUIRE((u >= 0.0f && u < 1.0f));
    BOOST_TEST_REQUIRE(rng.below(7) < 7u);
  }
}

BOOST_AUTO_TEST_SUITE_END()
