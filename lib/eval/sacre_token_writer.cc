#include "eval/sacre_token_writer.h"

#include <array>
#include <cstdint>

#include "text/whitespace.h"
#include "util/utf8.h"

namespace rnnsearch::eval {
namespace {

// put_words kinds per byte: 0 inside a token, 1 for ASCII whitespace (a cut), 2 for a
// lead byte that may start other whitespace (decoded by the caller).
struct WordKinds {
  std::array<unsigned char, 256> kind{};
  WordKinds() {
    for (int c = 0; c < 256; ++c) {
      const auto b = static_cast<unsigned char>(c);
      kind[c] = !text::may_start_space(b) ? 0 : c < 0x80 ? 1 : 2;
    }
  }
};

}  // namespace

void put_python_words(std::string_view s, TokenWriter& out) {
  static const WordKinds kinds;
  const unsigned char* words = kinds.kind.data();
  std::size_t i = 0;
  while ((i = out.put_words(s, i, words)) < s.size()) {
    std::size_t k = i;
    if (text::is_space(util::next_code_point(s, k))) {
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
