#include "align/symmetrize.h"

#include <algorithm>
#include <set>
#include <unordered_set>
#include <utility>

#include "util/error.h"

namespace rnnsearch::align {

namespace {

// The links of one sentence pair so far, with which words they align. Sparse: a pair has
// about as many links as words, while the indices (read from a file) may be anything up
// to INT_MAX, so a dense grid of them could take gigabytes for one link "50000-50000".
class Grid {
 public:
  bool has(int i, int j) const { return cells_.count({i, j}) != 0; }
  void add(const data::Link& link) {
    cells_.insert({link.source, link.target});
    source_aligned_.insert(link.source);
    target_aligned_.insert(link.target);
  }
  bool source_aligned(int i) const { return source_aligned_.count(i) != 0; }
  bool target_aligned(int j) const { return target_aligned_.count(j) != 0; }
  bool has_aligned_neighbour(const data::Link& link) const {
    for (int di = -1; di <= 1; ++di) {
      for (int dj = -1; dj <= 1; ++dj) {
        if ((di != 0 || dj != 0) && has(link.source + di, link.target + dj)) return true;
      }
    }
    return false;
  }
  // Source index first, then target index, as the dense grid listed them.
  data::Alignment links() const {
    data::Alignment out;
    for (const auto& [i, j] : cells_) out.push_back({i, j});
    return out;
  }

 private:
  std::set<std::pair<int, int>> cells_;
  std::unordered_set<int> source_aligned_, target_aligned_;
};

data::Alignment intersection(const data::Alignment& a, const data::Alignment& b) {
  data::Alignment out;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

data::Alignment union_of(const data::Alignment& a, const data::Alignment& b) {
  data::Alignment out;
  std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

}  // namespace

Symmetrization parse_symmetrization(const std::string& name) {
  if (name == "intersect") return Symmetrization::kIntersect;
  if (name == "union") return Symmetrization::kUnion;
  if (name == "grow-diag") return Symmetrization::kGrowDiag;
  if (name == "grow-diag-final") return Symmetrization::kGrowDiagFinal;
  if (name == "grow-diag-final-and") return Symmetrization::kGrowDiagFinalAnd;
  if (name == "grow-diag-and") return Symmetrization::kGrowDiagAnd;
  throw util::UsageError("unknown symmetrization '" + name +
                         "' (intersect, union, grow-diag, grow-diag-final, grow-diag-final-and, grow-diag-and)");
}

data::Alignment symmetrize(const data::Alignment& forward, const data::Alignment& reverse, Symmetrization heuristic) {
  if (heuristic == Symmetrization::kIntersect) return intersection(forward, reverse);
  const data::Alignment all = union_of(forward, reverse);
  if (heuristic == Symmetrization::kUnion) return all;

  Grid grid;
  for (const data::Link& link : intersection(forward, reverse)) grid.add(link);

  // grow-diag: passes over the pending union links until one adds nothing.
  const bool grow_needs_both = heuristic == Symmetrization::kGrowDiagAnd;
  data::Alignment pending;
  for (const data::Link& link : all) {
    if (!grid.has(link.source, link.target)) pending.push_back(link);
  }
  for (bool grew = !pending.empty(); grew;) {
    grew = false;
    data::Alignment still_pending;
    for (const data::Link& link : pending) {
      const bool source_free = !grid.source_aligned(link.source), target_free = !grid.target_aligned(link.target);
      const bool may_grow = grow_needs_both ? (source_free && target_free) : (source_free || target_free);
      if (may_grow && grid.has_aligned_neighbour(link)) {
        grid.add(link);
        grew = true;
      } else {
        still_pending.push_back(link);
      }
    }
    pending.swap(still_pending);
  }

  // final / final-and: the forward links, then the reverse ones.
  if (heuristic == Symmetrization::kGrowDiagFinal || heuristic == Symmetrization::kGrowDiagFinalAnd) {
    const bool both_unaligned = heuristic == Symmetrization::kGrowDiagFinalAnd;
    for (const data::Alignment* side : {&forward, &reverse}) {
      for (const data::Link& link : *side) {
        if (grid.has(link.source, link.target)) continue;
        const bool source_free = !grid.source_aligned(link.source), target_free = !grid.target_aligned(link.target);
        if (both_unaligned ? (source_free && target_free) : (source_free || target_free)) grid.add(link);
      }
    }
  }
  return grid.links();
}

}  // namespace rnnsearch::align
