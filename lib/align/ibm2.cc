#include "align/ibm2.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

#include "util/error.h"

namespace rnnsearch::align {

namespace {

// The alignment feature of target position j of m and source position i of n (1-based).
double feature(double j, double i, double m, double n) { return -std::fabs(i / n - j / m); }

// fast_align's closed form of the normalizer: two geometric series either side of the
// diagonal (equal to summing exp(tension * feature) over i = 1..n).
double closed_normalizer(unsigned j, unsigned m, unsigned n, double tension) {
  const unsigned below = static_cast<unsigned>(static_cast<double>(j) * n / m), above = n - below;
  const double ratio = std::exp(-tension / n);
  double z = 0.0;
  if (above) z += std::exp(tension * feature(j, below + 1, m, n)) * (1.0 - std::pow(ratio, above)) / (1.0 - ratio);
  if (below) z += std::exp(tension * feature(j, below, m, n)) * (1.0 - std::pow(ratio, below)) / (1.0 - ratio);
  return z;
}

// The model's expected feature at target position j: sum_i feature * p(i | j, m, n).
double model_feature(unsigned j, unsigned m, unsigned n, double tension) {
  double weighted = 0.0, total = 0.0;
  for (unsigned i = 1; i <= n; ++i) {
    const double f = feature(j, i, m, n), w = std::exp(tension * f);
    weighted += f * w;
    total += w;
  }
  return weighted / total;
}

double digamma(double x) {
  double result = 0.0;
  for (; x < 7.0; ++x) result -= 1.0 / x;
  x -= 0.5;
  const double xx = 1.0 / x, xx2 = xx * xx, xx4 = xx2 * xx2;
  return result + std::log(x) + xx2 / 24.0 - 7.0 / 960.0 * xx4 + 31.0 / 8064.0 * xx4 * xx2 -
         127.0 / 30720.0 * xx4 * xx4;
}

struct Corpus {
  std::vector<std::vector<int>> source, target;  // source ids from 1; 0 is NULL
  int source_types = 1;
};

Corpus to_ids(const std::vector<std::vector<std::string>>& source, const std::vector<std::vector<std::string>>& target) {
  if (source.size() != target.size()) {
    throw util::Error("ibm2_align: " + std::to_string(source.size()) + " source and " + std::to_string(target.size()) +
                      " target lines");
  }
  Corpus corpus;
  std::unordered_map<std::string, int> source_ids, target_ids;
  for (std::size_t k = 0; k < source.size(); ++k) {
    if (source[k].empty() || target[k].empty()) {
      throw util::Error("ibm2_align: pair " + std::to_string(k + 1) + " has an empty side");
    }
    std::vector<int> s, t;
    for (const auto& word : source[k]) s.push_back(source_ids.emplace(word, static_cast<int>(source_ids.size()) + 1).first->second);
    for (const auto& word : target[k]) t.push_back(target_ids.emplace(word, static_cast<int>(target_ids.size())).first->second);
    corpus.source.push_back(std::move(s));
    corpus.target.push_back(std::move(t));
  }
  corpus.source_types = static_cast<int>(source_ids.size()) + 1;
  return corpus;
}

// t(f | e) for the co-occurring pairs; before the first normalization every value is 1e-9.
class TranslationTable {
 public:
  explicit TranslationTable(int source_types) : counts_(static_cast<std::size_t>(source_types)) {}
  void insert(int e, int f) { counts_[static_cast<std::size_t>(e)].emplace(f, 0.0); }
  double probability(int e, int f) const {
    return probabilities_.empty() ? 1e-9 : probabilities_[static_cast<std::size_t>(e)].find(f)->second;
  }
  void add(int e, int f, double count) { counts_[static_cast<std::size_t>(e)].find(f)->second += count; }
  // Counts to probabilities (variational Bayes when alpha > 0); counts start again at 0.
  void normalize(double alpha) {
    probabilities_ = counts_;
    for (auto& row : probabilities_) {
      double total = 0.0;
      for (const auto& [f, count] : row) total += count + alpha;
      if (total == 0.0) total = 1.0;
      const double digamma_total = alpha > 0.0 ? digamma(total) : 0.0;
      for (auto& [f, value] : row) value = alpha > 0.0 ? std::exp(digamma(value + alpha) - digamma_total) : value / total;
    }
    for (auto& row : counts_) {
      for (auto& entry : row) entry.second = 0.0;
    }
  }

 private:
  std::vector<std::unordered_map<int, double>> counts_, probabilities_;
};

}  // namespace

Ibm2Result ibm2_align(const std::vector<std::vector<std::string>>& source,
                      const std::vector<std::vector<std::string>>& target, const Ibm2Options& options) {
  const Corpus corpus = to_ids(source, target);
  TranslationTable table(corpus.source_types);
  std::map<std::pair<unsigned, unsigned>, double> pairs_of_size;  // (m, n) -> pairs
  double target_words = 0.0;
  for (std::size_t k = 0; k < corpus.source.size(); ++k) {
    for (const int f : corpus.target[k]) {
      table.insert(0, f);
      for (const int e : corpus.source[k]) table.insert(e, f);
    }
    ++pairs_of_size[{static_cast<unsigned>(corpus.target[k].size()), static_cast<unsigned>(corpus.source[k].size())}];
    target_words += static_cast<double>(corpus.target[k].size());
  }
  Ibm2Result result;
  result.links.resize(corpus.source.size());
  double tension = options.tension;
  const double p_word = 1.0 - options.p_null;
  std::vector<double> probs;
  for (int iteration = 0; iteration < options.iterations; ++iteration) {
    const bool viterbi = iteration == options.iterations - 1;
    double log_likelihood = 0.0, empirical_feature = 0.0;
    for (std::size_t k = 0; k < corpus.source.size(); ++k) {
      const auto& e = corpus.source[k];
      const auto& f = corpus.target[k];
      const unsigned n = static_cast<unsigned>(e.size()), m = static_cast<unsigned>(f.size());
      probs.resize(n + 1);
      for (unsigned j = 0; j < m; ++j) {
        probs[0] = table.probability(0, f[j]) * options.p_null;
        double sum = probs[0];
        const double z = closed_normalizer(j + 1, m, n, tension) / p_word;
        for (unsigned i = 1; i <= n; ++i) {
          probs[i] = table.probability(e[i - 1], f[j]) * std::exp(tension * feature(j + 1, i, m, n)) / z;
          sum += probs[i];
        }
        if (viterbi) {
          unsigned best = 0;
          for (unsigned i = 1; i <= n; ++i) {
            if (probs[i] > probs[best]) best = i;
          }
          if (best > 0) result.links[k].push_back({static_cast<int>(best) - 1, static_cast<int>(j)});
        } else {
          table.add(0, f[j], probs[0] / sum);
          for (unsigned i = 1; i <= n; ++i) {
            const double p = probs[i] / sum;
            table.add(e[i - 1], f[j], p);
            empirical_feature += feature(j, i, m, n) * p;  // fast_align's 0-based j
          }
        }
        log_likelihood += std::log(sum);
      }
    }
    result.iterations.push_back({log_likelihood, tension});
    if (viterbi) break;
    empirical_feature /= target_words;
    if (options.optimize_tension && iteration > 0) {
      for (int step = 0; step < 8; ++step) {
        double expected = 0.0;
        for (const auto& [size, count] : pairs_of_size) {
          for (unsigned j = 1; j <= size.first; ++j) expected += count * model_feature(j, size.first, size.second, tension);
        }
        expected /= target_words;
        tension = std::min(14.0, std::max(0.1, tension + (empirical_feature - expected) * 20.0));
      }
    }
    table.normalize(options.alpha);
  }
  for (auto& links : result.links) std::sort(links.begin(), links.end());
  return result;
}

}  // namespace rnnsearch::align
