#include "text/detokenizer.h"

#include <utility>
#include <vector>

#include "text/unicode.h"
#include "util/utf8.h"

namespace rnnsearch::text {
namespace {

using util::next_code_point;

// The blocks detokenizer.perl's charIsCJK lists (Hangul, CJK, Kana, Yi, ...).
bool is_cjk(char32_t cp) {
  return (cp >= 0x1100 && cp <= 0x11FF) || (cp >= 0x2E80 && cp <= 0xA4CF) ||
         (cp >= 0xA840 && cp <= 0xA87F) || (cp >= 0xAC00 && cp <= 0xD7AF) ||
         (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0xFE30 && cp <= 0xFE4F) ||
         (cp >= 0xFF65 && cp <= 0xFFDC) || (cp >= 0x20000 && cp <= 0x2FFFF);
}

bool is_ascii_letter(char32_t cp) { return (cp | 0x20) >= 'a' && (cp | 0x20) <= 'z'; }
bool is_ascii_digit(char32_t cp) { return cp >= '0' && cp <= '9'; }

bool is_alpha(char32_t cp) { return cp < 0x80 ? is_ascii_letter(cp) : is_alphabetic(cp); }
bool is_alnum(char32_t cp) {
  return cp < 0x80 ? is_ascii_letter(cp) || is_ascii_digit(cp) : is_alphanumeric(cp);
}

// Perl's \s (not Python's whitespace: see text/whitespace.h for that).
bool is_perl_whitespace(char32_t cp) {
  return cp < 0x80 ? cp == ' ' || (cp >= '\t' && cp <= '\r') : is_perl_space(cp);
}

// [\p{IsSc}\(\[\{¿¡]: tokens made of these attach to the word on their right.
bool is_opening(char32_t cp) {
  if (cp < 0x80) return cp == '(' || cp == '[' || cp == '{' || cp == '$';
  return cp == 0xBF || cp == 0xA1 || is_currency_symbol(cp);
}

// [,.?!:;\\%}\])]: tokens made of these attach to the word on their left.
bool is_closing(char32_t cp) {
  switch (cp) {
    case ',': case '.': case '?': case '!': case ':': case ';': case '\\': case '%':
    case '}': case ']': case ')':
      return true;
    default:
      return false;
  }
}

// A one-character token French writes with a space before it: ? ! : ; \\ %
bool is_french_spaced(std::string_view w) {
  return w.size() == 1 && std::string_view("?!:;\\%").find(w[0]) != std::string_view::npos;
}

// ['"„“`]: tokens made of these are quotes, paired per kind.
bool is_quote(char32_t cp) {
  return cp == '\'' || cp == '"' || cp == '`' || cp == 0x201E || cp == 0x201C;
}
bool is_double_curly_quote(char32_t cp) { return cp == 0x201E || cp == 0x201C || cp == 0x201D; }

char32_t first_code_point(std::string_view w) {
  std::size_t i = 0;
  return next_code_point(w, i);
}

char32_t last_code_point(std::string_view w) {
  std::size_t i = w.size() - 1;
  while (i > 0 && (static_cast<unsigned char>(w[i]) & 0xC0) == 0x80) --i;
  return next_code_point(w, i);
}

// The code point before the last one; `w` holds at least two.
char32_t second_last_code_point(std::string_view w) {
  std::size_t i = w.size() - 1;
  while (i > 0 && (static_cast<unsigned char>(w[i]) & 0xC0) == 0x80) --i;
  return last_code_point(w.substr(0, i));
}

char32_t second_code_point(std::string_view w) {
  std::size_t i = 0;
  next_code_point(w, i);
  return next_code_point(w, i);
}

// /^[class]+$/
template <class Pred>
bool all_code_points(std::string_view w, Pred in_class) {
  if (w.empty()) return false;
  for (std::size_t i = 0; i < w.size();) {
    if (!in_class(next_code_point(w, i))) return false;
  }
  return true;
}

bool all_ascii_digits(std::string_view w) { return all_code_points(w, is_ascii_digit); }

bool equals_ignoring_ascii_case(std::string_view w, std::string_view lower) {
  if (w.size() != lower.size()) return false;
  for (std::size_t i = 0; i < w.size(); ++i) {
    const char c = (w[i] >= 'A' && w[i] <= 'Z') ? static_cast<char>(w[i] - 'A' + 'a') : w[i];
    if (c != lower[i]) return false;
  }
  return true;
}

// Replaces every non-overlapping `from`, left to right, in place (`to` is not longer).
void replace_all(std::string& text, std::string_view from, std::string_view to) {
  std::size_t in = text.find(from);
  if (in == std::string::npos) return;
  std::size_t out = in;
  while (in < text.size()) {
    if (text[in] == from[0] && text.compare(in, from.size(), from) == 0) {
      for (const char c : to) text[out++] = c;
      in += from.size();
    } else {
      text[out++] = text[in++];
    }
  }
  text.resize(out);
}

// The escapes tokenizer.perl writes, plus the legacy &bar; &bra; &ket;. One left-to-right
// pass gives what the script's chain of substitutions gives: every entity starts with '&'
// and only &amp;, substituted last, produces one.
void unescape_in_place(std::string& text) {
  static constexpr std::pair<std::string_view, char> entities[] = {
      {"&bar;", '|'},  {"&#124;", '|'}, {"&lt;", '<'},  {"&gt;", '>'},
      {"&bra;", '['},  {"&ket;", ']'},  {"&quot;", '"'}, {"&apos;", '\''},
      {"&#91;", '['},  {"&#93;", ']'},  {"&amp;", '&'}};
  std::size_t in = text.find('&');
  if (in == std::string::npos) return;
  std::size_t out = in;
  while (in < text.size()) {
    if (text[in] == '&') {
      const std::string_view rest(text.data() + in, text.size() - in);
      bool matched = false;
      for (const auto& [entity, ch] : entities) {
        if (rest.substr(0, entity.size()) == entity) {
          text[out++] = ch;
          in += entity.size();
          matched = true;
          break;
        }
      }
      if (matched) continue;
    }
    text[out++] = text[in++];
  }
  text.resize(out);
}

// Perl's split(/ /, $text): every space separates, trailing empty fields are dropped.
void split_on_spaces(std::string_view text, std::vector<std::string_view>& words) {
  words.clear();
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || text[i] == ' ') {
      words.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  while (!words.empty() && words.back().empty()) words.pop_back();
}

bool is_tag_line(std::string_view line) {
  return line.size() >= 3 && line.front() == '<' && line.back() == '>' &&
         line.find('\n') == std::string_view::npos;
}

bool is_blank_line(std::string_view line) {
  for (std::size_t i = 0; i < line.size();) {
    if (!is_perl_whitespace(next_code_point(line, i))) return false;
  }
  return true;
}

// Collapses runs of spaces and drops one leading and one trailing space.
std::string squeeze_spaces(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == ' ' && !out.empty() && out.back() == ' ') continue;
    out.push_back(text[i]);
  }
  if (!out.empty() && out.front() == ' ') out.erase(0, 1);
  if (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

}  // namespace

Detokenizer::Detokenizer(DetokenizerOptions options) : options_(std::move(options)) {
  const std::string& l = options_.language;
  rules_ = l == "en" ? Rules::en : l == "fr" ? Rules::fr : l == "it" ? Rules::it
         : l == "cs" ? Rules::cs : Rules::generic;
}

std::string Detokenizer::detokenize(std::string_view raw_line) const {
  std::string repaired;
  if (util::find_invalid_utf8(raw_line) != std::string_view::npos) {
    repaired = util::replace_invalid_utf8(raw_line);
    raw_line = repaired;
  }
  if (is_tag_line(raw_line) || is_blank_line(raw_line)) return std::string(raw_line);

  std::string text;
  text.reserve(raw_line.size() + 2);
  text.push_back(' ');
  text.append(raw_line);
  text.push_back(' ');
  replace_all(text, " @-@ ", "-");
  if (options_.unescape) unescape_in_place(text);

  std::vector<std::string_view> words;
  split_on_spaces(text, words);
  const std::size_t n = words.size();

  std::vector<std::pair<std::string_view, int>> quote_counts;
  auto quote_count = [&quote_counts](std::string_view kind) -> int& {
    for (auto& [k, count] : quote_counts) {
      if (k == kind) return count;
    }
    return quote_counts.emplace_back(kind, 0).second;
  };

  std::string out;
  out.reserve(text.size() + 8);
  std::string_view prepend = " ";
  auto attach_left = [&](std::string_view w) {
    out.append(w);
    prepend = " ";
  };
  auto attach_right = [&](std::string_view w) {
    out.append(prepend);
    out.append(w);
    prepend = "";
  };

  for (std::size_t i = 0; i < n; ++i) {
    const std::string_view w = words[i];
    if (!w.empty() && is_cjk(first_code_point(w))) {
      const std::string_view prev = i > 0 ? words[i - 1] : std::string_view();
      if (prev.empty() || !is_cjk(last_code_point(prev))) out.append(prepend);
      attach_left(w);
    } else if (all_code_points(w, is_opening)) {
      attach_right(w);
    } else if (all_code_points(w, is_closing)) {
      if (rules_ == Rules::fr && is_french_spaced(w)) out.push_back(' ');
      attach_left(w);
    } else if (rules_ == Rules::en && i > 0 && w.size() > 1 && w[0] == '\'' &&
               is_alpha(second_code_point(w)) && !words[i - 1].empty() &&
               is_alnum(last_code_point(words[i - 1]))) {
      attach_left(w);  // English contraction: don 't -> don't
    } else if (rules_ == Rules::cs && i > 1 && all_ascii_digits(words[i - 2]) &&
               (words[i - 1] == "." || words[i - 1] == ",") && all_ascii_digits(w)) {
      attach_left(w);  // Czech decimal: 3 , 5 -> 3 ,5 (the comma already attached)
    } else if ((rules_ == Rules::fr || rules_ == Rules::it) && i + 2 <= n && w.size() > 1 &&
               w.back() == '\'' && is_alpha(second_last_code_point(w)) &&
               !words[i + 1].empty() && is_alpha(first_code_point(words[i + 1]))) {
      attach_right(w);  // French / Italian elision: l' homme -> l'homme
    } else if (rules_ == Rules::cs && i + 3 < n && !w.empty() && is_alpha(last_code_point(w)) &&
               (words[i + 1] == "-" || words[i + 1] == "\xE2\x80\x93") &&
               (equals_ignoring_ascii_case(words[i + 2], "li") ||
                (words[i + 2].size() >= 4 && equals_ignoring_ascii_case(words[i + 2].substr(0, 4), "mail")))) {
      out.append(prepend);  // Czech "-li" and e-mail: the dash joins both sides
      out.append(w);
      out.append(words[i + 1]);
      prepend = "";
      ++i;
    } else if (all_code_points(w, is_quote)) {
      const std::string_view kind = all_code_points(w, is_double_curly_quote) ? "\"" : w;
      int& count = quote_count(kind);
      if (rules_ == Rules::cs && w == "\xE2\x80\x9E") count = 0;  // „ opens in Czech
      if (rules_ == Rules::cs && w == "\xE2\x80\x9C") count = 1;  // “ closes in Czech
      if (count % 2 == 0) {
        if (rules_ == Rules::en && w == "'" && i > 0 && !words[i - 1].empty() &&
            words[i - 1].back() == 's') {
          attach_left(w);  // possessive: the Jones ' house (the count is left alone)
        } else {
          attach_right(w);
          ++count;
        }
      } else {
        attach_left(w);
        ++count;
      }
    } else {
      out.append(prepend);
      out.append(w);
      prepend = " ";
    }
  }
  return squeeze_spaces(out);
}

}  // namespace rnnsearch::text
