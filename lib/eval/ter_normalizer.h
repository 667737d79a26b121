#pragma once
// Tercom's text preprocessing as sacreBLEU 2.6.0's TercomTokenizer applies it before
// TER: lowercase (unless case-sensitive), optional tercom normalization (XML
// entities, Western punctuation splitting, CJK splitting), optional punctuation
// removal, then words joined by single spaces. Defaults: lowercase only.
#include <string>
#include <string_view>

namespace rnnsearch::eval {

struct TerOptions {
  bool case_sensitive = false;  // false: lowercase as Python's str.lower()
  bool normalized = false;      // tercom normalization of punctuation and entities
  bool no_punct = false;        // remove . , ? : ; ! " ( )
  bool asian_support = false;   // with normalized / no_punct: split / remove CJK characters
};

// TercomTokenizer(options)(sentence): the preprocessed text, words separated by
// one ASCII space, no leading or trailing space ("" for an empty sentence).
// `sentence` must be valid UTF-8.
std::string tercom_normalize(std::string_view sentence, const TerOptions& options);

}  // namespace rnnsearch::eval
