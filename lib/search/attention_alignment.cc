#include "search/attention_alignment.h"

#include <algorithm>

#include "util/error.h"

namespace rnnsearch::search {

data::Alignment hard_alignment(const std::vector<std::vector<float>>& attention, std::size_t source_tokens,
                               std::size_t target_tokens) {
  if (attention.size() < target_tokens) {
    throw util::Error("attention has " + std::to_string(attention.size()) + " rows for " +
                      std::to_string(target_tokens) + " target tokens");
  }
  data::Alignment alignment;
  if (source_tokens == 0) return alignment;
  for (std::size_t j = 0; j < target_tokens; ++j) {
    const auto& row = attention[j];
    if (row.size() < source_tokens) {
      throw util::Error("attention row " + std::to_string(j) + " has " + std::to_string(row.size()) +
                        " weights for " + std::to_string(source_tokens) + " source tokens");
    }
    const auto best = std::max_element(row.begin(), row.begin() + static_cast<std::ptrdiff_t>(source_tokens));
    alignment.push_back({static_cast<int>(best - row.begin()), static_cast<int>(j)});
  }
  std::sort(alignment.begin(), alignment.end());
  return alignment;
}

}  // namespace rnnsearch::search
