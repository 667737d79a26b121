#pragma once
// Word alignments from attention weights. attention[i] holds the weights of target token
// i over the source tokens and the source </s> (the last column); rows past the target
// tokens (the target </s>) are not used.
#include <cstddef>
#include <vector>

#include "data/alignment.h"

namespace rnnsearch::search {

// Hard alignment: each target token to its most attended source token (the source </s>
// column is left out; ties to the earlier token).
data::Alignment hard_alignment(const std::vector<std::vector<float>>& attention, std::size_t source_tokens,
                               std::size_t target_tokens);

}  // namespace rnnsearch::search
