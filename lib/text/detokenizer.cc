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

// The line as the script sees it before joining: one space at each end, @-@ joined,
// the escapes undone when asked.
std::string spaced_text(std::string_view line, bool unescape) {
  std::string text;
  text.reserve(line.size() + 2);
  text.push_back(' ');
  text.append(line);
  text.push_back(' ');
  replace_all(text, " @-@ ", "-");
  if (unescape) unescape_in_place(text);
  return text;
}

// The joined line as it grows: each word goes after `prepend_`, the space (or nothing)
// the previous word left for it.
class JoinedText {
 public:
  explicit JoinedText(std::size_t capacity) { out_.reserve(capacity); }

  // The word sticks to the previous one; the next gets a space.
  void attach_left(std::string_view w) {
    out_.append(w);
    prepend_ = " ";
  }
  // The word is spaced from the previous one; the next sticks to it.
  void attach_right(std::string_view w) {
    out_.append(prepend_);
    out_.append(w);
    prepend_ = "";
  }
  // Spaced on both sides.
  void append_spaced(std::string_view w) {
    out_.append(prepend_);
    out_.append(w);
    prepend_ = " ";
  }
  void append_prepend() { out_.append(prepend_); }
  void append_space() { out_.push_back(' '); }
  // How many quotes of this kind the line has had (per kind, in order of first sight).
  int& quote_count(std::string_view kind) {
    for (auto& [k, count] : quote_counts_) {
      if (k == kind) return count;
    }
    return quote_counts_.emplace_back(kind, 0).second;
  }
  const std::string& text() const { return out_; }

 private:
  std::string out_;
  std::string_view prepend_ = " ";
  std::vector<std::pair<std::string_view, int>> quote_counts_;
};

// English contraction: don 't -> don't
bool is_english_contraction(const std::vector<std::string_view>& words, std::size_t i) {
  const std::string_view w = words[i];
  return i > 0 && w.size() > 1 && w[0] == '\'' && is_alpha(second_code_point(w)) && !words[i - 1].empty() &&
         is_alnum(last_code_point(words[i - 1]));
}

// Czech decimal: 3 , 5 -> 3 ,5 (the comma already attached)
bool is_czech_decimal(const std::vector<std::string_view>& words, std::size_t i) {
  return i > 1 && all_ascii_digits(words[i - 2]) && (words[i - 1] == "." || words[i - 1] == ",") &&
         all_ascii_digits(words[i]);
}

// French / Italian elision: l' homme -> l'homme
bool is_elision(const std::vector<std::string_view>& words, std::size_t i) {
  const std::string_view w = words[i];
  return i + 2 <= words.size() && w.size() > 1 && w.back() == '\'' && is_alpha(second_last_code_point(w)) &&
         !words[i + 1].empty() && is_alpha(first_code_point(words[i + 1]));
}

// Czech "-li" and e-mail: the dash joins both sides
bool is_czech_dash_join(const std::vector<std::string_view>& words, std::size_t i) {
  const std::string_view w = words[i];
  return i + 3 < words.size() && !w.empty() && is_alpha(last_code_point(w)) &&
         (words[i + 1] == "-" || words[i + 1] == "\xE2\x80\x93") &&
         (equals_ignoring_ascii_case(words[i + 2], "li") ||
          (words[i + 2].size() >= 4 && equals_ignoring_ascii_case(words[i + 2].substr(0, 4), "mail")));
}

// Quotes alternate between opening (attached right) and closing (attached left), counted
// per kind; Czech „ always opens and “ always closes.
void join_quote(const std::vector<std::string_view>& words, std::size_t i, bool english, bool czech,
                JoinedText& joined) {
  const std::string_view w = words[i];
  const std::string_view kind = all_code_points(w, is_double_curly_quote) ? "\"" : w;
  int& count = joined.quote_count(kind);
  if (czech && w == "\xE2\x80\x9E") count = 0;  // „ opens in Czech
  if (czech && w == "\xE2\x80\x9C") count = 1;  // “ closes in Czech
  if (count % 2 == 0) {
    if (english && w == "'" && i > 0 && !words[i - 1].empty() && words[i - 1].back() == 's') {
      joined.attach_left(w);  // possessive: the Jones ' house (the count is left alone)
    } else {
      joined.attach_right(w);
      ++count;
    }
  } else {
    joined.attach_left(w);
    ++count;
  }
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

  const std::string text = spaced_text(raw_line, options_.unescape);
  std::vector<std::string_view> words;
  split_on_spaces(text, words);
  const std::size_t n = words.size();
  JoinedText joined(text.size() + 8);
  for (std::size_t i = 0; i < n; ++i) {
    const std::string_view w = words[i];
    if (!w.empty() && is_cjk(first_code_point(w))) {
      const std::string_view prev = i > 0 ? words[i - 1] : std::string_view();
      if (prev.empty() || !is_cjk(last_code_point(prev))) joined.append_prepend();
      joined.attach_left(w);
    } else if (all_code_points(w, is_opening)) {
      joined.attach_right(w);
    } else if (all_code_points(w, is_closing)) {
      if (rules_ == Rules::fr && is_french_spaced(w)) joined.append_space();
      joined.attach_left(w);
    } else if (rules_ == Rules::en && is_english_contraction(words, i)) {
      joined.attach_left(w);
    } else if (rules_ == Rules::cs && is_czech_decimal(words, i)) {
      joined.attach_left(w);
    } else if ((rules_ == Rules::fr || rules_ == Rules::it) && is_elision(words, i)) {
      joined.attach_right(w);
    } else if (rules_ == Rules::cs && is_czech_dash_join(words, i)) {
      joined.attach_right(w);
      joined.attach_right(words[i + 1]);
      ++i;
    } else if (all_code_points(w, is_quote)) {
      join_quote(words, i, rules_ == Rules::en, rules_ == Rules::cs, joined);
    } else {
      joined.append_spaced(w);
    }
  }
  return squeeze_spaces(joined.text());
}

}  // namespace rnnsearch::text
