#include "align/posterior_links.h"

#include <cstddef>

namespace rnnsearch::align {

namespace {

// Clears keep[] outside the run of cells >= threshold around the best of the `count` cells
// at first, first + stride, ...
void keep_best_run(const std::vector<float>& score, std::size_t first, std::size_t stride, int count,
                   float threshold, std::vector<char>& keep) {
  const auto at = [&](int k) { return first + static_cast<std::size_t>(k) * stride; };
  int best = 0;
  for (int k = 1; k < count; ++k) {
    if (score[at(k)] > score[at(best)]) best = k;
  }
  int low = best, high = best;
  while (low > 0 && score[at(low - 1)] >= threshold) --low;
  while (high + 1 < count && score[at(high + 1)] >= threshold) ++high;
  for (int k = 0; k < count; ++k) {
    if (k < low || k > high) keep[at(k)] = 0;
  }
}

}  // namespace

data::Alignment posterior_links(const std::vector<float>& score, int rows, int columns, float threshold,
                                bool competitive) {
  const auto width = static_cast<std::size_t>(columns);
  std::vector<char> keep(score.size());
  for (std::size_t c = 0; c < score.size(); ++c) keep[c] = score[c] >= threshold ? 1 : 0;
  if (competitive) {
    for (int i = 0; i < rows; ++i) keep_best_run(score, static_cast<std::size_t>(i) * width, 1, columns, threshold, keep);
    for (int j = 0; j < columns; ++j) keep_best_run(score, static_cast<std::size_t>(j), width, rows, threshold, keep);
  }
  data::Alignment links;
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < columns; ++j) {
      if (keep[static_cast<std::size_t>(i) * width + static_cast<std::size_t>(j)] != 0) links.push_back({i, j});
    }
  }
  return links;
}

}  // namespace rnnsearch::align
