#pragma once
// Symmetrization of a forward (source-to-target) and a reverse alignment of the same
// sentence pair, both in source-target order, with the heuristics of Koehn et al. (2003)
// exactly as fast_align's atools computes them (its output is reproduced line for line):
//   intersect, union;
//   grow-diag: start from the intersection; over the union's other links in (source,
//     target) order, repeatedly add each link with an aligned neighbour (8 directions)
//     whose source or target word is still unaligned, each addition visible to the links
//     after it, until a pass adds nothing;
//   grow-diag-final: then add the forward links, then the reverse ones, in (source,
//     target) order, whose source or target word is unaligned;
//   grow-diag-final-and: the same with links whose source and target words are both
//     unaligned.
// and one atools lacks:
//   grow-diag-and: grow-diag adding only links whose source and target words are both
//     still unaligned. This is the "grow-diagonal" of lilt/alignment-scripts
//     (combine_bidirectional_alignments.py), which the published fast_align (10.5%) and
//     GIZA++ (5.9%) AERs on the WPT-2003 English-French test set were computed with.
#include <string>

#include "data/alignment.h"

namespace rnnsearch::align {

enum class Symmetrization { kIntersect, kUnion, kGrowDiag, kGrowDiagFinal, kGrowDiagFinalAnd, kGrowDiagAnd };

// atools' names: "intersect", "union", "grow-diag", "grow-diag-final", "grow-diag-final-and";
// and "grow-diag-and".
// Throws util::UsageError listing them for any other.
Symmetrization parse_symmetrization(const std::string& name);

data::Alignment symmetrize(const data::Alignment& forward, const data::Alignment& reverse, Symmetrization heuristic);

}  // namespace rnnsearch::align
