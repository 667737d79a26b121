#include "eval/tokenizer_intl.h"

#include <array>

#include "text/unicode.h"
#include "text/whitespace.h"
#include "util/utf8.h"

// Rules 1 and 2 relate to each other as 13a's rules 2 and 3 do, with \p{P} for
// [.,] and \p{N} for [0-9]; mteval_rules.cc explains the run logic used here.

namespace rnnsearch::eval {
namespace {

enum CharClass : unsigned char { kOther = 0, kNumber = 1, kPunct = 2, kSymbol = 4, kSpace = 8 };

unsigned char classify(char32_t cp) {
  if (text::is_space(cp)) return kSpace;
  if (text::is_punctuation(cp)) return kPunct;
  if (text::is_symbol(cp)) return kSymbol;
  if (text::is_number(cp)) return kNumber;
  return kOther;
}

// Classes of the BMP, built once; other planes go to ICU directly. `words` gives
// TokenWriter::put_words kinds: 0 for ASCII letters and digits, 1 for ASCII
// whitespace, 2 for anything else.
struct ClassTable {
  std::array<unsigned char, 0x10000> bmp{};
  std::array<unsigned char, 256> words{};
  ClassTable() {
    for (char32_t cp = 0; cp < 0x10000; ++cp) bmp[cp] = classify(cp);
    for (int c = 0; c < 256; ++c) {
      words[c] = c >= 0x80 ? 2 : bmp[c] == kSpace ? 1 : (bmp[c] & ~kNumber) == 0 ? 0 : 2;
    }
  }
};

const ClassTable& class_table() {
  static const ClassTable table;
  return table;
}

unsigned char class_of(char32_t cp) { return cp < 0x10000 ? class_table().bmp[cp] : classify(cp); }

// The class of the code point that ends just before text[i] (i > 0).
unsigned char class_before(std::string_view text, std::size_t i) {
  std::size_t k = i - 1;
  while (k > 0 && (static_cast<unsigned char>(text[k]) & 0xC0) == 0x80) --k;
  return class_of(util::next_code_point(text, k));
}

// Writes the run of punctuation starting at text[i]; returns the index after it.
std::size_t put_punctuation(std::string_view text, std::size_t i, TokenWriter& out) {
  const std::size_t n = text.size();
  std::size_t end = i;
  std::size_t count = 0;
  unsigned char next = kOther;
  bool has_next = false;
  while (end < n) {
    std::size_t k = end;
    next = class_of(util::next_code_point(text, k));
    if (next != kPunct) {
      has_next = true;
      break;
    }
    end = k;
    ++count;
  }
  const bool left_non_number = i > 0 && class_before(text, i) != kNumber;
  const bool right_non_number = has_next && next != kNumber;
  if (count == 1) {
    if (left_non_number || right_non_number) {
      out.put_alone(text.substr(i, end - i));
    } else {
      out.put(text.substr(i, end - i));
    }
    return end;
  }
  for (std::size_t k = i; k < end;) {
    const std::size_t len = util::sequence_length(static_cast<unsigned char>(text[k]));
    out.cut();
    out.put(text.substr(k, len));
    k += len;
  }
  const bool rule1_matched_last = (count % 2 == 1) == left_non_number;
  if (right_non_number || rule1_matched_last) out.cut();
  return end;
}

}  // namespace

TokenizerIntl::TokenizerIntl() { class_table(); }

void TokenizerIntl::write(std::string_view line, std::string& out) const {
  TokenWriter writer(out, 2 * line.size());
  const unsigned char* words = class_table().words.data();
  const std::size_t n = line.size();
  std::size_t i = 0;
  while ((i = writer.put_words(line, i, words)) < n) {
    std::size_t k = i;
    const unsigned char cls = class_of(util::next_code_point(line, k));
    if (cls == kSpace) {
      writer.cut();
    } else if (cls == kSymbol) {
      writer.put_alone(line.substr(i, k - i));
    } else if (cls == kPunct) {
      k = put_punctuation(line, i, writer);
    } else {
      writer.put(line.substr(i, k - i));
    }
    i = k;
  }
  writer.finish();
}

}  // namespace rnnsearch::eval
