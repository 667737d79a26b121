#include "text/whitespace.h"

#include <array>
#include <bitset>
#include <string>

#include "text/unicode.h"
#include "util/utf8.h"

namespace rnnsearch::text {
namespace {

// Whitespace in the BMP, and the UTF-8 lead bytes that can start it; built once from
// text::is_white_space so ICU stays the one source of Unicode data.
struct SpaceTables {
  std::bitset<0x10000> bmp;
  std::array<bool, 256> lead{};

  SpaceTables() {
    for (char32_t cp = 0; cp < 0x10000; ++cp) {
      if (cp >= 0xD800 && cp < 0xE000) continue;
      if (!is_white_space(cp)) continue;
      bmp.set(cp);
      std::string utf8;
      util::append_utf8(utf8, cp);
      lead[static_cast<unsigned char>(utf8[0])] = true;
    }
    // Nothing outside the BMP is whitespace today; still check 4-byte sequences, so a
    // future Unicode version cannot slip through.
    for (int c = 0xF0; c <= 0xF4; ++c) lead[c] = true;
  }
};

const SpaceTables& space_tables() {
  static const SpaceTables tables;
  return tables;
}

}  // namespace

bool is_space(char32_t cp) { return cp < 0x10000 ? space_tables().bmp.test(cp) : is_white_space(cp); }

bool may_start_space(unsigned char lead) { return space_tables().lead[lead]; }

std::size_t white_space_length(std::string_view s, std::size_t i) {
  const unsigned char c = static_cast<unsigned char>(s[i]);
  if (c < 0x80) return is_ascii_space(c) ? 1 : 0;
  if (!may_start_space(c)) return 0;
  std::size_t j = i;
  const char32_t cp = util::next_code_point(s, j);
  return is_space(cp) ? j - i : 0;
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
