#include "align/aer.h"

#include <algorithm>
#include <iterator>

#include "util/number_format.h"

namespace rnnsearch::align {

namespace {

std::size_t common(const data::Alignment& a, const data::Alignment& b) {
  data::Alignment both;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(both));
  return both.size();
}

}  // namespace

void AlignmentScores::add(const data::Alignment& hypothesis, const data::GoldAlignment& gold) {
  hypothesis_links += hypothesis.size();
  sure_links += gold.sure.size();
  sure_matches += common(hypothesis, gold.sure);
  possible_matches += common(hypothesis, gold.possible);
}

double AlignmentScores::precision() const {
  return hypothesis_links == 0 ? 0.0 : static_cast<double>(possible_matches) / static_cast<double>(hypothesis_links);
}

double AlignmentScores::recall() const {
  return sure_links == 0 ? 0.0 : static_cast<double>(sure_matches) / static_cast<double>(sure_links);
}

double AlignmentScores::aer() const {
  const std::size_t total = hypothesis_links + sure_links;
  if (total == 0) return 1.0;
  return 1.0 - static_cast<double>(sure_matches + possible_matches) / static_cast<double>(total);
}

std::string scores_report(const AlignmentScores& scores) {
  return "precision " + util::fixed(scores.precision(), 4) + "\nrecall " + util::fixed(scores.recall(), 4) +
         "\nAER " + util::fixed(scores.aer(), 4) + "\nlinks " + std::to_string(scores.hypothesis_links) + ", sure " +
         std::to_string(scores.sure_links) + ", matching sure " + std::to_string(scores.sure_matches) +
         ", matching possible " + std::to_string(scores.possible_matches) + "\n";
}

}  // namespace rnnsearch::align
