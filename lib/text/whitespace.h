#pragma once
// Whitespace as Python's str.split(), str.strip() and str.rstrip() see it (the
// str.isspace() set: ASCII \t \n \v \f \r space, \x1c-\x1f, U+0085, U+00A0, U+1680,
// U+2000-U+200A, U+2028, U+2029, U+202F, U+205F, U+3000). Tools that must agree with
// Python reference implementations (sacreBLEU, subword-nmt) split text through here.
#include <string_view>
#include <vector>

namespace rnnsearch::text {

// ASCII whitespace for Python: \t \n \v \f \r, \x1c-\x1f and ' '.
constexpr bool is_ascii_space(unsigned char c) { return c == ' ' || (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x1F); }
// Python's str.isspace() for one code point (text::is_white_space, cached for the BMP).
bool is_space(char32_t cp);
// True when a UTF-8 sequence starting with byte `lead` can encode whitespace.
bool may_start_space(unsigned char lead);

// Length in bytes of the whitespace character at s[i], or 0 when s[i] starts another
// character. `s` must be valid UTF-8.
std::size_t white_space_length(std::string_view s, std::size_t i);

// str.rstrip() / str.strip() without arguments.
std::string_view rstrip(std::string_view s);
std::string_view strip(std::string_view s);

// str.split() without arguments: runs of whitespace separate tokens, no empty tokens.
// Clears `tokens` first; the views point into `s`.
void split_white_space(std::string_view s, std::vector<std::string_view>& tokens);

}  // namespace rnnsearch::text
