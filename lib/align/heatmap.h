#pragma once
// An SVG picture of attention matrices, readable in a browser: a colour scale on top (the
// shades of weights 0, 0.5 and 1, <g id="colour-scale">), then for each sentence pair a
// grid with the source tokens across the top, the target tokens down the left side, and
// each cell shaded by its weight (white 0 to black 1, linear, the weight in the cell's
// tooltip).
#include <string>
#include <vector>

#include "math/types.h"

namespace rnnsearch::align {

struct HeatmapPair {
  std::string title;                 // "line 7"
  std::vector<std::string> source;   // column labels (tokens and </s>)
  std::vector<std::string> target;   // row labels
  math::Matrix weights;              // [target x source]
};

std::string attention_svg(const std::vector<HeatmapPair>& pairs);

}  // namespace rnnsearch::align
