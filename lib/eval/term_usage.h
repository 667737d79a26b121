#pragma once
// Whether a translation uses the target terms it was expected to, counted two ways over
// the same tokens:
//   - term usage rate (Dinu et al. 2019, "Training Neural Machine Translation To Apply
//     Terminology Constraints"): the share of expected term occurrences found in the
//     translation. A term expected k times in a sentence that occurs c times in it counts
//     min(k, c): a term expected twice needs two occurrences. Occurrences of one term are
//     counted left to right without overlapping ("a a" occurs once in "a a a").
//   - exact-match accuracy (the WMT21 terminology task: Alam et al. 2021, "On the Evaluation
//     of Machine Translation for Terminology Consistency", its evaluate_term_wmt.py): the
//     terms of a sentence are taken in their order, and each claims the first position
//     where it occurs that no earlier term of the sentence has claimed. Two terms that start
//     at the same word therefore count once ("cat" and "cat food" in "a cat food bowl": one
//     match), where the usage rate counts both. The script's lemmatized second pass
//     (Stanza) and its "|"-separated alternatives are not reproduced: a term is one phrase.
// A term and the translation are compared as the words BLEU counts: both go through
// sacreBLEU's 13a tokenizer, which splits punctuation off ("cat." holds the word "cat"),
// and a term matches a run of whole words only ("cat" is not in "cats" nor in
// "concatenate"). Matching is case-sensitive unless asked otherwise (lowercasing both as
// BLEU's --lowercase does).
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace rnnsearch::eval {

class SacreTokenizer;

// Sums over sentences.
struct TermCounts {
  std::size_t lines = 0;             // translations seen
  std::size_t lines_with_terms = 0;  // of them, those with at least one expected term
  std::size_t terms = 0;             // expected term occurrences
  std::size_t used = 0;              // of them, found in the translation (term usage rate)
  std::size_t exact_matches = 0;     // of them, matched as the WMT21 script matches them

  TermCounts& operator+=(const TermCounts& other);
};

class TermMatcher {
 public:
  explicit TermMatcher(bool lowercase = false);
  ~TermMatcher();
  TermMatcher(const TermMatcher&) = delete;
  TermMatcher& operator=(const TermMatcher&) = delete;

  // One translation (valid UTF-8) and the terms expected in it (one phrase each, as
  // written: tokenized here; a term with no words, an empty field, is no term). Counts one
  // line.
  TermCounts count(std::string_view translation, const std::vector<std::string_view>& terms) const;

  // The words a text is compared by: 13a tokens, lowercased first when asked.
  std::vector<std::string> words(std::string_view text) const;

 private:
  std::unique_ptr<SacreTokenizer> tokenizer_;
  bool lowercase_;
};

}  // namespace rnnsearch::eval
