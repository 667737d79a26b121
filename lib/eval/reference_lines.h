#pragma once
// The references of each segment, as every sacreBLEU metric collects them: each
// reference stream gives every segment one reference, an empty line included.
// sacreBLEU (metrics/base.py, _cache_references) drops only None references, which its
// command line never produces, so an empty line stays an empty reference: no n-grams,
// length 0 (BLEU's closest length may be 0, TER's mean length counts it, chrF scores it
// 0), and the signature's nrefs is the number of streams, never "var".
#include <string>
#include <vector>

#include "eval/metric.h"

namespace rnnsearch::eval {

struct SegmentReferences {
  std::vector<std::vector<const std::string*>> per_segment;  // refs of segment i, stream order
  int num_refs = 0;                                          // the number of streams
};

// Throws util::Error when there is no reference stream or the streams differ in length.
SegmentReferences collect_segment_references(const ReferenceSet& references);

}  // namespace rnnsearch::eval
