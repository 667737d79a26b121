#include "eval/ngram_keys.h"

#include <algorithm>

#include "util/error.h"

namespace rnnsearch::eval {

NgramCounter::NgramCounter(int max_order) : max_order_(max_order), reference_counts_(max_order) {
  if (max_order < 1 || max_order > kMaxOrder) {
    throw util::UsageError("n-gram order must be in [1, 4], got " + std::to_string(max_order));
  }
  vocabulary_.reserve(256);
}

void NgramCounter::begin_segment() {
  vocabulary_.clear();
  for (auto& counts : reference_counts_) counts.clear();
}

std::uint32_t NgramCounter::id_of(std::string_view token) {
  const auto next = static_cast<std::uint32_t>(vocabulary_.size() + 1);  // ids start at 1
  return vocabulary_.try_emplace(token, next).first->second;
}

void NgramCounter::ids_of(const std::vector<std::string_view>& tokens) {
  ids_.resize(tokens.size());
  for (std::size_t i = 0; i < tokens.size(); ++i) ids_[i] = id_of(tokens[i]);
}

void NgramCounter::count_ngrams(int n, std::vector<Counted>& out) {
  out.clear();
  keys_.clear();
  if (ids_.size() < static_cast<std::size_t>(n)) return;
  const std::size_t count = ids_.size() - n + 1;
  for (std::size_t i = 0; i < count; ++i) {
    Key key = 0;
    for (int k = 0; k < n; ++k) key = (key << 32) | ids_[i + k];
    keys_.push_back(key);
  }
  std::sort(keys_.begin(), keys_.end());
  for (std::size_t i = 0; i < keys_.size();) {
    std::size_t j = i + 1;
    while (j < keys_.size() && keys_[j] == keys_[i]) ++j;
    out.push_back({keys_[i], static_cast<std::uint32_t>(j - i)});
    i = j;
  }
}

void NgramCounter::add_reference(const std::vector<std::string_view>& tokens) {
  ids_of(tokens);
  for (int n = 1; n <= max_order_; ++n) {
    auto& have = reference_counts_[n - 1];
    if (have.empty()) {
      count_ngrams(n, have);
      continue;
    }
    count_ngrams(n, scratch_);
    merged_.clear();
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
    have.swap(merged_);
  }
}

void NgramCounter::match_hypothesis(const std::vector<std::string_view>& tokens, double* correct,
                                    double* total) {
  ids_of(tokens);
  for (int n = 1; n <= max_order_; ++n) {
    count_ngrams(n, scratch_);
    const auto& ref = reference_counts_[n - 1];
    std::size_t r = 0;
    std::uint64_t matched = 0, all = 0;
    for (const Counted& hyp : scratch_) {
      all += hyp.count;
      while (r < ref.size() && ref[r].key < hyp.key) ++r;
      if (r < ref.size() && ref[r].key == hyp.key) matched += std::min(hyp.count, ref[r].count);
    }
    correct[n - 1] += static_cast<double>(matched);
    total[n - 1] += static_cast<double>(all);
  }
}

}  // namespace rnnsearch::eval
