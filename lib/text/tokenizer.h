#pragma once
// Moses' tokenizer.perl (snapshot 3a0631a, the one shipped with Multi30k), rule for rule:
// white space collapsed, symbols split off, optional hyphen splitting (-a: "a @-@ b"),
// multi-dot runs kept whole, commas split except inside numbers, the language's
// apostrophe rule, a final period split off unless a nonbreaking prefix protects it, and
// XML escaping. Hand-written scanners replace the script's regular expressions.
//
// The Multi30k preprocessing (lowercase.perl | normalize-punctuation.perl | tokenizer.perl)
// is lowercase = normalize_punctuation = true, applied in that order. The word-alignment
// preparation (Hansards, ../shared/data/hansards/README.md) tokenizes, then lowercases and
// folds accents: a second pass with tokenized = lowercase = fold_accents = true. The
// gold's own spelling (French contractions written out, hyphens split as "-") is
// aggressive = expand_contractions = plain_hyphens = true.
#include <string>
#include <string_view>

#include "text/nonbreaking_prefixes.h"

namespace rnnsearch::text {

struct TokenizerOptions {
  std::string language = "en";         // -l: selects the apostrophe rule
  bool aggressive = false;             // -a: split hyphens between letters or digits
  bool escape = true;                  // off = -no-escape
  bool lowercase = false;              // lowercase.perl first
  bool normalize_punctuation = false;  // normalize-punctuation.perl -l language next
  bool tokenized = false;              // the text is tokenized already: normalize only
  bool expand_contractions = false;    // French only: "l'" -> "le", "du" -> "de le" (french_contractions.h)
  bool plain_hyphens = false;          // -a's "@-@" written as "-"
  bool fold_accents = false;           // last: NFKD, combining marks dropped

  // Throws util::UsageError for a combination that cannot apply (contractions of a
  // language other than French).
  void validate() const;
};

class Tokenizer {
 public:
  Tokenizer(TokenizerOptions options, NonbreakingPrefixes prefixes);

  // One line without its newline; `line` must be valid UTF-8 (util::Error otherwise).
  // As the script does, a blank line comes back unchanged and a line ending in .' gets
  // a trailing space. Const and free of shared state: safe from several threads.
  std::string tokenize(std::string_view line) const;

  const TokenizerOptions& options() const { return options_; }

 private:
  std::string tokenize_normalized(std::string_view line) const;

  TokenizerOptions options_;
  NonbreakingPrefixes prefixes_;
};

}  // namespace rnnsearch::text
