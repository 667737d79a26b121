#pragma once
// Symmetrization of soft alignments (nmt-align --mode soft of a forward and a reverse
// model) before any link is chosen: the forward model's weights p(source word | target
// word) and the reverse model's p(target word | source word) are averaged, and every word
// pair whose mean reaches a threshold is linked. Where hard symmetrization (align/symmetrize.h)
// can only keep or drop the links each direction chose, this lets two moderately confident
// directions agree on a link that neither would have picked alone.
#include <string>

#include "data/alignment.h"
#include "math/types.h"

namespace rnnsearch::align {

// One line of --mode soft output: rows joined by ' ', weights by ','. Returns [rows x
// columns]; an empty line gives a 0 x 0 matrix. util::Error naming file and line for a bad
// number or rows of different lengths.
math::Matrix parse_soft_rows(const std::string& text, const std::string& file, std::size_t line);

// forward: [target words x source words]; reverse: [source words x target words] (the
// reverse model's rows are the forward source's words). Links (source, target) with
// (forward(t, s) + reverse(s, t)) / 2 >= threshold. util::Error naming file and line when
// the shapes disagree.
data::Alignment combine_soft(const math::Matrix& forward, const math::Matrix& reverse, float threshold,
                             const std::string& file, std::size_t line);

}  // namespace rnnsearch::align
