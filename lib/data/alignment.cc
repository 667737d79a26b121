#include "data/alignment.h"

#include <algorithm>
#include <string_view>
#include <utility>

#include "util/error.h"

namespace rnnsearch::data {

namespace {

constexpr long kMaxIndex = 100000;  // no sentence is this long: a larger index is a broken file

// Parses a non-negative decimal at text[pos..), advancing pos; false when there is none.
bool parse_index(const std::string& text, std::size_t& pos, long& value) {
  const std::size_t start = pos;
  value = 0;
  while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
    value = value * 10 + (text[pos] - '0');
    if (value > kMaxIndex) return false;
    ++pos;
  }
  return pos > start;
}

bool continues(std::string_view piece) { return piece.size() >= 2 && piece.substr(piece.size() - 2) == "@@"; }

template <typename Piece>
std::vector<int> words_of(const std::vector<Piece>& pieces) {
  std::vector<int> words;
  words.reserve(pieces.size());
  int word = 0;
  for (const auto& piece : pieces) {
    words.push_back(word);
    if (!continues(piece)) ++word;
  }
  return words;
}

// Calls add(link, separator) for every pair of the line; separators other than those in
// `allowed` are errors.
template <typename Add>
void parse_pairs(const std::string& text, const std::string& file, std::size_t line, const std::string& allowed,
                 const Add& add) {
  std::size_t pos = 0;
  while (pos < text.size()) {
    if (text[pos] == ' ' || text[pos] == '\t' || text[pos] == '\r') {
      ++pos;
      continue;
    }
    const std::size_t start = pos;
    std::size_t end = text.find_first_of(" \t\r", pos);
    if (end == std::string::npos) end = text.size();
    const std::string pair = text.substr(start, end - start);
    long source = 0, target = 0;
    std::size_t at = 0;
    const bool ok = parse_index(pair, at, source) && at < pair.size() &&
                    allowed.find(pair[at]) != std::string::npos && [&] {
                      const char separator = pair[at++];
                      const bool digits = parse_index(pair, at, target) && at == pair.size();
                      if (digits) add(Link{static_cast<int>(source), static_cast<int>(target)}, separator);
                      return digits;
                    }();
    if (!ok) {
      throw util::Error(file, line,
                        "malformed alignment pair '" + pair + "' (expected " +
                            (allowed.size() > 1 ? "i-j or i?j" : "i-j") + " with 0-based indices)");
    }
    pos = end;
  }
}

}  // namespace

void sort_unique(Alignment& alignment) {
  std::sort(alignment.begin(), alignment.end());
  alignment.erase(std::unique(alignment.begin(), alignment.end()), alignment.end());
}

Alignment inverted(Alignment alignment) {
  for (Link& link : alignment) std::swap(link.source, link.target);
  std::sort(alignment.begin(), alignment.end());
  return alignment;
}

Alignment parse_pharaoh(const std::string& text, const std::string& file, std::size_t line) {
  Alignment alignment;
  parse_pairs(text, file, line, "-", [&](const Link& link, char) { alignment.push_back(link); });
  sort_unique(alignment);
  return alignment;
}

GoldAlignment parse_gold(const std::string& text, const std::string& file, std::size_t line) {
  GoldAlignment gold;
  parse_pairs(text, file, line, "-?", [&](const Link& link, char separator) {
    if (separator == '-') gold.sure.push_back(link);
    gold.possible.push_back(link);
  });
  sort_unique(gold.sure);
  sort_unique(gold.possible);
  return gold;
}

std::vector<int> word_of_piece(const std::vector<std::string>& pieces) { return words_of(pieces); }
std::vector<int> word_of_piece(const std::vector<std::string_view>& pieces) { return words_of(pieces); }

Alignment piece_links(const Alignment& word_links, const std::vector<int>& source_words,
                      const std::vector<int>& target_words) {
  // The pieces of a word are consecutive: spans[w] = [first, last + 1).
  auto spans = [](const std::vector<int>& words) {
    std::vector<std::pair<int, int>> spans(words.empty() ? 0 : static_cast<std::size_t>(words.back()) + 1, {0, 0});
    for (std::size_t k = words.size(); k-- > 0;) {
      auto& span = spans[static_cast<std::size_t>(words[k])];
      if (span.second == 0) span.second = static_cast<int>(k) + 1;
      span.first = static_cast<int>(k);
    }
    return spans;
  };
  const auto source_spans = spans(source_words), target_spans = spans(target_words);
  Alignment links;
  for (const Link& link : word_links) {
    if (link.source < 0 || static_cast<std::size_t>(link.source) >= source_spans.size() || link.target < 0 ||
        static_cast<std::size_t>(link.target) >= target_spans.size()) {
      throw util::Error("piece_links: link " + std::to_string(link.source) + "-" + std::to_string(link.target) +
                        " is outside " + std::to_string(source_spans.size()) + " source and " +
                        std::to_string(target_spans.size()) + " target words");
    }
    const auto [s_begin, s_end] = source_spans[static_cast<std::size_t>(link.source)];
    const auto [t_begin, t_end] = target_spans[static_cast<std::size_t>(link.target)];
    for (int s = s_begin; s < s_end; ++s) {
      for (int t = t_begin; t < t_end; ++t) links.push_back({s, t});
    }
  }
  sort_unique(links);
  return links;
}

std::string format_pharaoh(const Alignment& alignment) {
  std::string text;
  for (const Link& link : alignment) {
    if (!text.empty()) text += ' ';
    text += std::to_string(link.source) + "-" + std::to_string(link.target);
  }
  return text;
}

}  // namespace rnnsearch::data
