#include "align/cooccurrence_table.h"

#include <algorithm>
#include <cmath>

#include "align/digamma.h"
#include "util/parallel.h"

namespace rnnsearch::align {

namespace {

// sentences_of[begin[r] .. begin[r + 1]): the sentences row r's word occurs in, once each,
// ascending (row r = id - first_id + 1; row 0, NULL, has none).
struct SentencesOfRow {
  std::vector<std::size_t> begin;
  std::vector<std::uint32_t> sentences;

  explicit SentencesOfRow(const CorpusSide& side) {
    const auto rows = static_cast<std::size_t>(side.types - side.first_id) + 1;
    begin.assign(rows + 1, 0);
    std::vector<std::size_t> last(rows, SIZE_MAX);
    const auto visit = [&](const auto& on_first_sight) {
      for (std::size_t k = 0; k < side.sentences(); ++k) {
        const std::int32_t* words = side.sentence(k);
        for (std::size_t i = 0; i < side.length(k); ++i) {
          const auto row = static_cast<std::size_t>(words[i] - side.first_id) + 1;
          if (last[row] != k) on_first_sight(row, k);
          last[row] = k;
        }
      }
    };
    visit([&](std::size_t row, std::size_t) { ++begin[row + 1]; });
    for (std::size_t r = 1; r <= rows; ++r) begin[r] += begin[r - 1];
    sentences.resize(begin.back());
    std::vector<std::size_t> put(begin.begin(), begin.end() - 1);
    std::fill(last.begin(), last.end(), SIZE_MAX);
    visit([&](std::size_t row, std::size_t k) { sentences[put[row]++] = static_cast<std::uint32_t>(k); });
  }
};

}  // namespace

CooccurrenceTable::CooccurrenceTable(const CorpusSide& conditioning, const CorpusSide& generated, int threads) {
  const SentencesOfRow of_row(conditioning);
  const std::size_t rows = of_row.begin.size() - 1;
  const auto generated_types = static_cast<std::size_t>(generated.types);
  // Each worker builds the rows r with r % workers == worker into its own lists; they are
  // then laid out in row order, so the table does not depend on the thread count.
  const int workers = std::max(1, threads);
  std::vector<std::vector<std::int32_t>> columns_of(static_cast<std::size_t>(workers));
  std::vector<std::size_t> row_size(rows, 0);
  util::run_on_threads(workers, [&](int worker) {
    std::vector<std::uint32_t> seen(generated_types, 0);
    auto& out = columns_of[static_cast<std::size_t>(worker)];
    for (std::size_t r = static_cast<std::size_t>(worker); r < rows; r += static_cast<std::size_t>(workers)) {
      const std::size_t at = out.size();
      const auto stamp = static_cast<std::uint32_t>(r + 1);
      const auto take = [&](std::size_t k) {
        const std::int32_t* words = generated.sentence(k);
        for (std::size_t j = 0; j < generated.length(k); ++j) {
          auto& mark = seen[static_cast<std::size_t>(words[j])];
          if (mark == stamp) continue;
          mark = stamp;
          out.push_back(words[j]);
        }
      };
      if (r == 0) {
        for (std::size_t k = 0; k < generated.sentences(); ++k) take(k);
      } else {
        for (std::size_t p = of_row.begin[r]; p < of_row.begin[r + 1]; ++p) take(of_row.sentences[p]);
      }
      std::sort(out.begin() + static_cast<std::ptrdiff_t>(at), out.end());
      row_size[r] = out.size() - at;
    }
  });
  row_begin_.assign(rows + 1, 0);
  for (std::size_t r = 0; r < rows; ++r) row_begin_[r + 1] = row_begin_[r] + row_size[r];
  columns_.resize(row_begin_.back());
  std::vector<std::size_t> read(static_cast<std::size_t>(workers), 0);
  for (std::size_t r = 0; r < rows; ++r) {
    const auto worker = r % static_cast<std::size_t>(workers);
    const auto& from = columns_of[worker];
    std::copy_n(from.begin() + static_cast<std::ptrdiff_t>(read[worker]), row_size[r],
                columns_.begin() + static_cast<std::ptrdiff_t>(row_begin_[r]));
    read[worker] += row_size[r];
  }
  probabilities_.assign(columns_.size(), 1.0F);
  counts_.assign(columns_.size(), 0.0);
}

std::size_t CooccurrenceTable::find(std::size_t row, std::int32_t f) const {
  if (row + 1 >= row_begin_.size()) return size();
  const auto begin = columns_.begin() + static_cast<std::ptrdiff_t>(row_begin_[row]);
  const auto end = columns_.begin() + static_cast<std::ptrdiff_t>(row_begin_[row + 1]);
  const auto at = std::lower_bound(begin, end, f);
  return at != end && *at == f ? static_cast<std::size_t>(at - columns_.begin()) : size();
}

void CooccurrenceTable::normalize(double alpha) {
  for (std::size_t r = 0; r + 1 < row_begin_.size(); ++r) {
    double total = 0.0;
    for (std::size_t at = row_begin_[r]; at < row_begin_[r + 1]; ++at) total += counts_[at];
    if (total > 0.0 && alpha > 0.0) {
      const double entries = static_cast<double>(row_begin_[r + 1] - row_begin_[r]);
      const double digamma_total = digamma(total + alpha * entries);
      for (std::size_t at = row_begin_[r]; at < row_begin_[r + 1]; ++at) {
        const double p = std::exp(digamma(counts_[at] + alpha) - digamma_total);
        probabilities_[at] = std::max(kAbsentProbability, static_cast<float>(p));
      }
    } else if (total > 0.0) {
      for (std::size_t at = row_begin_[r]; at < row_begin_[r + 1]; ++at) {
        probabilities_[at] = std::max(kAbsentProbability, static_cast<float>(counts_[at] / total));
      }
    }
    std::fill(counts_.begin() + static_cast<std::ptrdiff_t>(row_begin_[r]),
              counts_.begin() + static_cast<std::ptrdiff_t>(row_begin_[r + 1]), 0.0);
  }
}

}  // namespace rnnsearch::align
