#pragma once
// Alignment error rate (Och and Ney 2003) of hypothesis links A against gold sure links S
// and possible links P (S included in P), summed over a corpus:
//   precision = |A & P| / |A|,  recall = |A & S| / |S|,
//   AER = 1 - (|A & S| + |A & P|) / (|A| + |S|)
#include <cstddef>
#include <string>

#include "data/alignment.h"

namespace rnnsearch::align {

struct AlignmentScores {
  std::size_t hypothesis_links = 0;  // |A|
  std::size_t sure_links = 0;        // |S|
  std::size_t sure_matches = 0;      // |A & S|
  std::size_t possible_matches = 0;  // |A & P|

  // Adds one sentence pair.
  void add(const data::Alignment& hypothesis, const data::GoldAlignment& gold);
  double precision() const;  // 0 when A is empty
  double recall() const;     // 0 when S is empty
  double aer() const;        // 1 when A and S are both empty
};

// The four lines nmt-align eval prints, each ending in "\n": "precision 0.7500", "recall
// 0.6667", "AER 0.2857" and "links 4, sure 3, matching sure 2, matching possible 3".
std::string scores_report(const AlignmentScores& scores);

}  // namespace rnnsearch::align
