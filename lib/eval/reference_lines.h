#pragma once
// The non-empty references of each segment, as every sacreBLEU metric collects them:
// empty references are dropped (fewer references for that segment), a segment with
// none is an error, and the number of references is reported as -1 when it varies.
#include <string>
#include <vector>

#include "eval/metric.h"

namespace rnnsearch::eval {

struct SegmentReferences {
  std::vector<std::vector<const std::string*>> per_segment;  // non-empty refs of segment i
  int num_refs = 0;                                          // -1 when segments differ
};

// Throws util::Error naming the first segment (1-based) that has no reference.
SegmentReferences collect_segment_references(const ReferenceSet& references);

}  // namespace rnnsearch::eval
