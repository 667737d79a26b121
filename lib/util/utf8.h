#pragma once
// UTF-8 encoding and decoding without ICU, for hot loops over already-validated text.
#include <cstddef>
#include <string>
#include <string_view>

namespace rnnsearch::util {

// Byte offset of the first invalid UTF-8 sequence in `s` (overlong forms, surrogates
// and code points above U+10FFFF are invalid, as in Python's strict decoder), or
// std::string_view::npos when `s` is valid.
std::size_t find_invalid_utf8(std::string_view s);

// `s` with every maximal invalid subsequence replaced by U+FFFD, as Python's
// bytes.decode("utf-8", "replace") does.
std::string replace_invalid_utf8(std::string_view s);

// Decodes the code point starting at s[i] and advances i past it. `s` must be valid.
inline char32_t next_code_point(std::string_view s, std::size_t& i) {
  const unsigned char c = static_cast<unsigned char>(s[i]);
  if (c < 0x80) {
    ++i;
    return c;
  }
  if (c < 0xE0) {
    char32_t cp = ((c & 0x1Fu) << 6) | (static_cast<unsigned char>(s[i + 1]) & 0x3Fu);
    i += 2;
    return cp;
  }
  if (c < 0xF0) {
    char32_t cp = ((c & 0x0Fu) << 12) | ((static_cast<unsigned char>(s[i + 1]) & 0x3Fu) << 6) |
                  (static_cast<unsigned char>(s[i + 2]) & 0x3Fu);
    i += 3;
    return cp;
  }
  char32_t cp = ((c & 0x07u) << 18) | ((static_cast<unsigned char>(s[i + 1]) & 0x3Fu) << 12) |
                ((static_cast<unsigned char>(s[i + 2]) & 0x3Fu) << 6) |
                (static_cast<unsigned char>(s[i + 3]) & 0x3Fu);
  i += 4;
  return cp;
}

// Number of bytes of the UTF-8 sequence that starts with lead byte `c`.
inline std::size_t sequence_length(unsigned char c) {
  return c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
}

// Appends the UTF-8 encoding of `cp` to `out`.
void append_utf8(std::string& out, char32_t cp);

std::u32string to_u32(std::string_view s);
std::string to_utf8(std::u32string_view s);

}  // namespace rnnsearch::util
