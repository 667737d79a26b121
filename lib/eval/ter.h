#pragma once
// Translation edit rate (Snover et al. 2006) exactly as sacreBLEU 2.6.0 computes it:
//   TER = 100 * sum_i min_r edits(h_i, r) / sum_i mean_r |r|
// over tercom-preprocessed words (eval/ter_normalizer.h), with edits as in
// eval/ter_alignment.h. An empty total reference length gives 100 when there are
// edits, else 0. Lower is better.
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "eval/metric.h"
#include "eval/ter_normalizer.h"  // TerOptions

namespace rnnsearch::eval {

class Ter : public Metric {
 public:
  // Preprocesses the references once. An empty reference stays one: its edits are the
  // hypothesis length and its length 0 counts in the mean. Throws util::Error when the
  // reference streams differ in length.
  Ter(const ReferenceSet& references, TerOptions options);

  // Row: [num_edits (best over the references), mean reference length in words].
  std::size_t width() const override { return kWidth; }
  std::size_t num_segments() const override { return segment_begin_.size() - 1; }
  Score score_from_stats(const double* stats) const override;
  // {case: lc|mixed, tok: tercom, norm, punct, asian: yes|no}.
  SignatureFields signature_fields() const override;
  std::vector<std::pair<std::string, std::string>> short_names() const override;
  int num_refs() const override { return num_refs_; }
  bool higher_is_better() const override { return false; }

  static constexpr std::size_t kWidth = 2;

 protected:
  void compute_rows(const std::vector<std::string>& hypotheses, std::size_t begin, std::size_t end,
                    StatsMatrix& stats) const override;

 private:
  TerOptions options_;
  // Preprocessed references, concatenated: reference r is
  // ref_text_[ref_begin_[r], ref_begin_[r + 1]); segment i has references
  // segment_begin_[i] .. segment_begin_[i + 1] - 1.
  std::string ref_text_;
  std::vector<std::size_t> ref_begin_;
  std::vector<std::size_t> segment_begin_;
  int num_refs_ = 0;
};

}  // namespace rnnsearch::eval
