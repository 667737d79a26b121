#include "eval/ngram_keys.h"

#include <algorithm>

#include "util/error.h"

namespace rnnsearch::eval {

NgramCounter::NgramCounter(int max_order) : max_order_(max_order) {
  if (max_order < 1 || max_order > kMaxOrder) {
    throw util::UsageError("n-gram order must be in [1, 4], got " + std::to_string(max_order));
  }
}

void NgramCounter::begin_segment() {
  vocabulary_.clear();
  reference_counts_.clear();
  reference_ids_.clear();
  reference_starts_.clear();
  long_keys_ = false;
  long_reference_counts_.clear();
}

void NgramCounter::ids_of(const std::vector<std::string_view>& tokens) {
  ids_.resize(tokens.size());
  for (std::size_t i = 0; i < tokens.size(); ++i) ids_[i] = vocabulary_.id(tokens[i]);
}

int NgramCounter::order_of(std::uint64_t key) const {
  int n = 0;
  for (; key; key <<= 16) ++n;
  return n;
}

void NgramCounter::count_ngrams(std::vector<Counted>& out) {
  out.clear();
  keys_.clear();
  const std::size_t len = ids_.size();
  for (std::size_t i = 0; i < len; ++i) {
    std::uint64_t key = 0;
    for (int n = 1; n <= max_order_ && i + n <= len; ++n) {
      key |= static_cast<std::uint64_t>(ids_[i + n - 1]) << (64 - 16 * n);
      keys_.push_back(key);
    }
  }
  std::sort(keys_.begin(), keys_.end());
  for (std::size_t i = 0; i < keys_.size();) {
    std::size_t j = i + 1;
    while (j < keys_.size() && keys_[j] == keys_[i]) ++j;
    out.push_back({keys_[i], static_cast<std::uint32_t>(j - i)});
    i = j;
  }
}

void NgramCounter::count_long_ngrams(LongCounts& out) const {
  out.clear();
  const std::size_t len = ids_.size();
  for (std::size_t i = 0; i < len; ++i) {
    for (int n = 1; n <= max_order_ && i + n <= len; ++n) {
      ++out[std::vector<std::uint32_t>(ids_.begin() + i, ids_.begin() + i + n)];
    }
  }
}

void NgramCounter::switch_to_long_keys() {
  long_keys_ = true;
  long_reference_counts_.clear();
  const auto saved = ids_;
  LongCounts one;
  for (std::size_t r = 0; r < reference_starts_.size(); ++r) {
    const std::size_t end = r + 1 < reference_starts_.size() ? reference_starts_[r + 1] : reference_ids_.size();
    ids_.assign(reference_ids_.begin() + reference_starts_[r], reference_ids_.begin() + end);
    count_long_ngrams(one);
    for (const auto& [ngram, count] : one) {
      auto& have = long_reference_counts_[ngram];
      have = std::max(have, count);
    }
  }
  ids_ = saved;
}

void NgramCounter::add_reference(const std::vector<std::string_view>& tokens) {
  ids_of(tokens);
  reference_starts_.push_back(reference_ids_.size());
  reference_ids_.insert(reference_ids_.end(), ids_.begin(), ids_.end());
  if (!long_keys_ && !ids_fit_16_bits()) {
    switch_to_long_keys();
    return;
  }
  if (long_keys_) {
    LongCounts one;
    count_long_ngrams(one);
    for (const auto& [ngram, count] : one) {
      auto& have = long_reference_counts_[ngram];
      have = std::max(have, count);
    }
    return;
  }
  if (reference_counts_.empty()) {
    count_ngrams(reference_counts_);
    return;
  }
  count_ngrams(scratch_);
  merged_.clear();
  const auto& have = reference_counts_;
  std::size_t a = 0, b = 0;
  while (a < have.size() || b < scratch_.size()) {
    if (b == scratch_.size() || (a < have.size() && have[a].key < scratch_[b].key)) {
      merged_.push_back(have[a++]);
    } else if (a == have.size() || scratch_[b].key < have[a].key) {
      merged_.push_back(scratch_[b++]);
    } else {
      merged_.push_back({have[a].key, std::max(have[a].count, scratch_[b].count)});
      ++a;
      ++b;
    }
  }
  reference_counts_.swap(merged_);
}

void NgramCounter::match_hypothesis(const std::vector<std::string_view>& tokens, double* correct,
                                    double* total) {
  ids_of(tokens);
  const auto len = static_cast<long>(tokens.size());
  for (int n = 1; n <= max_order_; ++n) total[n - 1] += static_cast<double>(std::max(0L, len - n + 1));

  if (!long_keys_ && !ids_fit_16_bits()) switch_to_long_keys();
  if (long_keys_) {
    LongCounts hyp;
    count_long_ngrams(hyp);
    for (const auto& [ngram, count] : hyp) {
      const auto it = long_reference_counts_.find(ngram);
      if (it != long_reference_counts_.end()) correct[ngram.size() - 1] += std::min(count, it->second);
    }
    return;
  }
  count_ngrams(scratch_);
  std::uint64_t matched[kMaxOrder] = {0, 0, 0, 0};
  const auto& ref = reference_counts_;
  std::size_t r = 0;
  for (const Counted& hyp : scratch_) {
    while (r < ref.size() && ref[r].key < hyp.key) ++r;
    if (r < ref.size() && ref[r].key == hyp.key) matched[order_of(hyp.key) - 1] += std::min(hyp.count, ref[r].count);
  }
  for (int n = 1; n <= max_order_; ++n) correct[n - 1] += static_cast<double>(matched[n - 1]);
}

}  // namespace rnnsearch::eval
