#pragma once
// Words that a following period does not end (Mr., Dr., z.B. pieces): the tokenizer keeps
// "Mr." whole instead of splitting off the period. A numeric-only prefix ("No.") is kept
// only before a number. Files use the Moses format: one prefix per line, `#` starts a
// comment line, and "PREFIX #NUMERIC_ONLY#" marks a numeric-only prefix.
#include <map>
#include <string>
#include <string_view>

namespace rnnsearch::text {

class NonbreakingPrefixes {
 public:
  NonbreakingPrefixes() = default;

  // The project's own lists for en, de, fr and cs, none for the generated demo languages
  // xa and xb (text/languages.h). Any other language gets the English list, as
  // tokenizer.perl falls back to English when it has no file for a language.
  static NonbreakingPrefixes built_in(const std::string& language);
  // Reads a Moses-format file; throws util::Error naming the path when it cannot be read,
  // and its line for bytes that are not UTF-8 ("PATH:2: invalid UTF-8 at byte 3").
  static NonbreakingPrefixes from_file(const std::string& path);
  // Parses Moses-format text (the contents of such a file).
  static NonbreakingPrefixes from_text(std::string_view text);

  // True for any listed prefix, numeric-only or not.
  bool contains(std::string_view word) const;
  // True when `word` is listed with #NUMERIC_ONLY#.
  bool numeric_only(std::string_view word) const;
  std::size_t size() const { return prefixes_.size(); }

 private:
  void add_line(std::string_view line);

  std::map<std::string, bool, std::less<>> prefixes_;  // prefix -> numeric only
};

}  // namespace rnnsearch::text
