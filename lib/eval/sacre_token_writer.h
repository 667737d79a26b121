#pragma once
// Shared by the sacreBLEU tokenizers: Python's str.isspace() whitespace (what
// ' '.join(line.split()) splits on) and a writer that joins tokens with one space.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "eval/sacre_tokenizers.h"

namespace rnnsearch::eval {

// Python's str.isspace() for one code point (text::is_white_space, cached for the BMP).
bool is_python_space(char32_t cp);

// True when a UTF-8 sequence starting with byte `c` can encode a Python whitespace
// character: ASCII whitespace, or a lead byte such as 0xC2 (U+00A0) or 0xE2 (U+2028).
bool may_start_python_space(unsigned char c);

// Byte length of the Python whitespace character at s[i] (valid UTF-8), or 0.
std::size_t python_space_length(std::string_view s, std::size_t i);

// Python's s.split(): appends views of `s` to `tokens`.
void split_python(std::string_view s, std::vector<std::string_view>& tokens);

// Splits text that has exactly one ' ' between tokens (a TokenWriter's output) and
// no leading or trailing space: appends views of `s` to `tokens`.
void split_joined(std::string_view s, std::vector<std::string_view>& tokens);

// Appends bytes to `out` (cleared on construction), putting one ' ' where a cut()
// separates two non-empty stretches: ' '.join(text.split()) built in one pass.
class TokenWriter {
 public:
  explicit TokenWriter(std::string& out) : out_(out) { out_.clear(); }

  // Ends the current token; the next byte put starts a new one.
  void cut() { gap_ = !out_.empty(); }
  void put(char c) {
    if (gap_) space();
    out_.push_back(c);
  }
  void put(std::string_view s) {
    if (gap_) space();
    out_.append(s.data(), s.size());
  }
  // A token of its own: cut(), put(s), cut().
  void put_alone(std::string_view s) {
    if (!out_.empty()) out_.push_back(' ');
    out_.append(s.data(), s.size());
    gap_ = true;
  }

 private:
  void space() {
    out_.push_back(' ');
    gap_ = false;
  }

  std::string& out_;
  bool gap_ = false;
};

// A tokenizer whose output is tokens joined by single spaces (13a, intl, zh): it
// writes that string once, and tokenize_into() splits it at the spaces.
class SpacedTokenizer : public SacreTokenizer {
 public:
  std::string tokenize(std::string_view line) const override;
  void tokenize_into(std::string_view line, std::vector<std::string_view>& tokens,
                     std::string& buffer) const override;

 protected:
  // Writes the tokenized `line` into `out` (cleared first).
  virtual void write(std::string_view line, std::string& out) const = 0;
};

}  // namespace rnnsearch::eval
