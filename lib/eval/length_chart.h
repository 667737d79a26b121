#pragma once
// The scores by source length as an SVG line chart, like Bahdanau et al. 2015, figure 2:
// the score (y, from 0 to the next multiple of 10 above the best) against the length
// bucket (x) with the number of sentences under each bucket, one line with markers per
// system, a legend, a gap at empty buckets.
#include <string>

#include "eval/length_buckets.h"

namespace rnnsearch::eval {

std::string length_chart_svg(const LengthScores& scores, const std::string& metric_name);

}  // namespace rnnsearch::eval
