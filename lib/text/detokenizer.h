#pragma once
// Moses detokenizer.perl (commit 3a0631a) in C++: joins " @-@ " back into "-", undoes the
// tokenizer's XML escapes, then walks the space-separated tokens deciding for each one
// whether it attaches to its left or right neighbour (punctuation, currency, brackets,
// paired quotes, CJK runs, and the en / fr / it / cs contraction rules). Languages
// without built-in rules (de among them) take the generic path, as the script does.
#include <string>
#include <string_view>

namespace rnnsearch::text {

struct DetokenizerOptions {
  std::string language = "en";  // en, fr, it and cs have rules; others are generic
  bool unescape = true;         // turn &amp; &#124; &lt; &gt; &apos; &quot; &#91; &#93; back
};

class Detokenizer {
 public:
  explicit Detokenizer(DetokenizerOptions options);

  // One line without its newline. Lines of whitespace only and lines that look like an
  // XML tag ("<...>") come back unchanged. Invalid UTF-8 is first replaced by U+FFFD.
  // Const and thread-safe.
  std::string detokenize(std::string_view line) const;

 private:
  enum class Rules { generic, en, fr, it, cs };

  DetokenizerOptions options_;
  Rules rules_;
};

}  // namespace rnnsearch::text
