#include "align/symmetrize.h"

#include <algorithm>

#include "util/error.h"

namespace rnnsearch::align {

namespace {

// The links of one sentence pair as a grid, with which words are aligned so far.
class Grid {
 public:
  Grid(int sources, int targets)
      : sources_(sources), targets_(targets), cells_(static_cast<std::size_t>(sources) * targets, 0),
        source_aligned_(static_cast<std::size_t>(sources), false),
        target_aligned_(static_cast<std::size_t>(targets), false) {}

  bool has(int i, int j) const {
    return i >= 0 && j >= 0 && i < sources_ && j < targets_ && cells_[index(i, j)] != 0;
  }
  void add(const Link& link) {
    cells_[index(link.source, link.target)] = 1;
    source_aligned_[static_cast<std::size_t>(link.source)] = true;
    target_aligned_[static_cast<std::size_t>(link.target)] = true;
  }
  bool source_aligned(int i) const { return source_aligned_[static_cast<std::size_t>(i)]; }
  bool target_aligned(int j) const { return target_aligned_[static_cast<std::size_t>(j)]; }
  bool has_aligned_neighbour(const Link& link) const {
    for (int di = -1; di <= 1; ++di) {
      for (int dj = -1; dj <= 1; ++dj) {
        if ((di != 0 || dj != 0) && has(link.source + di, link.target + dj)) return true;
      }
    }
    return false;
  }
  Alignment links() const {
    Alignment out;
    for (int i = 0; i < sources_; ++i) {
      for (int j = 0; j < targets_; ++j) {
        if (cells_[index(i, j)]) out.push_back({i, j});
      }
    }
    return out;
  }

 private:
  std::size_t index(int i, int j) const { return static_cast<std::size_t>(i) * targets_ + j; }

  int sources_, targets_;
  std::vector<char> cells_;
  std::vector<bool> source_aligned_, target_aligned_;
};

Alignment intersection(const Alignment& a, const Alignment& b) {
  Alignment out;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

Alignment union_of(const Alignment& a, const Alignment& b) {
  Alignment out;
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
  throw util::UsageError("unknown symmetrization '" + name +
                         "' (intersect, union, grow-diag, grow-diag-final, grow-diag-final-and)");
}

Alignment symmetrize(const Alignment& forward, const Alignment& reverse, Symmetrization heuristic) {
  if (heuristic == Symmetrization::kIntersect) return intersection(forward, reverse);
  const Alignment all = union_of(forward, reverse);
  if (heuristic == Symmetrization::kUnion) return all;

  int sources = 0, targets = 0;
  for (const Link& link : all) {
    sources = std::max(sources, link.source + 1);
    targets = std::max(targets, link.target + 1);
  }
  Grid grid(sources, targets);
  for (const Link& link : intersection(forward, reverse)) grid.add(link);

  // grow-diag: passes over the pending union links until one adds nothing.
  Alignment pending;
  for (const Link& link : all) {
    if (!grid.has(link.source, link.target)) pending.push_back(link);
  }
  for (bool grew = !pending.empty(); grew;) {
    grew = false;
    Alignment still_pending;
    for (const Link& link : pending) {
      const bool one_unaligned = !(grid.source_aligned(link.source) && grid.target_aligned(link.target));
      if (one_unaligned && grid.has_aligned_neighbour(link)) {
        grid.add(link);
        grew = true;
      } else {
        still_pending.push_back(link);
      }
    }
    pending.swap(still_pending);
  }

  // final / final-and: the forward links, then the reverse ones.
  if (heuristic != Symmetrization::kGrowDiag) {
    const bool both_unaligned = heuristic == Symmetrization::kGrowDiagFinalAnd;
    for (const Alignment* side : {&forward, &reverse}) {
      for (const Link& link : *side) {
        if (grid.has(link.source, link.target)) continue;
        const bool source_free = !grid.source_aligned(link.source), target_free = !grid.target_aligned(link.target);
        if (both_unaligned ? (source_free && target_free) : (source_free || target_free)) grid.add(link);
      }
    }
  }
  return grid.links();
}

}  // namespace rnnsearch::align
