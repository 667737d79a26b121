#include "eval/reference_lines.h"

#include "util/error.h"

namespace rnnsearch::eval {

SegmentReferences collect_segment_references(const ReferenceSet& references) {
  if (references.empty()) throw util::Error("no reference streams: every segment needs a reference");
  const std::size_t segments = references.front().size();
  for (std::size_t r = 1; r < references.size(); ++r) {
    if (references[r].size() != segments) {
      throw util::Error("reference stream " + std::to_string(r + 1) + " has " +
                        std::to_string(references[r].size()) + " segments, reference stream 1 has " +
                        std::to_string(segments));
    }
  }
  SegmentReferences out;
  out.num_refs = static_cast<int>(references.size());
  out.per_segment.resize(segments);
  for (std::size_t i = 0; i < segments; ++i) {
    for (const auto& stream : references) out.per_segment[i].push_back(&stream[i]);
  }
  return out;
}

}  // namespace rnnsearch::eval
