#include "text/punct_normalizer.h"

namespace rnnsearch::text {
namespace {

constexpr std::string_view kNbsp = "\xC2\xA0";

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_ascii_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_ascii_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

// s/FROM/TO/g with literal strings.
void replace_all(std::string& s, std::string_view from, std::string_view to) {
  std::size_t at = s.find(from);
  if (at == std::string::npos) return;
  std::string out;
  out.reserve(s.size() + 16);
  std::size_t done = 0;
  for (; at != std::string::npos; at = s.find(from, done)) {
    out.append(s, done, at - done);
    out += to;
    done = at + from.size();
  }
  out.append(s, done, std::string::npos);
  s.swap(out);
}

// s/ +/ /g
void squeeze_spaces(std::string& s) {
  std::size_t w = 0;
  for (std::size_t r = 0; r < s.size(); ++r) {
    if (s[r] == ' ' && w > 0 && s[w - 1] == ' ') continue;
    s[w++] = s[r];
  }
  s.resize(w);
}

// s/\) ([.!:?;,])/)$1/g
void join_close_paren_punct(std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == ')' && i + 2 < s.size() && s[i + 1] == ' ' &&
        std::string_view(".!:?;,").find(s[i + 2]) != std::string_view::npos) {
      out += ')';
      out += s[i + 2];
      i += 2;
    } else {
      out += s[i];
    }
  }
  s.swap(out);
}

// s/(\d)SEP(\d)/$1TO$2/g: consumes both digits, so "1 2 3" changes only its first gap.
// With an empty `after`, s/(\d)SEP/$1TO/g (the "(\d) %" rule, where SEP ends in '%').
void digit_rule(std::string& s, std::string_view sep, std::string_view to, bool digit_after) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    const std::size_t next = i + 1 + sep.size();
    if (is_digit(s[i]) && s.compare(i + 1, sep.size(), sep) == 0 &&
        (!digit_after || (next < s.size() && is_digit(s[next])))) {
      out += s[i];
      out += to;
      if (digit_after) out += s[next];
      i = digit_after ? next : next - 1;
    } else {
      out += s[i];
    }
  }
  s.swap(out);
}

// s/([a-z])QUOTE([a-z])/$1'$2/gi
void join_letter_quote_letter(std::string& s, std::string_view quote) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    const std::size_t next = i + 1 + quote.size();
    if (is_ascii_letter(s[i]) && s.compare(i + 1, quote.size(), quote) == 0 && next < s.size() &&
        is_ascii_letter(s[next])) {
      out += s[i];
      out += '\'';
      out += s[next];
      i = next;
    } else {
      out += s[i];
    }
  }
  s.swap(out);
}

// English: s/"([,.]+)/$1"/g
void move_quote_after_punct(std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    std::size_t j = i + 1;
    if (s[i] == '"') {
      while (j < s.size() && (s[j] == ',' || s[j] == '.')) ++j;
    }
    if (s[i] == '"' && j > i + 1) {
      out.append(s, i + 1, j - i - 1);
      out += '"';
      i = j - 1;
    } else {
      out += s[i];
    }
  }
  s.swap(out);
}

// Other languages: s/(\.+)"(\s*[^<])/"$1$2/g. [^<] is any byte but '<', the newline
// included, which is why a final ." moves too.
void move_quote_before_periods(std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    if (s[i] != '.') {
      out += s[i++];
      continue;
    }
    std::size_t dots_end = i;
    while (dots_end < s.size() && s[dots_end] == '.') ++dots_end;
    bool matched = false;
    std::size_t tail_end = 0;
    if (dots_end < s.size() && s[dots_end] == '"') {
      // \s* is greedy and backtracks: the longest white run followed by a non-'<' byte.
      std::size_t ws_end = dots_end + 1;
      while (ws_end < s.size() && is_ascii_space(s[ws_end])) ++ws_end;
      for (std::size_t k = ws_end;; --k) {
        if (k < s.size() && s[k] != '<') {
          matched = true;
          tail_end = k + 1;
          break;
        }
        if (k == dots_end + 1) break;
      }
    }
    if (matched) {
      out += '"';
      out.append(s, i, dots_end - i);
      out.append(s, dots_end + 1, tail_end - dots_end - 1);
      i = tail_end;
    } else {
      // A leftmost match can only start at the first period of a run.
      out.append(s, i, dots_end - i);
      i = dots_end;
    }
  }
  s.swap(out);
}

}  // namespace

std::string normalize_punctuation(std::string_view line, const std::string& language) {
  std::string s(line);
  s += '\n';
  replace_all(s, "\r", "");
  // remove extra spaces
  replace_all(s, "(", " (");
  replace_all(s, ")", ") ");
  squeeze_spaces(s);
  join_close_paren_punct(s);
  replace_all(s, "( ", "(");
  replace_all(s, " )", ")");
  digit_rule(s, " %", "%", false);
  replace_all(s, " :", ":");
  replace_all(s, " ;", ";");
  // ASCII quote pairs (the script's -penn option, never used here, keeps them)
  replace_all(s, "`", "'");
  replace_all(s, "''", " \" ");
  // typographic quotes and dashes
  replace_all(s, "\xE2\x80\x9E", "\"");  // „
  replace_all(s, "\xE2\x80\x9C", "\"");  // “
  replace_all(s, "\xE2\x80\x9D", "\"");  // ”
  replace_all(s, "\xE2\x80\x93", "-");   // –
  replace_all(s, "\xE2\x80\x94", " - "); // —
  squeeze_spaces(s);
  replace_all(s, "\xC2\xB4", "'");  // ´
  join_letter_quote_letter(s, "\xE2\x80\x98");  // ‘
  join_letter_quote_letter(s, "\xE2\x80\x99");  // ’
  replace_all(s, "\xE2\x80\x98", "\"");  // ‘
  replace_all(s, "\xE2\x80\x9A", "\"");  // ‚
  replace_all(s, "\xE2\x80\x99", "\"");  // ’
  replace_all(s, "''", "\"");
  replace_all(s, "\xC2\xB4\xC2\xB4", "\"");  // ´´
  replace_all(s, "\xE2\x80\xA6", "...");     // …
  // French quotes, with non-breaking spaces inside
  const std::string open = "\xC2\xAB", close = "\xC2\xBB";  // « »
  replace_all(s, std::string(kNbsp) + open + std::string(kNbsp), " \"");
  replace_all(s, open + std::string(kNbsp), "\"");
  replace_all(s, open, "\"");
  replace_all(s, std::string(kNbsp) + close + std::string(kNbsp), "\" ");
  replace_all(s, std::string(kNbsp) + close, "\"");
  replace_all(s, close, "\"");
  // non-breaking spaces used as pseudo-spaces
  replace_all(s, "\xC2\xA0%", "%");
  replace_all(s, "n\xC2\xBA\xC2\xA0", "n\xC2\xBA ");  // nº
  replace_all(s, "\xC2\xA0:", ":");
  replace_all(s, "\xC2\xA0\xC2\xBA" "C", " \xC2\xBA" "C");  // ºC
  replace_all(s, "\xC2\xA0" "cm", " cm");
  replace_all(s, "\xC2\xA0?", "?");
  replace_all(s, "\xC2\xA0!", "!");
  replace_all(s, "\xC2\xA0;", ";");
  replace_all(s, ",\xC2\xA0", ", ");
  squeeze_spaces(s);

  if (language == "en") {
    move_quote_after_punct(s);  // "quotation," style
  } else if (language == "cs" || language == "cz") {
    // the script leaves Czech alone
  } else {
    replace_all(s, ",\"", "\",");  // "quotation", style
    move_quote_before_periods(s);
  }

  const bool comma_groups = language == "de" || language == "es" || language == "cz" ||
                            language == "cs" || language == "fr";
  digit_rule(s, kNbsp, comma_groups ? "," : ".", true);

  if (!s.empty() && s.back() == '\n') s.pop_back();
  return s;
}

}  // namespace rnnsearch::text
