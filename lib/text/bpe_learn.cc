#include "text/bpe_learn.h"

#include <cstdint>
#include <queue>
#include <unordered_map>
#include <unordered_set>

#include "util/option_range.h"
#include "util/parallel.h"
#include "util/utf8.h"

namespace rnnsearch::text {
namespace {

using SymbolId = std::uint32_t;
using PairKey = std::uint64_t;

PairKey pair_key(SymbolId a, SymbolId b) { return (static_cast<PairKey>(a) << 32) | b; }
SymbolId pair_first(PairKey k) { return static_cast<SymbolId>(k >> 32); }
SymbolId pair_second(PairKey k) { return static_cast<SymbolId>(k & 0xFFFFFFFFu); }

class Learner {
 public:
  explicit Learner(const std::vector<WordCount>& words);
  int distinct_characters() const;
  BpeCodes run(int merges, int min_frequency, util::ProgressMeter* progress);

 private:
  struct Word {
    std::vector<SymbolId> symbols;
    std::int64_t count;
  };
  struct Candidate {
    std::int64_t count;
    PairKey pair;
  };

  SymbolId intern(const std::string& s);
  // Python's ordering of (count, (first, second)): true when a < b.
  bool less(const Candidate& a, const Candidate& b) const;
  void add_pairs(std::size_t w, std::int64_t sign);
  void merge_word(std::size_t w, SymbolId a, SymbolId b, SymbolId merged);

  std::vector<std::string> names_;
  std::unordered_map<std::string, SymbolId> ids_;
  std::vector<Word> words_;
  std::unordered_map<PairKey, std::int64_t> counts_;
  std::unordered_map<PairKey, std::vector<std::uint32_t>> where_;  // may repeat or be stale
  std::unordered_map<PairKey, std::int64_t> delta_;                  // changes of one step
  std::vector<std::uint32_t> seen_;                                  // step stamp per word
};

Learner::Learner(const std::vector<WordCount>& words) {
  words_.reserve(words.size());
  std::string symbol;
  for (const WordCount& wc : words) {
    Word word{{}, wc.count};
    const std::string& s = wc.word;
    for (std::size_t i = 0; i < s.size();) {
      const std::size_t start = i;
      util::next_code_point(s, i);
      symbol.assign(s, start, i - start);
      if (i == s.size()) symbol += kEndOfWord;
      word.symbols.push_back(intern(symbol));
    }
    if (!word.symbols.empty()) words_.push_back(std::move(word));
  }
  seen_.assign(words_.size(), 0);
  for (std::size_t w = 0; w < words_.size(); ++w) add_pairs(w, 1);
  for (const auto& [pair, d] : delta_) counts_[pair] += d;
  delta_.clear();
}

int Learner::distinct_characters() const {
  std::unordered_set<SymbolId> internal, final;
  for (const Word& w : words_) {
    internal.insert(w.symbols.begin(), w.symbols.end() - 1);
    final.insert(w.symbols.back());
  }
  return static_cast<int>(internal.size() + final.size());
}

SymbolId Learner::intern(const std::string& s) {
  auto [it, inserted] = ids_.try_emplace(s, static_cast<SymbolId>(names_.size()));
  if (inserted) names_.push_back(s);
  return it->second;
}

bool Learner::less(const Candidate& a, const Candidate& b) const {
  if (a.count != b.count) return a.count < b.count;
  const int first = names_[pair_first(a.pair)].compare(names_[pair_first(b.pair)]);
  if (first != 0) return first < 0;
  return names_[pair_second(a.pair)] < names_[pair_second(b.pair)];
}

// Adds (sign = 1) or removes (-1) the pairs of word w into delta_; new pairs are indexed.
void Learner::add_pairs(std::size_t w, std::int64_t sign) {
  const Word& word = words_[w];
  for (std::size_t i = 0; i + 1 < word.symbols.size(); ++i) {
    const PairKey k = pair_key(word.symbols[i], word.symbols[i + 1]);
    delta_[k] += sign * word.count;
    if (sign > 0) where_[k].push_back(static_cast<std::uint32_t>(w));
  }
}

// Rewrites word w with every occurrence of (a, b) merged, left to right.
void Learner::merge_word(std::size_t w, SymbolId a, SymbolId b, SymbolId merged) {
  std::vector<SymbolId>& s = words_[w].symbols;
  std::size_t out = 0;
  for (std::size_t i = 0; i < s.size();) {
    if (i + 1 < s.size() && s[i] == a && s[i + 1] == b) {
      s[out++] = merged;
      i += 2;
    } else {
      s[out++] = s[i++];
    }
  }
  s.resize(out);
}

BpeCodes Learner::run(int merges, int min_frequency, util::ProgressMeter* progress) {
  BpeCodes codes;
  auto heap_less = [this](const Candidate& x, const Candidate& y) { return less(x, y); };
  std::priority_queue<Candidate, std::vector<Candidate>, decltype(heap_less)> heap(heap_less);
  for (const auto& [pair, count] : counts_) heap.push({count, pair});

  for (int step = 0; step < merges; ++step) {
    if (progress) progress->set_done(static_cast<std::uint64_t>(step));
    // Drop entries whose count changed since they were pushed.
    while (!heap.empty()) {
      const auto it = counts_.find(heap.top().pair);
      if (it != counts_.end() && it->second == heap.top().count) break;
      heap.pop();
    }
    if (heap.empty() || heap.top().count < min_frequency) break;
    const PairKey best = heap.top().pair;
    heap.pop();
    const SymbolId a = pair_first(best), b = pair_second(best);
    codes.merges.emplace_back(names_[a], names_[b]);
    const SymbolId merged = intern(names_[a] + names_[b]);

    const std::uint32_t stamp = static_cast<std::uint32_t>(step) + 1;
    std::vector<std::uint32_t> holders = std::move(where_[best]);
    where_.erase(best);
    for (std::uint32_t w : holders) {
      if (seen_[w] == stamp) continue;
      seen_[w] = stamp;
      add_pairs(w, -1);
      merge_word(w, a, b, merged);
      // Re-index only the pairs that hold the new symbol; the others are indexed already.
      const Word& word = words_[w];
      for (std::size_t i = 0; i + 1 < word.symbols.size(); ++i) {
        const PairKey k = pair_key(word.symbols[i], word.symbols[i + 1]);
        delta_[k] += word.count;
        if (word.symbols[i] == merged || word.symbols[i + 1] == merged) where_[k].push_back(w);
      }
    }
    for (const auto& [pair, d] : delta_) {
      if (d == 0) continue;
      std::int64_t& c = counts_[pair];
      c += d;
      if (c > 0) heap.push({c, pair});
    }
    delta_.clear();
    counts_.erase(best);
  }
  return codes;
}

}  // namespace

BpeCodes learn_bpe(const std::vector<WordCount>& words, const BpeLearnOptions& options, util::ProgressMeter* progress) {
  Learner learner(words);
  int merges = options.symbols;
  if (options.total_symbols) merges -= learner.distinct_characters();
  return learner.run(merges, options.min_frequency, progress);
}

std::vector<WordCount> count_words(const std::vector<std::string>& paths, LineBreaks breaks,
                                   util::InvalidUtf8 invalid, util::ProgressMeter* progress) {
  WordCounter counter(breaks);
  for (const std::string& path : paths) counter.add_file(path, invalid, progress);
  return counter.counts();
}

void BpeLearnOptions::validate() const {
  util::check_range("symbols", symbols, 0, 10000000);
  util::check_range("min-frequency", min_frequency, 0, 1000000000);
  util::check_range("num-workers", num_workers, -1, util::kMaxThreads);
}

}  // namespace rnnsearch::text
