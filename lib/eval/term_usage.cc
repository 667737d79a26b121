#include "eval/term_usage.h"

#include <algorithm>
#include <map>
#include <set>

#include "eval/sacre_tokenizers.h"
#include "text/unicode.h"

namespace rnnsearch::eval {
namespace {

using Words = std::vector<std::string>;

// Every position of `words` where `term` starts, in order (overlapping ones included).
std::vector<std::size_t> starts_of(const Words& words, const Words& term) {
  std::vector<std::size_t> starts;
  if (term.empty() || term.size() > words.size()) return starts;
  for (std::size_t i = 0; i + term.size() <= words.size(); ++i) {
    if (std::equal(term.begin(), term.end(), words.begin() + static_cast<std::ptrdiff_t>(i))) starts.push_back(i);
  }
  return starts;
}

// Occurrences that do not overlap, taken left to right.
std::size_t separate_occurrences(const std::vector<std::size_t>& starts, std::size_t length) {
  std::size_t count = 0, free_from = 0;
  for (std::size_t s : starts) {
    if (s < free_from) continue;
    ++count;
    free_from = s + length;
  }
  return count;
}

// The term usage rate's numerator: each distinct term counts as often as it is expected,
// at most as often as it occurs.
std::size_t used_terms(const Words& words, const std::vector<Words>& terms) {
  std::map<Words, std::size_t> expected;
  for (const Words& t : terms) ++expected[t];
  std::size_t used = 0;
  for (const auto& [term, times] : expected) {
    used += std::min(times, separate_occurrences(starts_of(words, term), term.size()));
  }
  return used;
}

// The WMT21 exact match: terms in order, each claiming the first start position still free.
std::size_t exact_matches(const Words& words, const std::vector<Words>& terms) {
  std::set<std::size_t> claimed;
  std::size_t matched = 0;
  for (const Words& term : terms) {
    for (std::size_t s : starts_of(words, term)) {
      if (claimed.insert(s).second) {
        ++matched;
        break;
      }
    }
  }
  return matched;
}

}  // namespace

TermCounts& TermCounts::operator+=(const TermCounts& other) {
  lines += other.lines;
  lines_with_terms += other.lines_with_terms;
  terms += other.terms;
  used += other.used;
  exact_matches += other.exact_matches;
  return *this;
}

TermMatcher::TermMatcher(bool lowercase) : tokenizer_(make_sacre_tokenizer("13a")), lowercase_(lowercase) {}

TermMatcher::~TermMatcher() = default;

std::vector<std::string> TermMatcher::words(std::string_view text) const {
  std::string lowered;
  if (lowercase_) {
    lowered = text::lowercase(text);
    text = lowered;
  }
  std::vector<std::string_view> tokens;
  std::string buffer;
  tokenizer_->tokenize_into(text, tokens, buffer);
  return Words(tokens.begin(), tokens.end());
}

TermCounts TermMatcher::count(std::string_view translation, const std::vector<std::string_view>& terms) const {
  std::vector<Words> expected;
  for (std::string_view t : terms) {
    Words w = words(t);
    if (!w.empty()) expected.push_back(std::move(w));
  }
  TermCounts counts;
  counts.lines = 1;
  if (expected.empty()) return counts;
  const Words hypothesis = words(translation);
  counts.lines_with_terms = 1;
  counts.terms = expected.size();
  counts.used = used_terms(hypothesis, expected);
  counts.exact_matches = exact_matches(hypothesis, expected);
  return counts;
}

}  // namespace rnnsearch::eval
