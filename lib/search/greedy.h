#pragma once
// Greedy decoding batched over sentences: at every step each unfinished sentence takes
// its most probable word; a sentence ends at </s> or after its length limit.
#include <cstdint>
#include <vector>

#include "model/rnnsearch.h"

namespace rnnsearch::search {

struct GreedyOptions {
  int batch_size = 64;             // sentences decoded together (sorted by length)
  double max_length_ratio = 2.0;   // at most ratio * source length + 10 target tokens
};

// Translations (ids without </s>) of `sources` (ids without </s>), in input order.
// An empty source gives an empty translation.
std::vector<std::vector<std::int32_t>> greedy_translate(model::RnnSearch& model,
                                                        const std::vector<std::vector<std::int32_t>>& sources,
                                                        const GreedyOptions& options = {});

}  // namespace rnnsearch::search
