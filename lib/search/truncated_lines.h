#pragma once
// Source lines longer than --max-length, which nmt-decode translates and nmt-score scores
// after truncation to their first max_length tokens: a note naming each line as it is read
// (dropped under -q), and one warning at the end of input that -q keeps:
//   2 of 500 source lines in test.de had more than --max-length 100 tokens and were
//   translated truncated to their first 100 (the first: line 17); --max-length 0 translates
//   whole lines
#include <cstddef>
#include <string>
#include <utility>

#include "util/messages.h"

namespace rnnsearch::search {

class TruncatedLines {
 public:
  // `max_length` 0: no limit. `verb`: "translate" or "score".
  TruncatedLines(std::size_t max_length, std::string verb) : max_length_(max_length), verb_(std::move(verb)) {}

  // True (with the note, and counted) when a line of `tokens` tokens, line `line` of
  // `input`, is longer than the limit: the caller keeps its first max_length tokens.
  bool truncate(std::size_t tokens, const std::string& input, std::size_t line, const util::Messages& messages);
  std::size_t count() const { return count_; }
  std::size_t max_length() const { return max_length_; }

  // The warning above, when a line of the `lines` of `input` was truncated.
  void warn(const util::Messages& messages, const std::string& input, std::size_t lines) const;

 private:
  std::size_t max_length_;
  std::string verb_;
  std::size_t count_ = 0;
  std::size_t first_line_ = 0;
};

}  // namespace rnnsearch::search
