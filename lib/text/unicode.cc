#include "text/unicode.h"

#include <unicode/uchar.h>
#include <unicode/locid.h>
#include <unicode/unistr.h>
#include <unicode/ustring.h>

namespace rnnsearch::text {
namespace {

bool has_category(char32_t cp, uint32_t mask) {
  return (U_GET_GC_MASK(static_cast<UChar32>(cp)) & mask) != 0;
}

}  // namespace

std::string lowercase(std::string_view utf8) {
  bool ascii = true;
  for (unsigned char c : utf8) {
    if (c >= 0x80) {
      ascii = false;
      break;
    }
  }
  if (ascii) {
    std::string out(utf8);
    for (char& c : out) {
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    return out;
  }
  icu::UnicodeString u = icu::UnicodeString::fromUTF8(
      icu::StringPiece(utf8.data(), static_cast<int32_t>(utf8.size())));
  u.toLower(icu::Locale::getRoot());
  std::string out;
  u.toUTF8String(out);
  return out;
}

bool is_punctuation(char32_t cp) { return has_category(cp, U_GC_P_MASK); }
bool is_symbol(char32_t cp) { return has_category(cp, U_GC_S_MASK); }
bool is_number(char32_t cp) { return has_category(cp, U_GC_N_MASK); }
bool is_letter(char32_t cp) { return has_category(cp, U_GC_L_MASK); }

bool is_white_space(char32_t cp) {
  // Python's str.isspace(): bidirectional class WS, B or S, or category Zs.
  if (cp == 0x1C || cp == 0x1D || cp == 0x1E || cp == 0x1F) return true;
  const auto bidi = u_charDirection(static_cast<UChar32>(cp));
  return bidi == U_WHITE_SPACE_NEUTRAL || bidi == U_BLOCK_SEPARATOR || bidi == U_SEGMENT_SEPARATOR ||
         has_category(cp, U_GC_ZS_MASK);
}

std::string unicode_version() {
  UVersionInfo v;
  u_getUnicodeVersion(v);
  return std::to_string(v[0]) + "." + std::to_string(v[1]);
}

}  // namespace rnnsearch::text
