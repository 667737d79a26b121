#pragma once
// Clipped word n-gram matching for one segment at a time, without building strings:
// tokens get small per-segment ids, an n-gram (n <= 4) becomes one 128-bit key of its
// ids, and counting is sorting. Exact: keys are injective within a segment.
#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <vector>

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
  __extension__ typedef unsigned __int128 Key;
  struct Counted {
    Key key;
    std::uint32_t count;
  };

  std::uint32_t id_of(std::string_view token);
  void ids_of(const std::vector<std::string_view>& tokens);
  // Sorted (key, count) runs of order-n n-grams of ids_.
  void count_ngrams(int n, std::vector<Counted>& out);

  int max_order_;
  std::unordered_map<std::string_view, std::uint32_t> vocabulary_;
  std::vector<std::uint32_t> ids_;
  std::vector<Key> keys_;
  std::vector<Counted> scratch_;
  std::vector<Counted> merged_;
  std::vector<std::vector<Counted>> reference_counts_;  // per order, sorted by key
};

}  // namespace rnnsearch::eval
