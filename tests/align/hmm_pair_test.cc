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
  Case(int n, int m, unsigned seed, PEmptyMode mode = PEmptyMode::kLearned, bool boundary = false) {
    std::mt19937 random(seed);
    std::uniform_real_distribution<double> uniform(0.05, 1.0);
    jumps = JumpModel::uniform(2, 0.15, mode, boundary);
    for (std::vector<double>* weights : {&jumps.weight, &jumps.start, &jumps.end}) {
      double total = 0.0;
      for (double& w : *weights) total += (w = uniform(random));
      for (double& w : *weights) w /= total;
    }
    pair.resize(n, m);
    for (float& e : pair.emission) e = static_cast<float>(uniform(random));
  }
};

// What an alignment's moves are, by class: the jumps, and with boundary jumps the first
// move's and the end move's (-1 for none).
struct Moves {
  std::vector<int> jumps;
  int start = -1, end = -1;
};

// sum_{i = first..last} weights[class(i - from)].
double class_total(const JumpModel& jumps, const std::vector<double>& weights, int from, int first, int last) {
  double total = 0.0;
  for (int i = first; i <= last; ++i) total += weights[static_cast<std::size_t>(jumps.jump_class(i - from))];
  return total;
}

// The probability of alignment `a` (a[j] in 0..I, 0 the empty word) under the model's definition.
double alignment_probability(const Case& c, const std::vector<int>& a, std::vector<double>* jumps_taken,
                             Moves* moves = nullptr) {
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
    // With boundary jumps, the first move to a word (from position 0) by the start weights.
    const bool first = last == 0 && c.jumps.boundary();
    const std::vector<double>& weights = first ? c.jumps.start : c.jumps.weight;
    const double total = class_total(c.jumps, weights, last, 1, n);
    p *= (1.0 - p_empty) * weights[static_cast<std::size_t>(c.jumps.jump_class(a[j] - last))] / total * e[a[j]];
    if (jumps_taken != nullptr) jumps_taken->push_back(c.jumps.jump_class(a[j] - last));
    if (moves != nullptr) (first ? moves->start : moves->jumps.emplace_back()) = c.jumps.jump_class(a[j] - last);
    last = a[j];
  }
  if (c.jumps.boundary()) {  // the move to the end position n + 1
    p *= c.jumps.end[static_cast<std::size_t>(c.jumps.jump_class(n + 1 - last))] / class_total(c.jumps, c.jumps.end, last, 1, n + 1);
    if (moves != nullptr) moves->end = c.jumps.jump_class(n + 1 - last);
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

// Boundary jumps: the posteriors, likelihood and Viterbi path as the enumeration gives them,
// and the expected moves of each kind (jumps, first moves, end moves) with their opportunities.
BOOST_AUTO_TEST_CASE(boundary_jumps_match_enumerating_every_alignment) {
  for (const auto& [n, m, seed] : {std::tuple{1, 1, 31U}, {3, 2, 32U}, {2, 4, 33U}, {4, 3, 34U}, {5, 4, 35U}, {3, 5, 36U}}) {
    Case c(n, m, seed, PEmptyMode::kLearned, true);
    const std::size_t classes = c.jumps.weight.size();
    double total = 0.0, best = -1.0;
    std::vector<int> best_alignment;
    std::vector<double> posterior(static_cast<std::size_t>(m * (n + 1)), 0.0);
    // [jumps, jump opportunities, starts, start opportunities, ends, end opportunities]
    std::vector<double> expected(6 * classes, 0.0);
    for_each_alignment(n, m, [&](const std::vector<int>& a) {
      Moves moves;
      const double p = alignment_probability(c, a, nullptr, &moves);
      total += p;
      if (p > best) {
        best = p;
        best_alignment = a;
      }
      for (int j = 0; j < m; ++j) posterior[static_cast<std::size_t>(j * (n + 1) + a[static_cast<std::size_t>(j)])] += p;
      for (const int cls : moves.jumps) expected[static_cast<std::size_t>(cls)] += p;
      // Opportunities: every position a move could have landed on, by its class.
      int last = 0;
      for (const int i : a) {
        if (i == 0) continue;
        const std::size_t block = last == 0 ? 3 : 1;
        for (int to = 1; to <= n; ++to) expected[block * classes + static_cast<std::size_t>(c.jumps.jump_class(to - last))] += p;
        last = i;
      }
      if (moves.start >= 0) expected[2 * classes + static_cast<std::size_t>(moves.start)] += p;
      expected[4 * classes + static_cast<std::size_t>(moves.end)] += p;
      for (int to = 1; to <= n + 1; ++to) expected[5 * classes + static_cast<std::size_t>(c.jumps.jump_class(to - last))] += p;
    });
    hmm_forward_backward(c.jumps, c.pair, true);
    BOOST_TEST_CONTEXT("I " << n << ", J " << m) {
      BOOST_TEST(c.pair.log_likelihood == std::log(total), boost::test_tools::tolerance(1e-5));
      for (std::size_t s = 0; s < posterior.size(); ++s) {
        BOOST_TEST(c.pair.posterior[s] == posterior[s] / total, boost::test_tools::tolerance(2e-4));
      }
      std::vector<double> found(c.pair.jump_counts);
      found.insert(found.end(), c.pair.jump_opportunities.begin(), c.pair.jump_opportunities.end());
      found.insert(found.end(), c.pair.boundary_counts.begin(), c.pair.boundary_counts.end());
      BOOST_TEST_REQUIRE(found.size() == expected.size());
      for (std::size_t k = 0; k < found.size(); ++k) {
        BOOST_TEST(found[k] == expected[k] / total, boost::test_tools::tolerance(2e-4) << "count " << k);
      }
      const std::vector<int> path = hmm_viterbi(c.jumps, c.pair);
      BOOST_TEST(alignment_probability(c, path, nullptr) == best, boost::test_tools::tolerance(1e-9));
      BOOST_TEST(path == best_alignment, boost::test_tools::per_element());
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
