#include "align/aer.h"

#include <algorithm>
#include <cstdio>
#include <iterator>

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
  const char* const format = "precision %.4f\nrecall %.4f\nAER %.4f\nlinks %zu, sure %zu, matching sure %zu, "
                             "matching possible %zu\n";
  auto print = [&](char* out, std::size_t size) {
    return std::snprintf(out, size, format, scores.precision(), scores.recall(), scores.aer(), scores.hypothesis_links,
                         scores.sure_links, scores.sure_matches, scores.possible_matches);
  };
  std::string report(static_cast<std::size_t>(print(nullptr, 0)), '\0');
  print(report.data(), report.size() + 1);  // the terminating NUL goes to report[size()], which is allowed
  return report;
}

}  // namespace rnnsearch::align
