#include "eval/ter.h"

#include <cstdint>
#include <string_view>

#include "eval/reference_lines.h"
#include "eval/segment_vocabulary.h"
#include "eval/ter_alignment.h"
#include "text/whitespace.h"
#include "util/error.h"

namespace rnnsearch::eval {
namespace {

// sacreBLEU's TER._preprocess_segment: tokenizer(segment.rstrip()). The rstrip
// matters with normalization: "it's\t" becomes "it 's", while the tokenizer alone
// keeps "it's" (the tab stops the possessive rule, which wants "'s ").
std::string preprocess(const std::string& segment, const TerOptions& options) {
  return tercom_normalize(text::rstrip(segment), options);
}

const char* yes_no(bool value) { return value ? "yes" : "no"; }

// Calls f(word) for each word of preprocessed text (words are separated by one space).
template <typename F>
void for_each_word(std::string_view joined, F&& f) {
  std::size_t start = 0;
  while (start < joined.size()) {
    std::size_t end = joined.find(' ', start);
    if (end == std::string_view::npos) end = joined.size();
    f(joined.substr(start, end - start));
    start = end + 1;
  }
}

}  // namespace

Ter::Ter(const ReferenceSet& references, TerOptions options) : options_(options) {
  const SegmentReferences refs = collect_segment_references(references);
  num_refs_ = refs.num_refs;
  segment_begin_.reserve(refs.per_segment.size() + 1);
  segment_begin_.push_back(0);
  ref_begin_.push_back(0);
  for (const auto& segment : refs.per_segment) {
    for (const std::string* line : segment) {
      ref_text_ += preprocess(*line, options_);
      ref_begin_.push_back(ref_text_.size());
    }
    segment_begin_.push_back(ref_begin_.size() - 1);
  }
}

void Ter::compute_rows(const std::vector<std::string>& hypotheses, std::size_t begin, std::size_t end,
                       StatsMatrix& stats) const {
  TerAligner aligner;
  SegmentVocabulary vocabulary;
  std::vector<std::uint32_t> hyp;
  std::vector<std::vector<std::uint32_t>> refs;
  const std::string_view all_refs(ref_text_);
  for (std::size_t i = begin; i < end; ++i) {
    const std::size_t first = segment_begin_[i];
    const std::size_t count = segment_begin_[i + 1] - first;
    const std::string hyp_text = preprocess(hypotheses[i], options_);
    vocabulary.clear();
    if (refs.size() < count) refs.resize(count);
    for (std::size_t k = 0; k < count; ++k) {
      const std::size_t r = first + k;
      refs[k].clear();
      for_each_word(all_refs.substr(ref_begin_[r], ref_begin_[r + 1] - ref_begin_[r]),
                    [&](std::string_view word) { refs[k].push_back(vocabulary.id(word)); });
    }
    hyp.clear();
    for_each_word(hyp_text, [&](std::string_view word) { hyp.push_back(vocabulary.id(word)); });

    // sacreBLEU starts the minimum at int(1e16) and sums integer reference lengths
    // before one division.
    long long best_edits = 10000000000000000LL;
    long long ref_lengths = 0;
    for (std::size_t k = 0; k < count; ++k) {
      const long long edits = aligner.edits(hyp, refs[k]);
      ref_lengths += static_cast<long long>(refs[k].size());
      if (edits < best_edits) best_edits = edits;
    }
    double* row = stats.row(i);
    row[0] = static_cast<double>(best_edits);
    row[1] = static_cast<double>(ref_lengths) / static_cast<double>(count);
  }
}

Score Ter::score_from_stats(const double* stats) const {
  const double edits = stats[0];
  const double ref_length = stats[1];
  double rate;
  if (ref_length > 0) {
    rate = edits / ref_length;
  } else if (edits > 0) {
    rate = 1.0;  // empty reference(s), non-empty hypothesis
  } else {
    rate = 0.0;  // both empty
  }
  Score score;
  score.name = "TER";
  score.score = 100 * rate;
  return score;
}

SignatureFields Ter::signature_fields() const {
  return {
      {"case", options_.case_sensitive ? "mixed" : "lc"},
      {"tok", "tercom"},
      {"norm", yes_no(options_.normalized)},
      {"punct", yes_no(!options_.no_punct)},
      {"asian", yes_no(options_.asian_support)},
  };
}

std::vector<std::pair<std::string, std::string>> Ter::short_names() const {
  return {{"case", "c"}, {"tok", "t"}, {"norm", "nr"}, {"punct", "pn"}, {"asian", "as"}};
}

}  // namespace rnnsearch::eval
