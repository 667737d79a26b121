#pragma once
// The project's one window onto ICU: Unicode properties and case mapping.
#include <string>
#include <string_view>

namespace rnnsearch::text {

// Full Unicode lowercasing of UTF-8 text (as Python's str.lower(): special casing
// such as U+0130 and the final sigma included), with an ASCII fast path.
std::string lowercase(std::string_view utf8);

// Unicode general category tests (ICU's tables).
bool is_punctuation(char32_t cp);  // \p{P}: Pc Pd Ps Pe Pi Pf Po
bool is_symbol(char32_t cp);       // \p{S}: Sm Sc Sk So
bool is_number(char32_t cp);       // \p{N}: Nd Nl No
bool is_letter(char32_t cp);       // \p{L}
bool is_white_space(char32_t cp);  // Python's str.isspace() set
// The Unicode version of ICU's property tables, e.g. "15.0".
std::string unicode_version();

// Perl's property classes, for reproducing Moses' scripts.
bool is_currency_symbol(char32_t cp);   // \p{IsSc}: general category Sc
bool is_alphabetic(char32_t cp);        // \p{IsAlpha}: the Alphabetic property
bool is_alphanumeric(char32_t cp);      // \p{IsAlnum}: Alphabetic or Nd
bool is_perl_space(char32_t cp);        // Perl's \s: the White_Space property
bool is_lowercase(char32_t cp);         // \p{IsLower}: the Lowercase property
bool is_lowercase_letter(char32_t cp);  // \p{Ll}: general category Ll
// Perl's lc(): full lowercasing without context (U+0130 becomes i + U+0307, a final
// capital sigma becomes σ, not ς), as Moses' lowercase.perl applies it.
std::string perl_lowercase(std::string_view utf8);

// Accent folding: compatibility decomposition (NFKD), then every combining mark (canonical
// combining class not 0) dropped, as the usual Python recipe does it ("à" -> "a",
// "ﬁ" -> "fi"). Used to give both sides of word-alignment data one spelling.
std::string fold_accents(std::string_view utf8);

}  // namespace rnnsearch::text
