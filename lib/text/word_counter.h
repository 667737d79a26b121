#pragma once
// Word counts read the way subword-nmt reads text: a line is cut at Python's line
// boundaries, each piece is stripped of "\r\n " and split on single spaces, empty words
// are dropped. Counts keep first-occurrence order (Python's Counter), so a stable sort
// by count reproduces subword-nmt's tie order.
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "util/line_reader.h"
#include "util/progress_meter.h"

namespace rnnsearch::text {

// Which characters end a line for the Python reader being imitated.
enum class LineBreaks {
  kUniversal,   // io.TextIOWrapper (learn_bpe on stdin, apply_bpe): "\r" and "\n"
  kSplitlines,  // codecs readers (get_vocab, learn_bpe -i FILE): str.splitlines(), which
                // adds \v \f \x1c \x1d \x1e U+0085 U+2028 U+2029; the break stays in the word
};

struct WordCount {
  std::string word;
  std::int64_t count = 0;
};

class WordCounter {
 public:
  explicit WordCounter(LineBreaks breaks = LineBreaks::kUniversal) : breaks_(breaks) {}

  // Counts the words of one line as util::LineReader returns it (no "\n").
  void add_line(std::string_view line);
  // Counts every line of `path` ("-" = stdin); invalid UTF-8 throws util::Error unless
  // `invalid` asks for U+FFFD replacement. `progress`, when given, counts the lines.
  void add_file(const std::string& path, util::InvalidUtf8 invalid = util::InvalidUtf8::kError,
                util::ProgressMeter* progress = nullptr);

  // Every distinct word with its count, in first-occurrence order.
  const std::vector<WordCount>& counts() const { return counts_; }

 private:
  void add_piece(std::string_view piece);

  LineBreaks breaks_;
  std::unordered_map<std::string, std::size_t> index_;
  std::vector<WordCount> counts_;
  std::vector<std::string_view> words_;  // scratch
};

// The words of one line piece as subword-nmt splits them: strip("\r\n "), then
// split(" ") without the empty words. Clears `words`; the views point into `piece`.
void split_space_words(std::string_view piece, std::vector<std::string_view>& words);

}  // namespace rnnsearch::text
