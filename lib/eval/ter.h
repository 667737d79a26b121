#pragma once
// Translation edit rate (Snover et al. 2006) exactly as sacreBLEU 2.6.0 computes it:
//   TER = 100 * sum_i min_r edits(h_i, r) / sum_i mean_r |r|
// over tercom-preprocessed words (eval/ter_normalizer.h), with edits as in
// eval/ter_alignment.h. An empty total reference length gives 100 when there are
// edits, else 0. Lower is better.
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "eval/metric.h"
#include "eval/ter_normalizer.h"  // TerOptions

namespace rnnsearch::eval {

class Ter : public Metric {
 public:
  // Preprocesses the references once. Empty references are dropped per segment; a
  // segment left without any throws util::Error.
  Ter(const ReferenceSet& references, TerOptions options);

  // Row: [num_edits (best over the references), mean reference length in words].
  StatsMatrix segment_stats(const std::vector<std::string>& hypotheses) const override;
  Score score_from_stats(const double* stats) const override;
  // {case: lc|mixed, tok: tercom, norm, punct, asian: yes|no}.
  SignatureFields signature_fields() const override;
  std::vector<std::pair<std::string, std::string>> short_names() const override;
  int num_refs() const override { return num_refs_; }
  bool higher_is_better() const override { return false; }

  static constexpr std::size_t kWidth = 2;

 private:
  // Word ids of preprocessed text; words absent from every reference get kUnknown.
  void word_ids(const std::string& text, std::vector<std::int32_t>& ids) const;

  static constexpr std::int32_t kUnknown = -1;

  TerOptions options_;
  std::unordered_map<std::string, std::int32_t> vocabulary_;  // reference words
  // Reference k of segment i is ref_words_[segment_begin_[i] + k], for k below
  // segment_begin_[i + 1] - segment_begin_[i].
  std::vector<std::vector<std::int32_t>> ref_words_;
  std::vector<std::size_t> segment_begin_;
  int num_refs_ = 0;
};

}  // namespace rnnsearch::eval
