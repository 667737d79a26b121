#pragma once
// Clipped n-gram matching of one hypothesis against each of its references, for any
// n-gram order and any alphabet of 32-bit symbols (code points, word ids):
//   match_r(n) = sum over distinct n-grams g of min(count_hyp(g), count_ref_r(g)).
// No strings are built: every position gets a per-segment id for the n-gram starting
// there, id_n(p) = intern(id_{n-1}(p), symbol(p + n - 1)), so ids are exact (equal
// ids <=> equal n-grams) and counting is indexing an array by id. An n-gram whose
// (n-1)-gram prefix or suffix occurs on one side only cannot match and is not interned.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace rnnsearch::eval {

// A run of symbols; two symbols compare equal exactly when the units they stand for do.
struct SymbolSpan {
  const std::uint32_t* data = nullptr;
  std::size_t size = 0;
};

// Counts of one order against one reference.
struct NgramMatch {
  std::uint64_t hyp = 0;    // n-grams in the hypothesis
  std::uint64_t ref = 0;    // n-grams in the reference
  std::uint64_t match = 0;  // clipped matches
};

class NgramMatcher {
 public:
  // Fills out[r * max_order + n - 1] for every reference r and order n in [1, max_order].
  // Scratch memory is reused across calls; one matcher per thread.
  void match(SymbolSpan hyp, const std::vector<SymbolSpan>& refs, int max_order,
             std::vector<NgramMatch>& out);

 private:
  struct Slot {
    std::uint64_t key;
    std::uint32_t id;
    std::uint32_t stamp;  // the slot is in use only when stamp == stamp_
  };
  struct Counts {
    std::uint32_t hyp;
    std::uint32_t ref;  // in the reference being matched
  };

  // Starts an empty id table sized for `entries` keys.
  void reset_table(std::size_t entries);
  // Copies the hypothesis and the references into symbols_ and sizes the scratch arrays.
  void load(SymbolSpan hyp, const std::vector<SymbolSpan>& refs);
  // Ids and clipped matches of order n (the ids of order n - 1 in ids_ unless
  // kFirstOrder) into out[r * orders + n - 1].match; true when any reference matched.
  template <bool kFirstOrder>
  bool match_order(int n, std::size_t hyp_ngrams, std::size_t orders, std::vector<NgramMatch>& out);

  std::vector<std::uint32_t> symbols_;  // hyp then every reference, concatenated
  std::vector<std::uint32_t> ids_;      // id of the n-gram starting at each position
  std::vector<std::size_t> begin_;      // sequence s occupies [begin_[s], begin_[s + 1])
  std::vector<Counts> counts_;          // per id of the current order
  std::vector<std::uint8_t> live_;      // per id: occurs in the hypothesis and a reference
  std::vector<std::uint8_t> was_live_;  // live_ of the previous order
  std::vector<Slot> table_;
  std::size_t mask_ = 0;  // the table in use is table_[0 .. mask_]
  unsigned shift_ = 64;
  std::uint32_t stamp_ = 0;
};

}  // namespace rnnsearch::eval
