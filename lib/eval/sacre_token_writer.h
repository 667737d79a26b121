#pragma once
// Shared by the sacreBLEU tokenizers: a writer that joins tokens with one space, as
// ' '.join(line.split()) does (whitespace itself comes from text/whitespace.h).
#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "eval/sacre_tokenizers.h"

namespace rnnsearch::eval {

// Splits `s` at each ' ' (text with exactly one space between tokens and none at
// either end, as a TokenWriter leaves it): `tokens` gets a view of each token.
void split_joined(std::string_view s, std::vector<std::string_view>& tokens);

// Writes ' '.join(tokens) in one pass: put() adds bytes to the current token, cut()
// ends it, and exactly one ' ' separates two tokens. Writes straight into `out`,
// sized up front; finish() drops a trailing space and trims it.
class TokenWriter {
 public:
  // `max_size` bounds the output: 2 * (input bytes) always does.
  TokenWriter(std::string& out, std::size_t max_size) : out_(out) {
    out_.resize(max_size);
    begin_ = pos_ = out_.data();
  }

  void cut() {
    if (at_space_) return;
    *pos_++ = ' ';
    at_space_ = true;
  }
  void put(char c) {
    *pos_++ = c;
    at_space_ = false;
  }
  void put(std::string_view s) {
    if (s.size() <= 16) {
      for (char c : s) *pos_++ = c;
    } else {
      std::memcpy(pos_, s.data(), s.size());
      pos_ += s.size();
    }
    at_space_ = false;
  }
  // A token of its own: cut(), put(s), cut().
  void put_alone(std::string_view s) {
    cut();
    put(s);
    cut();
  }

  // The hot loop: copies text[i...] while kind[byte] is 0 (a byte of a token) or 1
  // (whitespace: a cut); returns the index of the first byte of any other kind.
  std::size_t put_words(std::string_view text, std::size_t i, const unsigned char* kind) {
    const auto* p = reinterpret_cast<const unsigned char*>(text.data());
    const std::size_t n = text.size();
    char* o = pos_;
    unsigned at_space = at_space_;
    for (; i < n; ++i) {
      const unsigned c = p[i];
      const unsigned space = kind[c];
      if (space > 1) break;
      // Branch-free (words are short, a branch per space mispredicts): write c, or
      // ' ' for whitespace, and keep it unless it follows a space.
      *o = static_cast<char>(c ^ ((c ^ ' ') & (0u - space)));
      o += 1 - (space & at_space);
      at_space = space;
    }
    pos_ = o;
    at_space_ = at_space != 0;
    return i;
  }

  void finish() {
    if (pos_ != begin_ && pos_[-1] == ' ') --pos_;
    out_.resize(static_cast<std::size_t>(pos_ - begin_));
  }

 private:
  std::string& out_;
  char* begin_;
  char* pos_;
  bool at_space_ = true;  // nothing written yet, or a ' ' last
};

// ' '.join(s.split()) into `out`: Python's whitespace becomes single spaces.
void put_python_words(std::string_view s, TokenWriter& out);

// A tokenizer whose output is tokens joined by single spaces (13a, intl, zh):
// tokenize_into() splits what write() wrote.
class SpacedTokenizer : public SacreTokenizer {
 public:
  std::string tokenize(std::string_view line) const override;
  void tokenize_into(std::string_view line, std::vector<std::string_view>& tokens,
                     std::string& buffer) const override;

 protected:
  // Writes the tokenized `line` into `out`, replacing its content.
  virtual void write(std::string_view line, std::string& out) const = 0;
};

}  // namespace rnnsearch::eval
