#include "text/whitespace.h"

#include "text/unicode.h"
#include "util/utf8.h"

namespace rnnsearch::text {
namespace {

bool is_ascii_space(unsigned char c) {
  return c == ' ' || (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x1F);
}

}  // namespace

std::size_t white_space_length(std::string_view s, std::size_t i) {
  const unsigned char c = static_cast<unsigned char>(s[i]);
  if (c < 0x80) return is_ascii_space(c) ? 1 : 0;
  // Every non-ASCII space starts with 0xC2 (U+0085, U+00A0), 0xE1 (U+1680),
  // 0xE2 (U+2000-U+205F) or 0xE3 (U+3000).
  if (c != 0xC2 && c != 0xE1 && c != 0xE2 && c != 0xE3) return 0;
  std::size_t j = i;
  const char32_t cp = util::next_code_point(s, j);
  return is_white_space(cp) ? j - i : 0;
}

std::string_view rstrip(std::string_view s) {
  // Fast path: strip trailing ASCII spaces; done when an ASCII non-space remains last.
  while (!s.empty() && static_cast<unsigned char>(s.back()) < 0x80) {
    if (!is_ascii_space(static_cast<unsigned char>(s.back()))) return s;
    s.remove_suffix(1);
  }
  if (s.empty()) return s;
  // Walk forward remembering where the last non-space character ends, since UTF-8
  // cannot be decoded backwards cheaply without re-synchronising.
  std::size_t keep = 0;
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t ws = white_space_length(s, i);
    if (ws) {
      i += ws;
    } else {
      i += util::sequence_length(static_cast<unsigned char>(s[i]));
      keep = i;
    }
  }
  return s.substr(0, keep);
}

std::string_view strip(std::string_view s) {
  std::size_t start = 0;
  while (start < s.size()) {
    const std::size_t ws = white_space_length(s, start);
    if (!ws) break;
    start += ws;
  }
  return rstrip(s.substr(start));
}

void split_white_space(std::string_view s, std::vector<std::string_view>& tokens) {
  tokens.clear();
  std::size_t i = 0;
  const std::size_t n = s.size();
  while (i < n) {
    std::size_t ws;
    while (i < n && (ws = white_space_length(s, i)) != 0) i += ws;
    if (i >= n) break;
    const std::size_t start = i;
    while (i < n) {
      const unsigned char c = static_cast<unsigned char>(s[i]);
      if (c < 0x80) {
        if (is_ascii_space(c)) break;
        ++i;
      } else {
        if (white_space_length(s, i) != 0) break;
        i += util::sequence_length(c);
      }
    }
    tokens.push_back(s.substr(start, i - start));
  }
}

}  // namespace rnnsearch::text
