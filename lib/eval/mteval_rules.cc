#include "eval/mteval_rules.h"
#include "text/whitespace.h"

#include <array>

#include "util/utf8.h"

// Why one pass gives what the four regex passes give.
// Rules 1 and 4 are local: a rule-1 character is always a token, and a '-' right
// after a digit is always one (no rule adds a space between a digit and a '-').
// Rules 2 and 3 interact only inside a run of '.' and ',' of length n, with
// neighbours L before and R after ("non-digit" also when a neighbour is a padding
// space, a rule-1 character or a Chinese character, all spaces by then; a missing
// neighbour of an unpadded line is no match). Rule 2 matches the run's marks
// alternately (a matched mark is consumed and cannot be the \1 of the next match),
// starting with the first iff L is a non-digit; rule 3 then matches every mark
// followed by a space or a non-digit. Hence:
//   n == 1: the mark is a token iff L or R is a non-digit, else it stays attached;
//   n >= 2: every mark is a token; R stays attached to the last mark unless R is a
//           non-digit or rule 2 matched the last mark (n odd and L a non-digit, or
//           n even and L a digit or missing).

namespace rnnsearch::eval {
namespace {

// kPlain and kSpace are TokenWriter::put_words kinds 0 and 1.
enum ByteClass : unsigned char { kPlain, kSpace, kAlone, kDash, kMark, kWide };

// Rule 1's class [\{-\~\[-\` -\&\(-\+\:-\@\/] without the space.
constexpr bool is_rule1(unsigned char c) {
  return (c >= '{' && c <= '~') || (c >= '[' && c <= '`') || (c >= '!' && c <= '&') ||
         (c >= '(' && c <= '+') || (c >= ':' && c <= '@') || c == '/';
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Byte classes: `wide` lead bytes need decoding (possible Unicode whitespace, or
// with `alone` any non-ASCII character); every other non-ASCII byte is plain.
struct ByteTables {
  std::array<ByteClass, 256> latin{};    // 13a
  std::array<ByteClass, 256> chinese{};  // zh

  ByteTables() {
    for (int b = 0; b < 256; ++b) {
      const auto c = static_cast<unsigned char>(b);
      ByteClass cls = kPlain;
      if (c < 0x80) {
        if (text::may_start_space(c)) {
          cls = kSpace;
        } else if (is_rule1(c)) {
          cls = kAlone;
        } else if (c == '-') {
          cls = kDash;
        } else if (c == '.' || c == ',') {
          cls = kMark;
        }
        latin[c] = chinese[c] = cls;
      } else {
        latin[c] = text::may_start_space(c) ? kWide : kPlain;
        chinese[c] = c >= 0xC0 ? kWide : kPlain;
      }
    }
  }
};

const ByteTables& byte_tables() {
  static const ByteTables tables;
  return tables;
}

// Writes the run of '.' and ',' starting at text[i]; returns the index after it.
std::size_t put_marks(std::string_view text, std::size_t i, bool padded, TokenWriter& out) {
  const std::size_t n = text.size();
  std::size_t j = i + 1;
  while (j < n && (text[j] == '.' || text[j] == ',')) ++j;
  const bool left_non_digit = i > 0 ? !is_digit(text[i - 1]) : padded;
  const bool right_non_digit = j < n ? !is_digit(text[j]) : padded;
  const std::size_t len = j - i;
  if (len == 1) {
    if (left_non_digit || right_non_digit) {
      out.put_alone(text.substr(i, 1));
    } else {
      out.put(text[i]);
    }
    return j;
  }
  for (std::size_t k = i; k < j; ++k) {
    out.cut();
    out.put(text[k]);
  }
  const bool rule2_matched_last = (len % 2 == 1) == left_non_digit;
  if (right_non_digit || rule2_matched_last) out.cut();
  return j;
}

}  // namespace

void apply_mteval_rules(std::string_view text, bool padded, bool (*alone)(char32_t),
                        TokenWriter& out) {
  const ByteTables& tables = byte_tables();
  const ByteClass* cls = alone ? tables.chinese.data() : tables.latin.data();
  const std::size_t n = text.size();
  std::size_t i = 0;
  const auto* kinds = reinterpret_cast<const unsigned char*>(cls);
  while ((i = out.put_words(text, i, kinds)) < n) {
    switch (cls[static_cast<unsigned char>(text[i])]) {
      case kPlain:
      case kSpace:  // put_words took these
        break;
      case kAlone:
        out.put_alone(text.substr(i, 1));
        ++i;
        break;
      case kDash:
        if (i > 0 && is_digit(text[i - 1])) {
          out.put_alone(text.substr(i, 1));
        } else {
          out.put('-');
        }
        ++i;
        break;
      case kMark:
        i = put_marks(text, i, padded, out);
        break;
      case kWide: {
        std::size_t k = i;
        const char32_t cp = util::next_code_point(text, k);
        if (text::is_space(cp)) {
          out.cut();
        } else if (alone && alone(cp)) {
          out.put_alone(text.substr(i, k - i));
        } else {
          out.put(text.substr(i, k - i));
        }
        i = k;
        break;
      }
    }
  }
}

}  // namespace rnnsearch::eval
