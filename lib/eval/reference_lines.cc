#include "eval/reference_lines.h"

#include <set>

#include "util/error.h"

namespace rnnsearch::eval {

SegmentReferences collect_segment_references(const ReferenceSet& references) {
  SegmentReferences out;
  const std::size_t segments = references.empty() ? 0 : references.front().size();
  out.per_segment.resize(segments);
  std::set<std::size_t> counts;
  for (std::size_t i = 0; i < segments; ++i) {
    auto& refs = out.per_segment[i];
    for (const auto& stream : references) {
      if (!stream[i].empty()) refs.push_back(&stream[i]);
    }
    if (refs.empty()) {
      throw util::Error("segment " + std::to_string(i + 1) +
                        " has only empty references (every segment needs one non-empty reference)");
    }
    counts.insert(refs.size());
  }
  if (counts.size() == 1) {
    out.num_refs = static_cast<int>(*counts.begin());
  } else {
    out.num_refs = counts.empty() ? static_cast<int>(references.size()) : -1;
  }
  return out;
}

}  // namespace rnnsearch::eval
