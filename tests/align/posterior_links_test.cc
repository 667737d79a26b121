// Links read off a score matrix (align/posterior_links.h): plain thresholding, and
// competitive thresholding against its definition checked cell by cell on random matrices.
#include <boost/test/unit_test.hpp>

#include <random>
#include <utility>
#include <vector>

#include "align/posterior_links.h"

using namespace rnnsearch;

namespace {

// Whether every cell from `from` to `to` (either order) of a row or column is at least t.
bool unbroken(const std::vector<float>& score, int first, int stride, int from, int to, float t) {
  if (from > to) std::swap(from, to);
  for (int k = from; k <= to; ++k) {
    if (score[static_cast<std::size_t>(first + k * stride)] < t) return false;
  }
  return true;
}

// The first best cell of `count` cells at first, first + stride, ...
int best_of(const std::vector<float>& score, int first, int stride, int count) {
  int best = 0;
  for (int k = 1; k < count; ++k) {
    if (score[static_cast<std::size_t>(first + k * stride)] > score[static_cast<std::size_t>(first + best * stride)]) best = k;
  }
  return best;
}

// The definition: (i, j) is a link when its score reaches t and, with competition, the cells
// between it and its row's best and between it and its column's best all reach t too.
data::Alignment links_by_definition(const std::vector<float>& score, int rows, int columns, float t, bool competitive) {
  data::Alignment links;
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < columns; ++j) {
      if (score[static_cast<std::size_t>(i * columns + j)] < t) continue;
      if (competitive && (!unbroken(score, i * columns, 1, j, best_of(score, i * columns, 1, columns), t) ||
                          !unbroken(score, j, columns, i, best_of(score, j, columns, rows), t))) {
        continue;
      }
      links.push_back({i, j});
    }
  }
  return links;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(posterior_links)

BOOST_AUTO_TEST_CASE(competition_keeps_the_unbroken_run_around_each_words_best_link) {
  // Source word 0's row: 0.9 0.2 0.6 — the 0.6 is cut off from the best by the 0.2.
  // Column 1: 0.2 0.7 0.5 — both 0.7 and the adjacent 0.5 stay.
  const std::vector<float> score = {0.9F, 0.2F, 0.6F,  //
                                    0.1F, 0.7F, 0.1F,  //
                                    0.1F, 0.5F, 0.1F};
  BOOST_TEST(data::format_pharaoh(align::posterior_links(score, 3, 3, 0.4F, false)) == "0-0 0-2 1-1 2-1");
  BOOST_TEST(data::format_pharaoh(align::posterior_links(score, 3, 3, 0.4F, true)) == "0-0 1-1 2-1");
  BOOST_TEST(data::format_pharaoh(align::posterior_links(score, 3, 3, 0.95F, true)) == "");
}

BOOST_AUTO_TEST_CASE(random_matrices_give_the_links_of_the_definition) {
  std::mt19937 random(5);
  std::uniform_real_distribution<float> uniform(0.0F, 1.0F);
  for (int trial = 0; trial < 300; ++trial) {
    const int rows = 1 + trial % 7, columns = 1 + (trial / 7) % 6;
    std::vector<float> score(static_cast<std::size_t>(rows * columns));
    // Coarse values, so that ties for the best occur.
    for (float& s : score) s = static_cast<float>(static_cast<int>(uniform(random) * 5.0F)) / 4.0F;
    for (const float t : {0.2F, 0.5F, 0.75F}) {
      for (const bool competitive : {false, true}) {
        BOOST_TEST(data::format_pharaoh(align::posterior_links(score, rows, columns, t, competitive)) ==
                       data::format_pharaoh(links_by_definition(score, rows, columns, t, competitive)),
                   "trial " << trial << ", threshold " << t << ", competitive " << competitive);
      }
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
