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

}  // namespace rnnsearch::text
