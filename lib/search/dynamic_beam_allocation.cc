#include "search/dynamic_beam_allocation.h"

#include <algorithm>
#include <numeric>

namespace rnnsearch::search {

void allocate_beam(const std::vector<int>& banks, int top_bank, std::size_t width, std::vector<std::size_t>& kept) {
  // Each candidate's rank within its bank (0 = the bank's best); the kept are the first
  // `width` by (rank, higher bank first).
  std::vector<std::size_t> seen(static_cast<std::size_t>(top_bank) + 1, 0), rank(banks.size());
  for (std::size_t i = 0; i < banks.size(); ++i) rank[i] = seen[static_cast<std::size_t>(banks[i])]++;
  kept.resize(banks.size());
  std::iota(kept.begin(), kept.end(), std::size_t{0});
  const auto round_robin = [&](std::size_t a, std::size_t b) {
    return rank[a] != rank[b] ? rank[a] < rank[b] : banks[a] > banks[b];
  };
  const std::size_t keep = std::min(width, kept.size());
  std::partial_sort(kept.begin(), kept.begin() + static_cast<std::ptrdiff_t>(keep), kept.end(), round_robin);
  kept.resize(keep);
  std::sort(kept.begin(), kept.end());
}

}  // namespace rnnsearch::search
