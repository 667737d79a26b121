#pragma once
// A translation table t(f | e) over the word pairs that co-occur in some sentence pair of a
// corpus, in compressed rows: row e (0 the empty word, which co-occurs with every f) holds
// its f ids sorted, each entry's probability and expected count at the same index: 16 bytes
// an entry (a 4-byte id, a float probability, a double count).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace rnnsearch::align {

// One side of a corpus of word-id sentences: sentence k is words[begin[k] .. begin[k + 1]).
// `first_id` is the smallest id the side uses and `types` one past its largest.
struct CorpusSide {
  const std::vector<std::int32_t>* words = nullptr;
  const std::vector<std::size_t>* begin = nullptr;
  std::int32_t first_id = 0;
  std::int32_t types = 0;

  std::size_t sentences() const { return begin->size() - 1; }
  std::size_t length(std::size_t k) const { return (*begin)[k + 1] - (*begin)[k]; }
  const std::int32_t* sentence(std::size_t k) const { return words->data() + (*begin)[k]; }
};

// The probability of an entry that is not in the table (and the least any entry gets).
constexpr float kAbsentProbability = 1e-9F;

class CooccurrenceTable {
 public:
  CooccurrenceTable() = default;
  // The entries of every (e, f) with e a word of `conditioning` and f one of `generated` in the
  // same sentence pair, and (NULL, f) for every f: row e - conditioning.first_id + 1, NULL row 0.
  // Probabilities start at 1, counts at 0. `threads` build rows at once (same table).
  CooccurrenceTable(const CorpusSide& conditioning, const CorpusSide& generated, int threads);

  std::size_t rows() const { return row_begin_.size() - 1; }
  std::size_t size() const { return columns_.size(); }
  // Where (row, f) is, or size() when absent.
  std::size_t find(std::size_t row, std::int32_t f) const;
  float probability(std::size_t at) const { return at < probabilities_.size() ? probabilities_[at] : kAbsentProbability; }
  void set_probability(std::size_t at, float p) { probabilities_[at] = p; }
  void fill(float p) { std::fill(probabilities_.begin(), probabilities_.end(), p); }
  void add(std::size_t at, double count) { counts_[at] += count; }
  // Counts to probabilities, row by row (each at least kAbsentProbability); counts start again
  // at 0. A row without counts keeps its probabilities. With alpha > 0, the variational-Bayes
  // estimate under a symmetric Dirichlet prior over the row's entries (align/digamma.h).
  void normalize(double alpha = 0.0);

  std::size_t row_begin(std::size_t row) const { return row_begin_[row]; }
  std::size_t row_end(std::size_t row) const { return row_begin_[row + 1]; }
  std::int32_t column(std::size_t at) const { return columns_[at]; }

 private:
  std::vector<std::size_t> row_begin_;
  std::vector<std::int32_t> columns_;
  std::vector<float> probabilities_;
  std::vector<double> counts_;
};

}  // namespace rnnsearch::align
