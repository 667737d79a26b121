#pragma once
// Links read off a matrix of link scores (posteriors, or a combination of two directions'):
// every word pair whose score reaches a threshold, optionally thinned by competitive
// thresholding (DeNero and Klein 2007): in each source word's row, and again in each target
// word's column, only the unbroken run of cells at or above the threshold that holds the
// row's (column's) best cell is kept. A link survives when both its row and its column keep
// it, so a word's links are one contiguous block around its best one.
#include <vector>

#include "data/alignment.h"

namespace rnnsearch::align {

// score[i * columns + j] for source word i (of `rows`) and target word j; the links sorted
// (source, target). Ties for a row's or column's best go to the first.
data::Alignment posterior_links(const std::vector<float>& score, int rows, int columns, float threshold,
                                bool competitive);

}  // namespace rnnsearch::align
