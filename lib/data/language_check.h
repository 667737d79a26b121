#pragma once
// Whether an input looks like the model's source language, counted where nmt-decode,
// nmt-score and nmt-align read source lines (in input order, so the figure does not
// depend on batches or threads) and told once at the end of input: the cross-entropy of
// the input's characters, BPE joins undone, under the model's source profile
// (data/source_profile.h), divided by that of the training text itself. Text of the
// training language stays near 1 whatever its topic; another language, or text in
// another script, is well above (data/results/README.md). Above --language-warning, once
// at least kMinCharacters characters were read (a line or two says little: one character
// the training text never has costs as much as a dozen others):
//   input.de does not look like the model's source language (train.en): 4.62 bits per
//   character under the model's character trigrams of train.en, 2.31 times that text's
//   own 2.00; is it the right file, language and preprocessing?
// Text of the right language that was not BPE'd reads like the training text, but its
// words are never split into pieces: when at least kUnsplitMinWords words were read and
// fewer than kUnsplitFraction times the training text's share of them are split, the
// warning says so instead:
//   input.en does not look BPE'd with the model's codes: 0.0% of its 12,345 words are
//   split into pieces, train.en splits 6.5% of its own; is it the right file, language and
//   preprocessing?
// A model without a profile (written before model format version 6) is not checked;
// the unknown-token share (data/unknown_tokens.h) is then the only sign.
#include <cstddef>
#include <string>
#include <string_view>

#include "data/source_profile.h"
#include "util/messages.h"

namespace rnnsearch::data {

// --language-warning: the default ratio above which an input is worth a warning.
constexpr double kLanguageWarningRatio = 1.9;
constexpr std::size_t kMinCharacters = 200;
constexpr double kUnsplitFraction = 0.25;
constexpr std::size_t kUnsplitMinWords = 100;
// --language-warning's --help text, the same in every tool that has it.
constexpr const char* kLanguageWarningHelp =
    "RATIO in [0, 100]: at the end of input, warn when the source text's characters cost more than "
    "RATIO times the bits per character of the model's training source under its character model, or when its words "
    "are not BPE'd (0 = never; models of format version 6 and later)";

// Throws util::UsageError "--language-warning must be in [0, 100], got 150".
void check_language_warning(double ratio);

class LanguageCheck {
 public:
  // `profile` must outlive the check; an empty one checks nothing.
  explicit LanguageCheck(const SourceProfile& profile) : profile_(&profile) {}

  // Counts one source line (BPE'd pieces separated by spaces).
  void add(std::string_view line);
  std::size_t characters() const { return characters_; }
  // The input's bits per character, and their ratio to the training text's (0 when
  // nothing was counted or there is no profile).
  double bits_per_character() const;
  double ratio() const;
  // The share of the words read that are written as several pieces, and whether it is
  // below kUnsplitFraction of the training text's (after kUnsplitMinWords words).
  double split_share() const;
  bool looks_unsplit() const;

  // The warning above, the input named `input`, when ratio() is above `threshold`, or the
  // one of unsplit words (never at 0); else "".
  std::string warning(double threshold, const std::string& input) const;
  void warn(const util::Messages& messages, double threshold, const std::string& input) const;

 private:
  const SourceProfile* profile_;
  double bits_ = 0.0;
  std::size_t characters_ = 0;
  WordSplits splits_;
};

}  // namespace rnnsearch::data
