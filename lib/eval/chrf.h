#pragma once
// chrF (Popovic 2015) and chrF++ (Popovic 2017) exactly as sacreBLEU 2.6.0 computes
// them. Per order n (character orders 1..nc, then word orders 1..nw):
//   P_n = matches_n / hyp_ngrams_n,  R_n = matches_n / ref_ngrams_n,
// matches clipped per distinct n-gram. Default (effective order): average P and R over
// the orders where both the hypothesis and the reference have n-grams, then
//   chrF = 100 * (1 + b^2) P R / (b^2 P + R).
// With eps smoothing: the mean over all orders of the per-order F_b, eps = 1e-16
// standing in for an undefined P or R. Characters exclude whitespace unless asked;
// words are whitespace-split with one leading or trailing ASCII punctuation mark split
// off. With several references, each segment keeps the one with the best sentence
// score (the first on ties, so an empty first reference wins when no reference matches).
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "eval/metric.h"
#include "eval/ngram_matcher.h"

namespace rnnsearch::eval {

struct ChrfOptions {
  int char_order = 6;         // character n-gram orders 1..char_order
  int word_order = 0;         // word n-gram orders 1..word_order; 2 gives chrF++
  int beta = 2;               // recall weight
  bool whitespace = false;    // keep whitespace in character n-grams
  bool lowercase = false;     // Python str.lower() on hypotheses and references
  bool eps_smoothing = false;  // chrF++.py / Moses / NLTK smoothing instead of effective order
};

class Chrf : public Metric {
 public:
  // Preprocesses and caches the references; an empty one has no n-grams, so its
  // statistics are all 0 and its score 0. Throws util::Error when the streams differ in
  // length, a line is not valid UTF-8, or an order is negative or both orders are 0.
  Chrf(const ReferenceSet& references, ChrfOptions options);

  // Row: [hyp, ref, match] n-gram counts per order, character orders first, against the
  // segment's best reference; hyp is 0 when the reference has no n-gram of that order.
  // Throws util::Error on a count mismatch or invalid UTF-8.
  // Name "chrF<beta>" plus one '+' per word order.
  Score score_from_stats(const double* stats) const override;
  // case, eff, nc, nw, space.
  SignatureFields signature_fields() const override;
  std::vector<std::pair<std::string, std::string>> short_names() const override;
  int num_refs() const override { return num_refs_; }

  std::size_t width() const override { return 3 * static_cast<std::size_t>(orders_); }
  std::size_t num_segments() const override { return segment_begin_.size() - 1; }

 protected:
  void compute_rows(const std::vector<std::string>& hypotheses, std::size_t begin, std::size_t end,
                    StatsMatrix& stats) const override;

 private:
  // One cached reference: its characters and chrF++ words.
  struct CachedRef {
    std::size_t chars_begin, chars_end;  // in ref_chars_
    std::size_t words_begin, words_end;  // in ref_words_
    std::size_t text_begin;              // in ref_text_
  };
  struct CachedWord {
    std::uint64_t hash;    // SegmentVocabulary::hash
    std::uint32_t offset;  // from the reference's text_begin
    std::uint32_t length;
  };
  // Per-call buffers of segment_stats.
  struct Scratch;

  double f_score(const double* stats) const;
  void segment_row(std::size_t segment, const std::string& hypothesis, Scratch& scratch,
                   double* row) const;

  ChrfOptions options_;
  int orders_ = 0;
  int num_refs_ = 0;
  std::vector<std::uint32_t> ref_chars_;
  std::string ref_text_;  // the preprocessed references, for their words
  std::vector<CachedWord> ref_words_;
  std::vector<CachedRef> refs_;
  std::vector<std::size_t> segment_begin_;  // segment i has refs_[begin_[i] .. begin_[i+1])
};

}  // namespace rnnsearch::eval
