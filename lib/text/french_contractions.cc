#include "text/french_contractions.h"

#include <array>
#include <vector>

#include "text/unicode.h"
#include "text/whitespace.h"

namespace rnnsearch::text {
namespace {

struct Expansion {
  std::string_view word;  // lowercase, as tokenized
  std::string_view full;
};

constexpr std::array<Expansion, 18> kExpansions = {{
    {"l'", "le"},          {"d'", "de"},           {"qu'", "que"},         {"n'", "ne"},
    {"c'", "ce"},          {"s'", "se"},           {"j'", "je"},           {"m'", "me"},
    {"t'", "te"},          {"jusqu'", "jusque"},   {"lorsqu'", "lorsque"}, {"puisqu'", "puisque"},
    {"quoiqu'", "quoique"}, {"quelqu'", "quelque"}, {"du", "de le"},       {"des", "de les"},
    {"au", "à le"},        {"aux", "à les"},
}};

constexpr std::string_view kHyphenMark = "@-@";

const Expansion* find_expansion(std::string_view lowercase_word) {
  for (const auto& e : kExpansions) {
    if (e.word == lowercase_word) return &e;
  }
  return nullptr;
}

// A letter of an expansion in capitals: ASCII a-z, or "à" (UTF-8 C3 A0 -> "À", C3 80).
// Returns the bytes the letter took.
std::size_t capitalize_at(std::string& text, std::size_t i) {
  if (text[i] >= 'a' && text[i] <= 'z') {
    text[i] = static_cast<char>(text[i] - 'a' + 'A');
    return 1;
  }
  if (text[i] == '\xC3' && i + 1 < text.size() && text[i + 1] == '\xA0') {
    text[i + 1] = '\x80';
    return 2;
  }
  return 1;
}

// The expansion in the word's case: "L'" -> "Le", "Au" -> "À le", "DU" -> "DE LE".
std::string in_case_of(std::string_view word, std::string_view lowercase_word, std::string_view full) {
  std::string out(full);
  if (word == lowercase_word) return out;
  // Capitals throughout when the second letter is one too ("DU", "DES"; "L'" is "Le").
  if (word.size() > 1 && word[1] >= 'A' && word[1] <= 'Z') {
    for (std::size_t i = 0; i < out.size();) i += capitalize_at(out, i);
  } else {
    capitalize_at(out, 0);
  }
  return out;
}

}  // namespace

std::string expand_french_contractions(std::string_view tokenized_line) {
  std::vector<std::string_view> words;
  split_white_space(tokenized_line, words);
  std::string out;
  out.reserve(tokenized_line.size() + 16);
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (i > 0) out += ' ';
    // A compound starts here ("au @-@ dessus"); after a hyphen ("juridictions @-@ des
    // permis", a dash written as a hyphen) the word stands alone.
    const bool in_compound = i + 1 < words.size() && words[i + 1] == kHyphenMark;
    const std::string lower = lowercase(words[i]);
    const Expansion* e = in_compound ? nullptr : find_expansion(lower);
    if (e == nullptr) {
      out += words[i];
    } else {
      out += in_case_of(words[i], lower, e->full);
    }
  }
  return out;
}

std::string plain_hyphen_marks(std::string_view tokenized_line) {
  std::vector<std::string_view> words;
  split_white_space(tokenized_line, words);
  std::string out;
  out.reserve(tokenized_line.size());
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (i > 0) out += ' ';
    out += words[i] == kHyphenMark ? std::string_view("-") : words[i];
  }
  return out;
}

}  // namespace rnnsearch::text
