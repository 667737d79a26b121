// The HMM alignment model of one pair (align/hmm_pair.h) against brute force: on tiny pairs,
// every alignment (each target word to a source word or the empty word) is enumerated with its
// probability, as the model defines it; the link posteriors, the expected jumps, the
// likelihood and the Viterbi path must be what the enumeration gives.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <random>

#include "align/hmm_pair.h"

using namespace rnnsearch::align;

namespace {

// A model with uneven jump weights and emissions drawn at random.
struct Case {
  JumpModel jumps;
  HmmPair pair;
  Case(int n, int m, unsigned seed, PEmptyMode mode = PEmptyMode::kLearned) {
    std::mt19937 random(seed);
    std::uniform_real_distribution<double> uniform(0.05, 1.0);
    jumps = JumpModel::uniform(2, 0.15, mode);
    double total = 0.0;
    for (double& w : jumps.weight) total += (w = uniform(random));
    for (double& w : jumps.weight) w /= total;
    pair.resize(n, m);
    for (float& e : pair.emission) e = static_cast<float>(uniform(random));
  }
};

// The probability of alignment `a` (a[j] in 0..I, 0 the empty word) under the model's definition.
double alignment_probability(const Case& c, const std::vector<int>& a, std::vector<double>* jumps_taken) {
  const int n = c.pair.source_length;
  // By length, the empty word is as likely as each of the n words.
  const double p_empty = c.jumps.p_empty_mode == PEmptyMode::kByLength ? 1.0 / (n + 1) : c.jumps.p_empty;
  double p = 1.0;
  int last = 0;
  for (std::size_t j = 0; j < a.size(); ++j) {
    const float* e = c.pair.emission.data() + j * static_cast<std::size_t>(n + 1);
    if (a[j] == 0) {
      p *= p_empty * e[0];
      continue;
    }
    double total = 0.0;
    for (int i = 1; i <= n; ++i) total += c.jumps.weight[static_cast<std::size_t>(c.jumps.jump_class(i - last))];
    p *= (1.0 - p_empty) * c.jumps.weight[static_cast<std::size_t>(c.jumps.jump_class(a[j] - last))] / total *
         e[a[j]];
    if (jumps_taken != nullptr) jumps_taken->push_back(c.jumps.jump_class(a[j] - last));
    last = a[j];
  }
  return p;
}

// Calls f(a) for every alignment of m target words to 0..n.
template <typename F>
void for_each_alignment(int n, int m, F&& f) {
  std::vector<int> a(static_cast<std::size_t>(m), 0);
  while (true) {
    f(a);
    std::size_t j = 0;
    while (j < a.size() && ++a[j] > n) a[j++] = 0;
    if (j == a.size()) return;
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(hmm_pair)

BOOST_AUTO_TEST_CASE(forward_backward_matches_enumerating_every_alignment) {
  for (const auto& [n, m, seed] : {std::tuple{1, 1, 1U}, {3, 2, 2U}, {2, 4, 3U}, {4, 3, 4U}, {5, 4, 5U}, {3, 5, 6U}})
  for (const PEmptyMode mode : {PEmptyMode::kLearned, PEmptyMode::kByLength}) {
    Case c(n, m, seed, mode);
    double total = 0.0;
    std::vector<double> posterior(static_cast<std::size_t>(m * (n + 1)), 0.0);
    std::vector<double> jump_counts(c.jumps.weight.size(), 0.0);
    double empties = 0.0;
    for_each_alignment(n, m, [&](const std::vector<int>& a) {
      std::vector<double> taken;
      const double p = alignment_probability(c, a, &taken);
      total += p;
      for (int j = 0; j < m; ++j) posterior[static_cast<std::size_t>(j * (n + 1) + a[static_cast<std::size_t>(j)])] += p;
      for (const double cls : taken) jump_counts[static_cast<std::size_t>(cls)] += p;
      for (const int i : a) empties += i == 0 ? p : 0.0;
    });
    hmm_forward_backward(c.jumps, c.pair, true);
    BOOST_TEST_CONTEXT("I " << n << ", J " << m << (mode == PEmptyMode::kByLength ? ", p-empty by length" : "")) {
      BOOST_TEST(c.pair.log_likelihood == std::log(total), boost::test_tools::tolerance(1e-5));
      for (std::size_t s = 0; s < posterior.size(); ++s) {
        BOOST_TEST(c.pair.posterior[s] == posterior[s] / total, boost::test_tools::tolerance(2e-4));
      }
      for (std::size_t k = 0; k < jump_counts.size(); ++k) {
        BOOST_TEST(c.pair.jump_counts[k] == jump_counts[k] / total, boost::test_tools::tolerance(2e-4));
      }
      BOOST_TEST(c.pair.empty_count == empties / total, boost::test_tools::tolerance(2e-4));
    }
  }
}

BOOST_AUTO_TEST_CASE(viterbi_finds_the_most_probable_alignment) {
  for (const auto& [n, m, seed] : {std::tuple{1, 2, 7U}, {3, 3, 8U}, {4, 4, 9U}, {2, 5, 10U}, {5, 3, 11U}})
  for (const PEmptyMode mode : {PEmptyMode::kLearned, PEmptyMode::kByLength}) {
    Case c(n, m, seed, mode);
    double best = -1.0;
    std::vector<int> best_alignment;
    for_each_alignment(n, m, [&](const std::vector<int>& a) {
      const double p = alignment_probability(c, a, nullptr);
      if (p > best) {
        best = p;
        best_alignment = a;
      }
    });
    BOOST_TEST_CONTEXT("I " << n << ", J " << m << (mode == PEmptyMode::kByLength ? ", p-empty by length" : "")) {
      const std::vector<int> found = hmm_viterbi(c.jumps, c.pair);
      BOOST_TEST(alignment_probability(c, found, nullptr) == best, boost::test_tools::tolerance(1e-9));
      BOOST_TEST(found == best_alignment, boost::test_tools::per_element());
    }
  }
}

BOOST_AUTO_TEST_CASE(model1_posteriors_are_each_words_normalized_emissions) {
  Case c(3, 2, 12U);
  model1_posteriors(c.pair);
  for (int j = 0; j < 2; ++j) {
    double total = 0.0;
    for (int i = 0; i <= 3; ++i) total += c.pair.emission[static_cast<std::size_t>(j * 4 + i)];
    for (int i = 0; i <= 3; ++i) {
      BOOST_TEST(c.pair.posterior[static_cast<std::size_t>(j * 4 + i)] ==
                     c.pair.emission[static_cast<std::size_t>(j * 4 + i)] / total,
                 boost::test_tools::tolerance(1e-6));
    }
  }
}

// The jumps' opportunities (the M-step's denominators): for every move to a word, each class
// counted once for every position of the sentence it could have landed on, in expectation
// over the alignments, as the jump counts are.
BOOST_AUTO_TEST_CASE(jump_opportunities_match_enumerating_every_alignment) {
  for (const auto& [n, m, seed] : {std::tuple{2, 2, 21U}, {3, 3, 22U}, {4, 3, 23U}, {3, 5, 24U}, {6, 4, 25U}}) {
    Case c(n, m, seed);
    double total = 0.0;
    std::vector<double> opportunities(c.jumps.weight.size(), 0.0);
    for_each_alignment(n, m, [&](const std::vector<int>& a) {
      const double p = alignment_probability(c, a, nullptr);
      total += p;
      int last = 0;
      for (const int i : a) {
        if (i == 0) continue;
        for (int to = 1; to <= n; ++to) opportunities[static_cast<std::size_t>(c.jumps.jump_class(to - last))] += p;
        last = i;
      }
    });
    hmm_forward_backward(c.jumps, c.pair, true);
    BOOST_TEST_CONTEXT("I " << n << ", J " << m) {
      for (std::size_t k = 0; k < opportunities.size(); ++k) {
        BOOST_TEST(c.pair.jump_opportunities[k] == opportunities[k] / total, boost::test_tools::tolerance(2e-4));
      }
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
