#include "eval/ter.h"

#include <string_view>

#include "eval/reference_lines.h"
#include "eval/ter_alignment.h"
#include "util/error.h"

namespace rnnsearch::eval {
namespace {

// sacreBLEU preprocesses tokenizer(segment.rstrip()); the tokenizer's final split
// at Unicode whitespace already drops trailing whitespace, so rstrip changes nothing.
std::string preprocess(const std::string& segment, const TerOptions& options) {
  return tercom_normalize(segment, options);
}

const char* yes_no(bool value) { return value ? "yes" : "no"; }

// Calls f(word) for each word of preprocessed text (words are separated by one space).
template <typename F>
void for_each_word(const std::string& text, F&& f) {
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    f(std::string_view(text).substr(start, end - start));
    start = end + 1;
  }
}

}  // namespace

Ter::Ter(const ReferenceSet& references, TerOptions options) : options_(options) {
  const SegmentReferences refs = collect_segment_references(references);
  num_refs_ = refs.num_refs;
  segment_begin_.reserve(refs.per_segment.size() + 1);
  segment_begin_.push_back(0);
  std::string word;
  for (const auto& segment : refs.per_segment) {
    for (const std::string* line : segment) {
      std::vector<std::int32_t> ids;
      for_each_word(preprocess(*line, options_), [&](std::string_view w) {
        word.assign(w);
        ids.push_back(vocabulary_.emplace(word, static_cast<std::int32_t>(vocabulary_.size())).first->second);
      });
      ref_words_.push_back(std::move(ids));
    }
    segment_begin_.push_back(ref_words_.size());
  }
}

void Ter::word_ids(const std::string& text, std::vector<std::int32_t>& ids) const {
  ids.clear();
  std::string word;
  for_each_word(text, [&](std::string_view w) {
    word.assign(w);
    const auto it = vocabulary_.find(word);
    ids.push_back(it == vocabulary_.end() ? kUnknown : it->second);
  });
}

StatsMatrix Ter::segment_stats(const std::vector<std::string>& hypotheses) const {
  const std::size_t segments = segment_begin_.size() - 1;
  if (hypotheses.size() != segments) {
    throw util::Error("TER: " + std::to_string(hypotheses.size()) + " hypotheses for " +
                      std::to_string(segments) + " reference segments");
  }
  StatsMatrix stats;
  stats.width = kWidth;
  stats.values.resize(segments * kWidth);
  TerAligner aligner;
  std::vector<std::int32_t> hyp;
  for (std::size_t i = 0; i < segments; ++i) {
    word_ids(preprocess(hypotheses[i], options_), hyp);
    // sacreBLEU starts the minimum at int(1e16) and sums integer reference lengths
    // before one division.
    long long best_edits = 10000000000000000LL;
    long long ref_lengths = 0;
    const std::size_t begin = segment_begin_[i];
    const std::size_t end = segment_begin_[i + 1];
    for (std::size_t r = begin; r < end; ++r) {
      const long long edits = aligner.edits(hyp, ref_words_[r]);
      ref_lengths += static_cast<long long>(ref_words_[r].size());
      if (edits < best_edits) best_edits = edits;
    }
    double* row = stats.row(i);
    row[0] = static_cast<double>(best_edits);
    row[1] = static_cast<double>(ref_lengths) / static_cast<double>(end - begin);
  }
  return stats;
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
