#pragma once
// Clipped word n-gram matching for one segment at a time, without building strings:
// tokens get per-segment ids, an n-gram (n <= 4) of 16-bit ids packs into one 64-bit
// key, and counting is sorting. Exact: keys are injective within a segment (ids start
// at 1, so n-grams of different orders never share a key). Segments with more than
// 65535 distinct tokens take a slower exact path.
#include <cstdint>
#include <map>
#include <string_view>
#include <vector>

#include "eval/segment_vocabulary.h"

namespace rnnsearch::eval {

class NgramCounter {
 public:
  static constexpr int kMaxOrder = 4;

  explicit NgramCounter(int max_order);

  // Forgets the previous segment's references and vocabulary.
  void begin_segment();
  // Adds one reference; counts merge across references by maximum (BLEU clipping).
  // The token views must stay valid until the segment ends.
  void add_reference(const std::vector<std::string_view>& tokens);
  // Adds the hypothesis's n-gram totals and clipped matches per order (index n-1).
  void match_hypothesis(const std::vector<std::string_view>& tokens, double* correct, double* total);

 private:
  struct Counted {
    std::uint64_t key;
    std::uint32_t count;
  };
  using LongCounts = std::map<std::vector<std::uint32_t>, std::uint32_t>;

  void ids_of(const std::vector<std::string_view>& tokens);
  bool ids_fit_16_bits() const { return vocabulary_.size() <= 0xFFFF; }
  // Sorted (key, count) runs of all n-grams of ids_, orders 1..max_order_.
  void count_ngrams(std::vector<Counted>& out);
  void count_long_ngrams(LongCounts& out) const;
  void switch_to_long_keys();
  int order_of(std::uint64_t key) const;

  int max_order_;
  SegmentVocabulary vocabulary_;
  // Ids of every reference so far, flat, with start offsets: kept to rebuild long keys.
  std::vector<std::uint32_t> reference_ids_;
  std::vector<std::size_t> reference_starts_;
  std::vector<std::uint32_t> ids_;
  std::vector<std::uint64_t> keys_;
  std::vector<Counted> scratch_;
  std::vector<Counted> merged_;
  std::vector<Counted> reference_counts_;  // sorted by key
  bool long_keys_ = false;
  LongCounts long_reference_counts_;
};

}  // namespace rnnsearch::eval
