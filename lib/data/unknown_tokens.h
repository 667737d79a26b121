#pragma once
// How many of an input's tokens a model's vocabulary does not know (they become <unk>),
// counted over the whole input, one count per side, and the warning nmt-decode, nmt-score
// and nmt-align print once at the end of input when the share of a side is above
// --unknown-warning: a sign of text that is not tokenized, not BPE'd with the model's
// codes, or not in the model's language (or direction).
//   3,412 of 10,020 source tokens (34.1%) in input.de are unknown to the model; is the text
//   tokenized, BPE'd with the model's codes, and in the model's source language?
// The tools count where they map tokens to ids, in input order, so the counts do not
// depend on batches or threads.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "data/vocabulary.h"
#include "util/messages.h"

namespace rnnsearch::data {

// --unknown-warning: the default share above which a side's unknown tokens are worth a warning.
constexpr double kUnknownWarningShare = 0.1;
// --unknown-warning's --help text, the same in every tool that has it.
constexpr const char* kUnknownWarningHelp =
    "SHARE in [0, 1]: at the end of input, warn when more than this share of the tokens the model reads (per "
    "side) are unknown to it (1 = never)";

// Throws util::UsageError "--unknown-warning must be in [0, 1], got 1.5".
void check_unknown_warning(double share);

class UnknownTokens {
 public:
  enum Side { kSource = 0, kTarget = 1 };

  // Counts the ids of one sentence's side; those of <unk> are the unknown tokens.
  void add(Side side, const std::vector<std::int32_t>& ids) {
    tokens_[side] += ids.size();
    unknown_[side] += static_cast<std::size_t>(std::count(ids.begin(), ids.end(), Vocabulary::kUnk));
  }
  // Counts `tokens` tokens of a side at once, `unknown` of them unknown (for readers that
  // know each word's status without mapping it to an id).
  void add_counts(Side side, std::size_t tokens, std::size_t unknown) {
    tokens_[side] += tokens;
    unknown_[side] += unknown;
  }
  std::size_t tokens(Side side) const { return tokens_[side]; }
  std::size_t unknown(Side side) const { return unknown_[side]; }

  // The warning above for `side`, its text read from `input` ("<stdin>" or a path), when
  // its unknown tokens are more than `share` of its tokens; else "".
  std::string warning(Side side, double share, const std::string& input) const;
  // The same with another end after "... in INPUT ": `verdict` ("are words P never names; ...?").
  std::string warning(Side side, double share, const std::string& input, const std::string& verdict) const;
  // Passes each side's warning (source first, sides with no tokens skipped) to `messages`.
  void warn(const util::Messages& messages, double share, const std::string& source_input,
            const std::string& target_input = "") const;

 private:
  std::size_t tokens_[2] = {0, 0};
  std::size_t unknown_[2] = {0, 0};
};

}  // namespace rnnsearch::data
