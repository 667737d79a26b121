#include "eval/ngram_matcher.h"

#include <algorithm>

namespace rnnsearch::eval {
namespace {

constexpr std::uint64_t kGolden = 0x9E3779B97F4A7C15ull;

// Ids 0 and 1 stand for every n-gram of the hypothesis (0) or of a reference (1) that
// cannot match: its (n-1)-gram prefix or suffix occurs on one side only.
constexpr std::uint32_t kHypDead = 0;
constexpr std::uint32_t kRefDead = 1;

std::size_t ngrams_in(std::size_t length, int n) {
  const auto order = static_cast<std::size_t>(n);
  return length >= order ? length - order + 1 : 0;
}

// Totals follow from the lengths; matches need the ids.
void count_totals(SymbolSpan hyp, const std::vector<SymbolSpan>& refs, std::size_t orders,
                  std::vector<NgramMatch>& out) {
  for (std::size_t r = 0; r < refs.size(); ++r) {
    for (std::size_t n = 1; n <= orders; ++n) {
      NgramMatch& m = out[r * orders + n - 1];
      m.hyp = ngrams_in(hyp.size, static_cast<int>(n));
      m.ref = ngrams_in(refs[r].size, static_cast<int>(n));
    }
  }
}

}  // namespace

void NgramMatcher::reset_table(std::size_t entries) {
  std::size_t capacity = 16;
  unsigned bits = 4;
  while (capacity < 2 * entries) {
    capacity *= 2;
    ++bits;
  }
  if (table_.size() < capacity) table_.resize(capacity, Slot{0, 0, 0});
  mask_ = capacity - 1;
  shift_ = 64 - bits;
  if (++stamp_ == 0) {
    for (Slot& slot : table_) slot.stamp = 0;
    stamp_ = 1;
  }
}

void NgramMatcher::load(SymbolSpan hyp, const std::vector<SymbolSpan>& refs) {
  symbols_.assign(hyp.data, hyp.data + hyp.size);
  begin_.assign(1, 0);
  begin_.push_back(symbols_.size());
  for (const SymbolSpan& ref : refs) {
    symbols_.insert(symbols_.end(), ref.data, ref.data + ref.size);
    begin_.push_back(symbols_.size());
  }
  const std::size_t total = symbols_.size();
  ids_.resize(total);
  if (counts_.size() < total + 2) {
    counts_.resize(total + 2);
    live_.resize(total + 2);
    was_live_.resize(total + 2);
  }
}

template <bool kFirstOrder>
bool NgramMatcher::match_order(int n, std::size_t hyp_ngrams, std::size_t orders, std::vector<NgramMatch>& out) {
  const std::size_t num_refs = begin_.size() - 2;
  // Locals, not members, in the loops: stores to ids[] could alias them.
  reset_table(symbols_.size());
  const std::uint32_t* const sym = symbols_.data();
  std::uint32_t* const ids = ids_.data();
  Slot* const table = table_.data();
  const std::size_t mask = mask_;
  const unsigned shift = shift_;
  const std::uint32_t stamp = stamp_;
  Counts* const counts = counts_.data();
  std::uint8_t* const live = live_.data();
  const std::uint8_t* const was_live = was_live_.data();
  counts[kHypDead] = counts[kRefDead] = Counts{0, 0};
  std::uint32_t next_id = 2;
  const auto intern = [&](std::uint64_t key) {
    std::size_t i = static_cast<std::size_t>((key * kGolden) >> shift);
    for (;;) {
      Slot& slot = table[i];
      if (slot.stamp != stamp) {
        slot = Slot{key, next_id, stamp};
        counts[next_id] = Counts{0, 0};
        live[next_id] = 0;
        return next_id++;
      }
      if (slot.key == key) return slot.id;
      i = (i + 1) & mask;
    }
  };
  // The id of the order-n n-gram at p from the order n-1 ids, in place: step p reads
  // ids[p + 1] before step p + 1 overwrites it.
  const std::size_t last = static_cast<std::size_t>(n - 1);
  const auto id_at = [&](std::size_t p, std::uint32_t dead) {
    if constexpr (kFirstOrder) {
      (void)dead;
      return intern(sym[p]);
    } else {
      if ((was_live[ids[p]] & was_live[ids[p + 1]]) == 0) return dead;
      return intern((static_cast<std::uint64_t>(ids[p]) << 32) | sym[p + last]);
    }
  };
  for (std::size_t p = 0; p < hyp_ngrams; ++p) {
    const std::uint32_t id = id_at(p, kHypDead);
    ++counts[id].hyp;
    ids[p] = id;
  }
  counts[kHypDead].hyp = 0;

  // The k-th reference occurrence of an id matches when k <= its hypothesis count,
  // so the matches are the sum over ids of min(hyp, ref). Ids seen on both sides
  // stay live for the next order.
  bool any_match = false;
  for (std::size_t r = 0; r < num_refs; ++r) {
    const std::size_t b = begin_[r + 1];
    const std::size_t e = b + ngrams_in(begin_[r + 2] - b, n);
    std::uint64_t matched = 0;
    for (std::size_t p = b; p < e; ++p) {
      const std::uint32_t id = id_at(p, kRefDead);
      Counts& c = counts[id];
      ++c.ref;
      matched += c.ref <= c.hyp;
      live[id] |= static_cast<std::uint8_t>(c.hyp > 0);
      ids[p] = id;
    }
    // The next order starts its ids from zero counts anyway.
    if (r + 1 < num_refs) {
      for (std::size_t p = b; p < e; ++p) counts[ids[p]].ref = 0;
    }
    out[r * orders + last].match = matched;
    any_match = any_match || matched > 0;
  }
  return any_match;
}

void NgramMatcher::match(SymbolSpan hyp, const std::vector<SymbolSpan>& refs, int max_order,
                         std::vector<NgramMatch>& out) {
  const std::size_t num_refs = refs.size();
  const std::size_t orders = max_order > 0 ? static_cast<std::size_t>(max_order) : 0;
  out.assign(num_refs * orders, NgramMatch{});
  if (orders == 0 || num_refs == 0) return;
  count_totals(hyp, refs, orders, out);
  load(hyp, refs);
  for (int n = 1; n <= max_order; ++n) {
    const std::size_t hyp_ngrams = ngrams_in(hyp.size, n);
    if (hyp_ngrams == 0) break;
    const bool any_match = n == 1 ? match_order<true>(n, hyp_ngrams, orders, out)
                                  : match_order<false>(n, hyp_ngrams, orders, out);
    // An (n+1)-gram match implies a match of its n-gram prefix.
    if (!any_match) break;
    live_.swap(was_live_);
  }
}

}  // namespace rnnsearch::eval
