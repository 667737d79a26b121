// Bootstrap confidence intervals and paired tests over segment statistics.
#include <boost/test/unit_test.hpp>

#include "eval/bleu.h"
#include "eval/resampling.h"

using namespace rnnsearch::eval;

namespace {

// Twenty segments; system A matches every reference, system B half of them.
struct TwoSystems {
  ReferenceSet refs{{}};
  std::vector<std::string> a, b;
  TwoSystems() {
    for (int i = 0; i < 20; ++i) {
      const std::string ref = "word" + std::to_string(i) + " is a good sentence number " + std::to_string(i);
      refs[0].push_back(ref);
      a.push_back(ref);
      b.push_back(i % 2 ? ref : "something else entirely " + std::to_string(i));
    }
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(resampling)

BOOST_AUTO_TEST_CASE(confidence_uses_the_2_5_and_97_5_percentiles) {
  std::vector<double> scores;
  for (int i = 0; i < 1000; ++i) scores.push_back(i);
  const Confidence c = estimate_confidence(scores);
  BOOST_TEST(c.mean == 499.5);
  BOOST_TEST(c.ci == 0.5 * (974 - 25));
}

BOOST_AUTO_TEST_CASE(bootstrap_is_deterministic_for_a_seed_and_any_thread_count) {
  TwoSystems t;
  const Bleu bleu(t.refs, {});
  const auto sa = bleu.segment_stats(t.a), sb = bleu.segment_stats(t.b);
  const auto one = bootstrap_scores(bleu, {&sa, &sb}, 200, 42, 1);
  const auto two = bootstrap_scores(bleu, {&sa, &sb}, 200, 42, 2);
  const auto other_seed = bootstrap_scores(bleu, {&sa, &sb}, 200, 43, 1);
  BOOST_TEST(one == two);
  BOOST_TEST(one != other_seed);
  for (double s : one[0]) BOOST_TEST(s == 100.0, boost::test_tools::tolerance(1e-9));  // stays perfect
}

BOOST_AUTO_TEST_CASE(interval_brackets_the_score) {
  TwoSystems t;
  const Bleu bleu(t.refs, {});
  const auto sb = bleu.segment_stats(t.b);
  const auto sums = sb.column_sums();
  const double score = bleu.score_from_stats(sums.data()).score;
  const auto samples = bootstrap_scores(bleu, {&sb}, 1000, 12345, 1);
  const Confidence c = estimate_confidence(samples[0]);
  BOOST_TEST(c.ci > 0.0);
  BOOST_TEST(std::abs(c.mean - score) < c.ci);
}

BOOST_AUTO_TEST_CASE(paired_tests_tell_different_systems_apart) {
  TwoSystems t;
  const Bleu bleu(t.refs, {});
  const auto sa = bleu.segment_stats(t.a), sb = bleu.segment_stats(t.b);
  const auto samples = bootstrap_scores(bleu, {&sa, &sb}, 1000, 12345, 1);
  const auto ssa = sa.column_sums(), ssb = sb.column_sums();
  const double observed = std::abs(bleu.score_from_stats(ssa.data()).score - bleu.score_from_stats(ssb.data()).score);
  BOOST_TEST(paired_bootstrap_p_value(samples[0], samples[1], observed) < 0.01);
  BOOST_TEST(approximate_randomization_p_value(bleu, sa, sb, 2000, 12345, 2) < 0.01);
}

BOOST_AUTO_TEST_CASE(p_value_formula_counts_centred_differences) {
  // diffs |s - b| = 1, 2, 3 -> mean 2 -> centred -1, 0, 1; observed 0.5 -> one exceeds.
  BOOST_TEST(paired_bootstrap_p_value({0, 0, 0}, {1, 2, 3}, 0.5) == 2.0 / 4.0);
}

BOOST_AUTO_TEST_SUITE_END()
