#include "text/unicode.h"

#include <stdexcept>

#include <unicode/uchar.h>
#include <unicode/locid.h>
#include <unicode/normalizer2.h>
#include <unicode/unistr.h>
#include <unicode/ustring.h>

#include "util/utf8.h"

namespace rnnsearch::text {
namespace {

bool has_category(char32_t cp, uint32_t mask) {
  return (U_GET_GC_MASK(static_cast<UChar32>(cp)) & mask) != 0;
}

}  // namespace

std::string lowercase(std::string_view utf8) {
  std::string out(utf8);
  std::size_t i = 0;
  for (; i < out.size() && static_cast<unsigned char>(out[i]) < 0x80; ++i) {
    if (out[i] >= 'A' && out[i] <= 'Z') out[i] = static_cast<char>(out[i] - 'A' + 'a');
  }
  if (i == out.size()) return out;

  // Full lowercasing equals per-code-point simple lowercasing except for U+0130 (one
  // code point becomes two) and U+03A3 (final sigma depends on context): only strings
  // holding one of those take ICU's string-level path.
  out.resize(i);
  for (std::size_t j = i; j < utf8.size();) {
    const char32_t cp = util::next_code_point(utf8, j);
    if (cp == 0x130 || cp == 0x3A3) {
      icu::UnicodeString u = icu::UnicodeString::fromUTF8(
          icu::StringPiece(utf8.data(), static_cast<int32_t>(utf8.size())));
      u.toLower(icu::Locale::getRoot());
      std::string full;
      u.toUTF8String(full);
      return full;
    }
    util::append_utf8(out, static_cast<char32_t>(u_tolower(static_cast<UChar32>(cp))));
  }
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

bool is_currency_symbol(char32_t cp) { return has_category(cp, U_GC_SC_MASK); }

bool is_alphabetic(char32_t cp) {
  return u_hasBinaryProperty(static_cast<UChar32>(cp), UCHAR_ALPHABETIC) != 0;
}

bool is_alphanumeric(char32_t cp) { return is_alphabetic(cp) || has_category(cp, U_GC_ND_MASK); }

bool is_perl_space(char32_t cp) {
  return u_hasBinaryProperty(static_cast<UChar32>(cp), UCHAR_WHITE_SPACE) != 0;
}

bool is_lowercase(char32_t cp) {
  return u_hasBinaryProperty(static_cast<UChar32>(cp), UCHAR_LOWERCASE) != 0;
}

bool is_lowercase_letter(char32_t cp) { return has_category(cp, U_GC_LL_MASK); }

std::string perl_lowercase(std::string_view utf8) {
  // U+0130 is the only code point whose unconditional full lowercase mapping differs
  // from its simple one; Perl ignores the conditional (final sigma, locale) mappings.
  std::string out;
  out.reserve(utf8.size() + 8);
  for (std::size_t i = 0; i < utf8.size();) {
    const unsigned char c = static_cast<unsigned char>(utf8[i]);
    if (c < 0x80) {
      out += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : static_cast<char>(c);
      ++i;
      continue;
    }
    const char32_t cp = util::next_code_point(utf8, i);
    if (cp == 0x130) {
      out += 'i';
      util::append_utf8(out, 0x307);
    } else {
      util::append_utf8(out, static_cast<char32_t>(u_tolower(static_cast<UChar32>(cp))));
    }
  }
  return out;
}

std::string fold_accents(std::string_view utf8) {
  bool ascii = true;
  for (const char c : utf8) ascii = ascii && static_cast<unsigned char>(c) < 0x80;
  if (ascii) return std::string(utf8);
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* nfkd = icu::Normalizer2::getNFKDInstance(status);
  if (U_FAILURE(status)) throw std::runtime_error(std::string("ICU NFKD: ") + u_errorName(status));
  const icu::UnicodeString decomposed =
      nfkd->normalize(icu::UnicodeString::fromUTF8(icu::StringPiece(utf8.data(), static_cast<int32_t>(utf8.size()))),
                      status);
  if (U_FAILURE(status)) throw std::runtime_error(std::string("ICU NFKD: ") + u_errorName(status));
  std::string out;
  out.reserve(utf8.size());
  for (int32_t i = 0; i < decomposed.length();) {
    const UChar32 cp = decomposed.char32At(i);
    i += U16_LENGTH(cp);
    if (u_getCombiningClass(cp) == 0) util::append_utf8(out, static_cast<char32_t>(cp));
  }
  return out;
}

}  // namespace rnnsearch::text
