#include "text/languages.h"

#include <unicode/locid.h>
#include <unicode/unistr.h>

#include <algorithm>

namespace rnnsearch::text {

const std::vector<std::string>& languages_with_rules() {
  static const std::vector<std::string> codes = {"ca", "cs", "de", "en", "fi", "fr",
                                                 "ga", "it", "sv", "xa", "xb"};
  return codes;
}

bool has_rules(const std::string& language) {
  const auto& codes = languages_with_rules();
  return std::binary_search(codes.begin(), codes.end(), language);
}

bool is_generated_language(const std::string& language) { return language == "xa" || language == "xb"; }

std::string unknown_language_warning(const std::string& language, const std::string& fallback) {
  if (has_rules(language)) return "";
  std::string known;
  for (const auto& code : languages_with_rules()) known += (known.empty() ? "" : ", ") + code;
  return "no rules for language '" + language + "'; " + fallback + " (languages with rules: " + known +
         "; codes are ISO 639-1, e.g. fr)";
}

std::string language_name(const std::string& language) {
  if (is_generated_language(language)) return language;
  icu::UnicodeString name;
  icu::Locale(language.c_str()).getDisplayLanguage(icu::Locale::getEnglish(), name);
  std::string text;
  name.toUTF8String(text);
  // ICU gives the code back for a language it does not know.
  return text.empty() ? language : text;
}

}  // namespace rnnsearch::text
