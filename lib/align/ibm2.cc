#include "align/ibm2.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <unordered_map>
#include <utility>

#include "align/digamma.h"
#include "util/error.h"
#include "util/option_range.h"
#include "util/parallel.h"

namespace rnnsearch::align {

void Ibm2Options::validate() const {
  util::check_range<std::size_t>("cache-mb", index_cache_mb, 0, std::size_t{1} << 30);
  util::check_range("iterations", iterations, 1, 1000);
  util::check_range("p-null", p_null, kMinPNull, kMaxPNull);
  util::check_range("tension", tension, kMinTension, kMaxTension);
  util::check_range("alpha", alpha, 0.0, 1000.0);
  util::check_range("threads", threads, 1, 1024);
}

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

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; }

// Calls f(word) for each whitespace-separated word of `line`, as `istream >> word` reads.
template <typename F>
void for_each_word(std::string_view line, F&& f) {
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && is_space(line[i])) ++i;
    const std::size_t begin = i;
    while (i < line.size() && !is_space(line[i])) ++i;
    if (i > begin) f(line.substr(begin, i - begin));
  }
}

// t(f | e) for the co-occurring pairs only, in compressed rows: row e holds its target
// ids sorted in targets_[row_[e] .. row_[e + 1]), each entry's count and probability at
// the same index (24 bytes a pair with order_, against ~80 in two unordered_maps). Before
// the first normalization every value is 1e-9.
//
// Normalizing sums a row's counts, and floating-point sums depend on their order: the
// table sums in the order the reference implementation (fast_align's, and this file's
// before it) iterated its std::unordered_map<int, double> rows, filled in corpus order.
// order_ keeps that order, found by filling such a map one row at a time.
class TranslationTable {
 public:
  explicit TranslationTable(const Ibm2Corpus& corpus) {
    const auto types = static_cast<std::size_t>(corpus.source_types);
    const std::size_t pairs = corpus.size();
    // The pairs each source word occurs in, once a pair, in corpus order.
    std::vector<std::size_t> begin(types + 1, 0);
    std::vector<std::size_t> last(types, SIZE_MAX);
    for (std::size_t k = 0; k < pairs; ++k) {
      for (std::size_t i = corpus.source_begin[k]; i < corpus.source_begin[k + 1]; ++i) {
        const auto e = static_cast<std::size_t>(corpus.source[i]);
        if (last[e] != k) ++begin[e + 1];
        last[e] = k;
      }
    }
    for (std::size_t e = 1; e <= types; ++e) begin[e] += begin[e - 1];
    std::vector<std::uint32_t> pairs_of(begin.back());
    std::vector<std::size_t> put(begin.begin(), begin.end() - 1);
    std::fill(last.begin(), last.end(), SIZE_MAX);
    for (std::size_t k = 0; k < pairs; ++k) {
      for (std::size_t i = corpus.source_begin[k]; i < corpus.source_begin[k + 1]; ++i) {
        const auto e = static_cast<std::size_t>(corpus.source[i]);
        if (last[e] != k) pairs_of[put[e]++] = static_cast<std::uint32_t>(k);
        last[e] = k;
      }
    }
    std::vector<std::size_t>().swap(last);
    std::vector<std::size_t>().swap(put);

    // Row by row: the target words in order of first co-occurrence, as the original
    // filled its map (pair by pair, target word by target word), NULL's row with all.
    std::vector<std::uint32_t> seen(static_cast<std::size_t>(corpus.target_types), 0);
    std::vector<std::int32_t> first_seen;
    row_.assign(types + 1, 0);
    for (std::size_t e = 0; e < types; ++e) {
      first_seen.clear();
      const auto stamp = static_cast<std::uint32_t>(e + 1);
      const auto visit = [&](std::size_t k) {
        for (std::size_t j = corpus.target_begin[k]; j < corpus.target_begin[k + 1]; ++j) {
          const auto f = static_cast<std::size_t>(corpus.target[j]);
          if (seen[f] == stamp) continue;
          seen[f] = stamp;
          first_seen.push_back(corpus.target[j]);
        }
      };
      if (e == 0) {
        for (std::size_t k = 0; k < pairs; ++k) visit(k);
      } else {
        for (std::size_t p = begin[e]; p < begin[e + 1]; ++p) visit(pairs_of[p]);
      }
      std::unordered_map<int, double> reference_row;
      for (const std::int32_t f : first_seen) reference_row.emplace(f, 0.0);
      const std::size_t at = targets_.size();
      std::sort(first_seen.begin(), first_seen.end());
      targets_.insert(targets_.end(), first_seen.begin(), first_seen.end());
      for (const auto& entry : reference_row) {
        order_.push_back(static_cast<std::uint32_t>(
            std::lower_bound(first_seen.begin(), first_seen.end(), entry.first) - first_seen.begin()));
      }
      row_[e + 1] = at + first_seen.size();
    }
    targets_.shrink_to_fit();
    order_.shrink_to_fit();
    counts_.assign(targets_.size(), 0.0);
  }

  // The table as the passes read it, moved out (the table is empty afterwards).
  Ibm2Table take(double tension, double p_null) {
    Ibm2Table out;
    out.tension = tension;
    out.p_null = p_null;
    if (probabilities_.empty()) probabilities_.assign(targets_.size(), 1e-9);
    out.row_begin = std::move(row_);
    out.target = std::move(targets_);
    out.probability = std::move(probabilities_);
    return out;
  }
  // The rows, targets and probabilities of `table` (a take() of this table's corpus).
  void adopt(Ibm2Table&& table) {
    row_ = std::move(table.row_begin);
    targets_ = std::move(table.target);
    probabilities_ = std::move(table.probability);
  }

  // Where (e, f) is; the pair must co-occur somewhere in the corpus.
  std::size_t index(int e, int f) const {
    const auto* begin = targets_.data() + row_[static_cast<std::size_t>(e)];
    const auto* end = targets_.data() + row_[static_cast<std::size_t>(e) + 1];
    return static_cast<std::size_t>(std::lower_bound(begin, end, f) - targets_.data());
  }
  std::size_t size() const { return targets_.size(); }
  double probability(std::size_t at) const { return probabilities_.empty() ? 1e-9 : probabilities_[at]; }
  void add(std::size_t at, double count) { counts_[at] += count; }
  // Counts to probabilities (variational Bayes when alpha > 0); counts start again at 0.
  void normalize(double alpha) {
    probabilities_.resize(counts_.size());
    for (std::size_t e = 0; e + 1 < row_.size(); ++e) {
      double total = 0.0;
      for (std::size_t at = row_[e]; at < row_[e + 1]; ++at) total += counts_[row_[e] + order_[at]] + alpha;
      if (total == 0.0) total = 1.0;
      const double digamma_total = alpha > 0.0 ? digamma(total) : 0.0;
      for (std::size_t at = row_[e]; at < row_[e + 1]; ++at) {
        probabilities_[at] = alpha > 0.0 ? std::exp(digamma(counts_[at] + alpha) - digamma_total) : counts_[at] / total;
        counts_[at] = 0.0;
      }
    }
  }

 private:
  std::vector<std::size_t> row_;
  std::vector<std::int32_t> targets_;
  std::vector<std::uint32_t> order_;  // row e's summation order, as offsets from row_[e]
  std::vector<double> counts_, probabilities_;
};

// Where each cell's t(f | e) is in the table, for the first pairs of the corpus, found
// in the first pass and read back in the others: finding it (binary search in row e)
// is most of a pass's work. 4 bytes a cell, (n + 1) * m cells a pair.
class IndexCache {
 public:
  IndexCache(const Ibm2Corpus& corpus, std::size_t max_bytes) {
    cell_begin_.push_back(0);
    for (std::size_t k = 0; k < corpus.size(); ++k) {
      const std::size_t cells = (corpus.source_begin[k + 1] - corpus.source_begin[k] + 1) *
                                (corpus.target_begin[k + 1] - corpus.target_begin[k]);
      if ((cell_begin_.back() + cells) * sizeof(std::uint32_t) > max_bytes) break;
      cell_begin_.push_back(cell_begin_.back() + cells);
    }
    at_.resize(cell_begin_.back());
  }
  // Pair k's cells, or null when the cache does not reach it.
  std::uint32_t* cells(std::size_t k) { return k + 1 < cell_begin_.size() ? at_.data() + cell_begin_[k] : nullptr; }
  bool filled = false;  // after the first pass

 private:
  std::vector<std::size_t> cell_begin_;
  std::vector<std::uint32_t> at_;
};

// One EM pass over a block of pairs, split so that several threads compute the
// posteriors and one adds them up in corpus order: every sum is then the same, addition
// for addition, as a single thread's, whatever the thread count. A pair's cells are its
// target words j, each with the NULL word and its n source words (n + 1 cells).
class BlockPass {
 public:
  static constexpr std::size_t kPairs = 4096;

  BlockPass(const Ibm2Corpus& corpus, const TranslationTable& table, IndexCache& cache, const Ibm2Options& options,
            double tension, bool viterbi)
      : corpus_(corpus), table_(table), cache_(cache), options_(options), tension_(tension), viterbi_(viterbi) {}

  // The posteriors (or, in the Viterbi pass, the links) of pairs [begin, end).
  void compute(std::size_t begin, std::size_t end, int threads) {
    begin_ = begin;
    const std::size_t pairs = end - begin;
    cell_begin_.assign(pairs + 1, 0);
    word_begin_.assign(pairs + 1, 0);
    for (std::size_t s = 0; s < pairs; ++s) {
      const std::size_t m = target_length(begin + s), n = source_length(begin + s);
      cell_begin_[s + 1] = cell_begin_[s] + (n + 1) * m;
      word_begin_[s + 1] = word_begin_[s] + m;
    }
    at_.resize(cell_begin_.back());
    pair_at_.resize(pairs);
    posterior_.resize(viterbi_ ? 0 : cell_begin_.back());
    weighted_feature_.resize(viterbi_ ? 0 : cell_begin_.back());
    log_sum_.resize(word_begin_.back());
    links_.resize(viterbi_ ? pairs : 0);
    // Contiguous runs of pairs with about equal numbers of cells.
    const auto workers = static_cast<std::size_t>(std::max(1, std::min<int>(threads, static_cast<int>(pairs))));
    util::run_on_threads(static_cast<int>(workers), [&](int worker) {
      const std::size_t w = static_cast<std::size_t>(worker);
      const auto first = first_pair_at(cell_begin_.back() * w / workers);
      const auto last = first_pair_at(cell_begin_.back() * (w + 1) / workers);
      std::vector<double> probs;
      for (std::size_t s = first; s < last; ++s) compute_pair(s, probs);
    });
  }

  // Adds the block's expected counts to `table` and its sums to the totals, in order.
  void accumulate(TranslationTable& table, double& log_likelihood, double& empirical_feature) const {
    for (std::size_t c = 0, w = 0, s = 0; s + 1 < cell_begin_.size(); ++s) {
      const std::size_t n = source_length(begin_ + s);
      for (const std::uint32_t* at = pair_at_[s]; w < word_begin_[s + 1]; ++w, c += n + 1, at += n + 1) {
        if (!viterbi_) {
          table.add(at[0], posterior_[c]);
          for (std::size_t i = 1; i <= n; ++i) {
            table.add(at[i], posterior_[c + i]);
            empirical_feature += weighted_feature_[c + i];
          }
        }
        log_likelihood += log_sum_[w];
      }
    }
  }

  const data::Alignment& links(std::size_t pair) const { return links_[pair - begin_]; }

 private:
  std::size_t source_length(std::size_t k) const { return corpus_.source_begin[k + 1] - corpus_.source_begin[k]; }
  std::size_t target_length(std::size_t k) const { return corpus_.target_begin[k + 1] - corpus_.target_begin[k]; }
  // The first pair of the block whose cells start at or after `cell`.
  std::size_t first_pair_at(std::size_t cell) const {
    return static_cast<std::size_t>(std::lower_bound(cell_begin_.begin(), cell_begin_.end() - 1, cell) -
                                    cell_begin_.begin());
  }

  void compute_pair(std::size_t s, std::vector<double>& probs) {
    const std::size_t k = begin_ + s;
    const std::int32_t* e = corpus_.source.data() + corpus_.source_begin[k];
    const std::int32_t* f = corpus_.target.data() + corpus_.target_begin[k];
    const auto n = static_cast<unsigned>(source_length(k)), m = static_cast<unsigned>(target_length(k));
    const double p_word = 1.0 - options_.p_null;
    probs.resize(n + 1);
    if (viterbi_) links_[s].clear();
    // The pair's table positions: read from the cache, or found and kept there (or in
    // the block's own buffer past the cache).
    std::uint32_t* cached = cache_.cells(k);
    std::uint32_t* at = cached != nullptr ? cached : at_.data() + cell_begin_[s];
    pair_at_[s] = at;
    if (cached == nullptr || !cache_.filled) {
      for (unsigned j = 0; j < m; ++j) {
        std::uint32_t* row = at + j * (n + 1);
        row[0] = table_.index(0, f[j]);
        for (unsigned i = 1; i <= n; ++i) row[i] = table_.index(e[i - 1], f[j]);
      }
    }
    std::size_t c = cell_begin_[s];
    for (unsigned j = 0; j < m; ++j, c += n + 1, at += n + 1) {
      probs[0] = table_.probability(at[0]) * options_.p_null;
      double sum = probs[0];
      const double z = closed_normalizer(j + 1, m, n, tension_) / p_word;
      for (unsigned i = 1; i <= n; ++i) {
        probs[i] = table_.probability(at[i]) * std::exp(tension_ * feature(j + 1, i, m, n)) / z;
        sum += probs[i];
      }
      log_sum_[word_begin_[s] + j] = std::log(sum);
      if (viterbi_) {
        unsigned best = 0;
        for (unsigned i = 1; i <= n; ++i) {
          if (probs[i] > probs[best]) best = i;
        }
        if (best > 0) links_[s].push_back({static_cast<int>(best) - 1, static_cast<int>(j)});
        continue;
      }
      posterior_[c] = probs[0] / sum;
      for (unsigned i = 1; i <= n; ++i) {
        const double p = probs[i] / sum;
        posterior_[c + i] = p;
        weighted_feature_[c + i] = feature(j, i, m, n) * p;  // fast_align's 0-based j
      }
    }
    if (viterbi_) std::sort(links_[s].begin(), links_[s].end());
  }

  const Ibm2Corpus& corpus_;
  const TranslationTable& table_;
  IndexCache& cache_;
  const Ibm2Options& options_;
  const double tension_;
  const bool viterbi_;
  std::size_t begin_ = 0;
  std::vector<std::size_t> cell_begin_, word_begin_;
  std::vector<std::uint32_t> at_;               // the positions of pairs past the cache
  std::vector<const std::uint32_t*> pair_at_;  // each pair's positions, in the cache or at_
  std::vector<double> posterior_, weighted_feature_, log_sum_;
  std::vector<data::Alignment> links_;
};

// The tension that makes the model's expected feature match the empirical one.
double refit_tension(double tension, double empirical_feature,
                     const std::map<std::pair<unsigned, unsigned>, double>& pairs_of_size, double target_words) {
  for (int step = 0; step < 8; ++step) {
    double expected = 0.0;
    for (const auto& [size, count] : pairs_of_size) {
      for (unsigned j = 1; j <= size.first; ++j) expected += count * model_feature(j, size.first, size.second, tension);
    }
    expected /= target_words;
    tension = std::min(14.0, std::max(0.1, tension + (empirical_feature - expected) * 20.0));
  }
  return tension;
}

}  // namespace

std::int32_t Ibm2CorpusBuilder::id_of(std::string_view word, std::unordered_map<std::string, std::int32_t>& ids,
                                      std::int32_t first_id) {
  key_.assign(word);
  const auto found = ids.find(key_);
  if (found != ids.end()) return found->second;
  const auto id = static_cast<std::int32_t>(ids.size()) + first_id;
  ids.emplace(key_, id);
  return id;
}

std::int32_t Ibm2CorpusBuilder::source_id(std::string_view word) { return id_of(word, source_ids_, 1); }
std::int32_t Ibm2CorpusBuilder::target_id(std::string_view word) { return id_of(word, target_ids_, 0); }

void Ibm2CorpusBuilder::end_pair() {
  const std::size_t k = corpus_.size() + 1;
  const bool empty_side = corpus_.source.size() == corpus_.source_begin.back() ||
                          corpus_.target.size() == corpus_.target_begin.back();
  corpus_.source_begin.push_back(corpus_.source.size());
  corpus_.target_begin.push_back(corpus_.target.size());
  if (empty_side) throw util::Error("ibm2_align: pair " + std::to_string(k) + " has an empty side");
}

void Ibm2CorpusBuilder::add(std::string_view source, std::string_view target) {
  for_each_word(source, [&](std::string_view w) { corpus_.source.push_back(source_id(w)); });
  for_each_word(target, [&](std::string_view w) { corpus_.target.push_back(target_id(w)); });
  end_pair();
}

void Ibm2CorpusBuilder::add(const std::vector<std::string>& source, const std::vector<std::string>& target) {
  for (const auto& w : source) corpus_.source.push_back(source_id(w));
  for (const auto& w : target) corpus_.target.push_back(target_id(w));
  end_pair();
}

Ibm2Corpus Ibm2CorpusBuilder::take() {
  corpus_.source_types = static_cast<int>(source_ids_.size()) + 1;
  corpus_.target_types = static_cast<int>(target_ids_.size());
  corpus_.source_words.assign(source_ids_.size() + 1, std::string());
  corpus_.target_words.assign(target_ids_.size(), std::string());
  for (auto& [word, id] : source_ids_) corpus_.source_words[static_cast<std::size_t>(id)] = word;
  for (auto& [word, id] : target_ids_) corpus_.target_words[static_cast<std::size_t>(id)] = word;
  Ibm2Corpus out = std::move(corpus_);
  corpus_ = Ibm2Corpus{};
  source_ids_.clear();
  target_ids_.clear();
  return out;
}

Ibm2Result ibm2_align(const std::vector<std::vector<std::string>>& source,
                      const std::vector<std::vector<std::string>>& target, const Ibm2Options& options) {
  if (source.size() != target.size()) {
    throw util::Error("ibm2_align: " + std::to_string(source.size()) + " source and " + std::to_string(target.size()) +
                      " target lines");
  }
  Ibm2CorpusBuilder builder;
  for (std::size_t k = 0; k < source.size(); ++k) builder.add(source[k], target[k]);
  return ibm2_align(builder.take(), options);
}

namespace {

using LinkSink = std::function<void(std::size_t pair, const data::Alignment& links)>;

// One pass over the corpus, block by block: the EM counts into `table`, or in the Viterbi
// pass the links, to on_links or into result.links.
Ibm2Iteration run_pass(const Ibm2Corpus& corpus, TranslationTable& table, IndexCache& cache,
                       const Ibm2Options& options, double tension, bool viterbi, const LinkSink& on_links,
                       Ibm2Result& result, double& empirical_feature) {
  double log_likelihood = 0.0;
  empirical_feature = 0.0;
  BlockPass pass(corpus, table, cache, options, tension, viterbi);
  for (std::size_t begin = 0; begin < corpus.size(); begin += BlockPass::kPairs) {
    const std::size_t end = std::min(corpus.size(), begin + BlockPass::kPairs);
    pass.compute(begin, end, options.threads);
    pass.accumulate(table, log_likelihood, empirical_feature);
    for (std::size_t k = begin; viterbi && k < end; ++k) {
      if (on_links) {
        on_links(k, pass.links(k));
      } else {
        result.links[k] = pass.links(k);
      }
    }
  }
  cache.filled = true;
  return {log_likelihood, tension};
}

Ibm2Result start_result(const Ibm2Corpus& corpus, const TranslationTable& table, const LinkSink& on_links) {
  Ibm2Result result;
  if (!on_links) result.links.resize(corpus.size());
  // Table positions are kept in 4 bytes: a table that large would need 100 GB anyway.
  if (table.size() > UINT32_MAX) throw util::Error("ibm2_align: more than 2^32 co-occurring word pairs");
  return result;
}

}  // namespace

Ibm2Result ibm2_align(const Ibm2Corpus& corpus, const Ibm2Options& options, const LinkSink& on_links,
                      Ibm2Table* learned) {
  TranslationTable table(corpus);
  std::map<std::pair<unsigned, unsigned>, double> pairs_of_size;  // (m, n) -> pairs
  double target_words = 0.0;
  for (std::size_t k = 0; k < corpus.size(); ++k) {
    const auto m = static_cast<unsigned>(corpus.target_begin[k + 1] - corpus.target_begin[k]);
    const auto n = static_cast<unsigned>(corpus.source_begin[k + 1] - corpus.source_begin[k]);
    ++pairs_of_size[{m, n}];
    target_words += static_cast<double>(m);
  }
  Ibm2Result result = start_result(corpus, table, on_links);
  double tension = options.tension;
  IndexCache cache(corpus, options.index_cache_mb << 20);
  for (int iteration = 0; iteration < options.iterations; ++iteration) {
    const bool viterbi = iteration == options.iterations - 1;
    double empirical_feature = 0.0;
    result.iterations.push_back(
        run_pass(corpus, table, cache, options, tension, viterbi, on_links, result, empirical_feature));
    if (viterbi) break;
    empirical_feature /= target_words;
    if (options.optimize_tension && iteration > 0) {
      tension = refit_tension(tension, empirical_feature, pairs_of_size, target_words);
    }
    table.normalize(options.alpha);
  }
  if (learned != nullptr) *learned = table.take(tension, options.p_null);
  return result;
}

Ibm2Result ibm2_force_align(const Ibm2Corpus& corpus, const Ibm2Options& options,
                            const std::function<void(Ibm2Table& table)>& fill, const LinkSink& on_links) {
  TranslationTable table(corpus);
  Ibm2Result result = start_result(corpus, table, on_links);
  Ibm2Table given = table.take(options.tension, options.p_null);
  fill(given);
  Ibm2Options pass_options = options;
  pass_options.p_null = given.p_null;
  const double tension = given.tension;
  table.adopt(std::move(given));
  IndexCache cache(corpus, 0);
  double empirical_feature = 0.0;
  result.iterations.push_back(
      run_pass(corpus, table, cache, pass_options, tension, true, on_links, result, empirical_feature));
  return result;
}

}  // namespace rnnsearch::align
