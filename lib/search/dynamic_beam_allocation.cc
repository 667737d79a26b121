#include "search/dynamic_beam_allocation.h"

#include <algorithm>

namespace rnnsearch::search {

void allocate_beam(const std::vector<int>& banks, int top_bank, std::size_t width, std::vector<std::size_t>& kept) {
  const auto count = static_cast<std::size_t>(top_bank) + 1;
  std::vector<std::size_t> candidates(count, 0), places(count, width / count);
  for (const int b : banks) ++candidates[static_cast<std::size_t>(b)];
  places[count - 1] += width - (width / count) * count;
  for (std::size_t b = count - 1; b > 0; --b) {
    if (places[b] <= candidates[b]) continue;
    places[b - 1] += places[b] - candidates[b];
    places[b] = candidates[b];
  }
  places[0] = std::min(places[0], candidates[0]);
  std::size_t free = width;
  for (const std::size_t p : places) free -= p;
  for (std::size_t b = count; b-- > 0 && free > 0;) {
    const std::size_t more = std::min(free, candidates[b] - places[b]);
    places[b] += more;
    free -= more;
  }
  kept.clear();
  std::vector<std::size_t> taken(count, 0);
  for (std::size_t i = 0; i < banks.size(); ++i) {
    const auto b = static_cast<std::size_t>(banks[i]);
    if (taken[b] == places[b]) continue;
    ++taken[b];
    kept.push_back(i);
  }
}

}  // namespace rnnsearch::search
