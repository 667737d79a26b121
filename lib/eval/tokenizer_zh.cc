#include "eval/tokenizer_zh.h"

#include "eval/mteval_rules.h"
#include "text/whitespace.h"

namespace rnnsearch::eval {
namespace {

// sacreBLEU's _UCODE_RANGES compares one-character strings with the range ends
// lexicographically. Two entries were meant as U+20000..U+2A6D6 and U+2F800..U+2FA1D
// but are written '\u20000', '\u2a6d6', '\u2f800', '\u2fa1d': Python reads \u plus
// four hex digits, so each end is two characters ("\u2000" "0"), and the entries
// select U+2001..U+2A6D and U+2F81..U+2FA1. The rest are as written. Merged:
struct Range {
  char32_t first, last;
};
constexpr Range kRanges[] = {
    {0x2001, 0x2A6D},  // the slip above; contains U+2600..U+26FF and U+2700..U+27BF
    {0x2E80, 0x2FDF},  // CJK radicals supplement, Kangxi radicals (and U+2F81..U+2FA1)
    {0x2FF0, 0x303F},  // ideographic description characters, CJK symbols and punctuation
    {0x3100, 0x312F},  // Bopomofo
    {0x31A0, 0x31EF},  // Bopomofo extended, CJK strokes
    {0x3200, 0x4DB5},  // enclosed CJK, CJK compatibility, CJK extension A
    {0x4E00, 0x9FBB},  // CJK unified ideographs (Unicode 1.1 and 4.1 parts)
    {0xF900, 0xFA2D},  // CJK compatibility ideographs
    {0xFA30, 0xFA6A},
    {0xFA70, 0xFAD9},
    {0xFE10, 0xFE1F},  // vertical forms
    {0xFE30, 0xFE4F},  // CJK compatibility forms
    {0xFF00, 0xFFEF},  // halfwidth and fullwidth forms
};

// Python's str.strip(): the view without leading and trailing whitespace.
std::string_view strip_python(std::string_view s) {
  std::size_t begin = 0;
  std::size_t len;
  while (begin < s.size() && (len = text::white_space_length(s, begin)) > 0) begin += len;
  std::size_t end = s.size();
  while (end > begin) {
    std::size_t start = end - 1;
    while (start > begin && (static_cast<unsigned char>(s[start]) & 0xC0) == 0x80) --start;
    if (text::white_space_length(s, start) == 0) break;
    end = start;
  }
  return s.substr(begin, end - begin);
}

}  // namespace

bool is_zh_split_char(char32_t cp) {
  if (cp < 0x2001 || cp > 0xFFEF) return false;
  for (const Range& r : kRanges) {
    if (cp < r.first) return false;
    if (cp <= r.last) return true;
  }
  return false;
}

void TokenizerZh::write(std::string_view line, std::string& out) const {
  const std::string_view text = strip_python(line);
  TokenWriter writer(out, 2 * text.size());
  apply_mteval_rules(text, /*padded=*/false, is_zh_split_char, writer);
  writer.finish();
}

}  // namespace rnnsearch::eval
