#include "eval/sacre_token_writer.h"

#include <array>
#include <bitset>
#include <cstdint>

#include "text/unicode.h"
#include "util/utf8.h"

namespace rnnsearch::eval {
namespace {

// Python whitespace in the BMP, and the UTF-8 lead bytes that can start it; built
// once from text::is_white_space so ICU stays the one source of Unicode data.
struct SpaceTables {
  std::bitset<0x10000> bmp;
  std::array<bool, 256> lead{};
  // TokenWriter::put_words kinds: 1 for ASCII whitespace, 2 for lead bytes that may
  // start other whitespace, 0 for the rest.
  std::array<unsigned char, 256> words{};

  SpaceTables() {
    for (char32_t cp = 0; cp < 0x10000; ++cp) {
      if (cp >= 0xD800 && cp < 0xE000) continue;
      if (!text::is_white_space(cp)) continue;
      bmp.set(cp);
      std::string utf8;
      util::append_utf8(utf8, cp);
      lead[static_cast<unsigned char>(utf8[0])] = true;
    }
    // Outside the BMP nothing is whitespace today; still let 4-byte sequences be
    // checked, so a future Unicode version cannot slip through.
    for (int c = 0xF0; c <= 0xF4; ++c) lead[c] = true;
    for (int c = 0; c < 256; ++c) words[c] = !lead[c] ? 0 : c < 0x80 ? 1 : 2;
  }
};

const SpaceTables& space_tables() {
  static const SpaceTables tables;
  return tables;
}

}  // namespace

bool is_python_space(char32_t cp) {
  if (cp < 0x10000) return space_tables().bmp.test(cp);
  return text::is_white_space(cp);
}

bool may_start_python_space(unsigned char c) { return space_tables().lead[c]; }

std::size_t wide_python_space_length(std::string_view s, std::size_t i) {
  if (!may_start_python_space(static_cast<unsigned char>(s[i]))) return 0;
  std::size_t k = i;
  const char32_t cp = util::next_code_point(s, k);
  return is_python_space(cp) ? k - i : 0;
}

void split_python(std::string_view s, std::vector<std::string_view>& tokens) {
  const std::size_t n = s.size();
  std::size_t i = 0;
  while (i < n) {
    std::size_t len;
    while (i < n && (len = python_space_length(s, i)) > 0) i += len;
    if (i >= n) break;
    const std::size_t start = i;
    while (i < n && python_space_length(s, i) == 0) {
      i += util::sequence_length(static_cast<unsigned char>(s[i]));
    }
    tokens.emplace_back(s.data() + start, i - start);
  }
}

void put_python_words(std::string_view s, TokenWriter& out) {
  const unsigned char* words = space_tables().words.data();
  std::size_t i = 0;
  while ((i = out.put_words(s, i, words)) < s.size()) {
    std::size_t k = i;
    if (is_python_space(util::next_code_point(s, k))) {
      out.cut();
    } else {
      out.put(s.substr(i, k - i));
    }
    i = k;
  }
}

void split_joined(std::string_view s, std::vector<std::string_view>& tokens) {
  if (s.empty()) return;
  constexpr std::size_t kShort = 4096;
  if (s.size() >= kShort) {  // rare: long lines take the simple loop
    std::size_t start = 0;
    for (std::size_t end; (end = s.find(' ', start)) != std::string_view::npos; start = end + 1) {
      tokens.push_back(s.substr(start, end - start));
    }
    tokens.push_back(s.substr(start));
    return;
  }
  // Branch-free pass (a branch per space mispredicts): note every byte's offset,
  // keep it only at a space.
  std::uint16_t ends[kShort / 2 + 1];
  std::size_t count = 0;
  for (std::size_t j = 0; j < s.size(); ++j) {
    ends[count] = static_cast<std::uint16_t>(j);
    count += s[j] == ' ';
  }
  ends[count++] = static_cast<std::uint16_t>(s.size());
  tokens.reserve(tokens.size() + count);
  std::size_t start = 0;
  for (std::size_t k = 0; k < count; ++k) {
    tokens.emplace_back(s.data() + start, ends[k] - start);
    start = ends[k] + 1u;
  }
}

std::string SpacedTokenizer::tokenize(std::string_view line) const {
  std::string out;
  write(line, out);
  return out;
}

void SpacedTokenizer::tokenize_into(std::string_view line, std::vector<std::string_view>& tokens,
                                    std::string& buffer) const {
  write(line, buffer);
  tokens.clear();
  split_joined(buffer, tokens);
}

}  // namespace rnnsearch::eval
