#pragma once
// How a batch is cut for data-parallel workers: consecutive groups whose largest estimated
// cost (the FLOPs of model/flops.h for the group's padded shape) is as small as it can be.
// Equal target tokens per group left the worker with the longer source sentences about 3%
// behind the other at every update.
#include <cstddef>
#include <vector>

#include "data/parallel_corpus.h"
#include "model/model_options.h"

namespace rnnsearch::train {

// Cuts `indices` (in batch order) into min(parts, indices.size()) consecutive non-empty
// groups minimizing the largest group's cost; among equal maxima the earliest cuts win.
// Depends only on the sentences' lengths and the configuration: every process of a group
// computes the same cut.
std::vector<std::vector<std::size_t>> split_by_cost(const data::ParallelCorpus& corpus,
                                                    const std::vector<std::size_t>& indices, int parts,
                                                    const model::ModelOptions& config);

}  // namespace rnnsearch::train
