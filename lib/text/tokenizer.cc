#include "text/tokenizer.h"

#include <array>
#include <utility>

#include "text/french_contractions.h"
#include "text/punct_normalizer.h"
#include "text/unicode.h"
#include "util/error.h"
#include "util/utf8.h"

namespace rnnsearch::text {
namespace {

// The script works on a Perl string; here a UTF-32 string, rewritten pass by pass. Each
// pass reproduces one s///g: Perl resumes matching after the end of the previous match,
// so characters a match consumed cannot start or end the next one.
using Text = std::u32string;

// Stands for each period of a multi-dot run ("..."), which the script hides as the
// word DOTMULTI until the end. Outside Unicode, so no input character can be mistaken
// for it, and it belongs to no character class.
constexpr char32_t kRunDot = 0x110000;

// Perl's character classes, as bits.
enum : unsigned {
  kAlnum = 1,   // \p{IsAlnum}: Alphabetic or Nd
  kAlpha = 2,   // \p{IsAlpha}: Alphabetic
  kNumber = 4,  // \p{IsN}: general category N
  kLower = 8,   // \p{IsLower}: the Lowercase property
  kSpace = 16,  // \s: White_Space
  kLl = 32,     // \p{Ll}
};

constexpr std::array<unsigned char, 128> ascii_classes() {
  std::array<unsigned char, 128> t{};
  for (char32_t c = 0; c < 128; ++c) {
    unsigned v = 0;
    if (c >= 'a' && c <= 'z') v = kAlnum | kAlpha | kLower | kLl;
    if (c >= 'A' && c <= 'Z') v = kAlnum | kAlpha;
    if (c >= '0' && c <= '9') v = kAlnum | kNumber;
    if (c == ' ' || (c >= '\t' && c <= '\r')) v = kSpace;
    t[c] = static_cast<unsigned char>(v);
  }
  return t;
}
constexpr std::array<unsigned char, 128> kAsciiClasses = ascii_classes();

unsigned unicode_classes(char32_t c) {
  if (c == kRunDot) return 0;
  unsigned v = 0;
  if (is_alphabetic(c)) v |= kAlpha | kAlnum;
  if (is_number(c)) {
    v |= kNumber;
    if (is_alphanumeric(c)) v |= kAlnum;  // Nd
  }
  if (is_lowercase(c)) v |= kLower;
  if (is_lowercase_letter(c)) v |= kLl;
  if (is_perl_space(c)) v |= kSpace;
  return v;
}

inline bool has(char32_t c, unsigned cls) {
  return ((c < 128 ? kAsciiClasses[c] : unicode_classes(c)) & cls) != 0;
}

// Decodes the line; runs of white space become one space, control characters go
// (s/\s+/ /g; s/[\000-\037]//g), and the ends are trimmed.
void decode_and_clean(std::string_view line, Text& out) {
  out.clear();
  bool pending_space = false;
  for (std::size_t i = 0; i < line.size();) {
    const char32_t c = util::next_code_point(line, i);
    if (has(c, kSpace)) {
      pending_space = !out.empty();
    } else if (c >= 0x20) {
      if (pending_space) out += U' ';
      pending_space = false;
      out += c;
    }
  }
}

// s/([^\p{IsAlnum}\s\.\'\`\,\-])/ $1 /g, with ':' (fi, sv) or '·' (ca) also kept in
// words and split off afterwards unless a lowercase letter follows.
void split_special_characters(const Text& in, Text& out, const std::string& language) {
  char32_t inner = 0;
  if (language == "fi" || language == "sv") inner = U':';
  if (language == "ca") inner = U'\u00B7';
  out.clear();
  for (std::size_t i = 0; i < in.size(); ++i) {
    const char32_t c = in[i];
    const bool kept = has(c, kAlnum | kSpace) || c == U'.' || c == U'\'' || c == U'`' ||
                      c == U',' || c == U'-' || c == kRunDot;
    const bool split_inner =
        inner != 0 && c == inner && (i + 1 == in.size() || !has(in[i + 1], kLl));
    if ((kept || (c == inner && inner != 0)) && !split_inner) {
      out += c;
    } else {
      out += U' ';
      out += c;
      out += U' ';
    }
  }
}

// -a: s/([\p{IsAlnum}])\-(?=[\p{IsAlnum}])/$1 \@-\@ /g
void split_hyphens(const Text& in, Text& out) {
  out.clear();
  for (std::size_t i = 0; i < in.size(); ++i) {
    out += in[i];
    if (in[i] != U'-' && i + 2 < in.size() && in[i + 1] == U'-' && has(in[i], kAlnum) &&
        has(in[i + 2], kAlnum)) {
      out += U" @-@ ";
      ++i;
    }
  }
}

// A run of two or more periods becomes its own word: a space before it, and one after it
// unless it ends the line (the script's DOTMULTI / DOTDOTMULTI loop).
void isolate_dot_runs(const Text& in, Text& out) {
  out.clear();
  for (std::size_t i = 0; i < in.size();) {
    if (in[i] == U'.' && i + 1 < in.size() && in[i + 1] == U'.') {
      out += U' ';
      for (; i < in.size() && in[i] == U'.'; ++i) out += kRunDot;
      if (i < in.size()) out += U' ';
    } else {
      out += in[i++];
    }
  }
}

// Commas split unless between numbers:
//   s/([^\p{IsN}])[,]/$1 , /g; s/[,]([^\p{IsN}])/ , $1/g; s/([\p{IsN}])[,]$/$1 ,/g
void split_commas(Text& t, Text& tmp) {
  tmp.clear();
  for (std::size_t i = 0; i < t.size(); ++i) {
    tmp += t[i];
    if (i + 1 < t.size() && t[i + 1] == U',' && !has(t[i], kNumber)) {
      tmp += U" , ";
      ++i;
    }
  }
  t.clear();
  for (std::size_t i = 0; i < tmp.size(); ++i) {
    if (tmp[i] == U',' && i + 1 < tmp.size() && !has(tmp[i + 1], kNumber)) {
      t += U" , ";
      t += tmp[++i];
    } else {
      t += tmp[i];
    }
  }
  const std::size_t n = t.size();
  if (n >= 2 && t[n - 1] == U',' && has(t[n - 2], kNumber)) t.insert(n - 1, 1, U' ');
}

// s/(LEFT)[']( RIGHT)/$1 ' $2/g and its variants: the space before and after the
// apostrophe are each optional.
template <class Left, class Right>
void apostrophe_rule(const Text& in, Text& out, Left left, Right right, bool space_before,
                     bool space_after) {
  out.clear();
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (i + 2 < in.size() && in[i + 1] == U'\'' && left(in[i]) && right(in[i + 2])) {
      out += in[i];
      if (space_before) out += U' ';
      out += U'\'';
      if (space_after) out += U' ';
      out += in[i + 2];
      i += 2;
    } else {
      out += in[i];
    }
  }
}

void split_apostrophes(Text& t, Text& tmp, const std::string& language) {
  const auto alpha = [](char32_t c) { return has(c, kAlpha); };
  const auto not_alpha = [](char32_t c) { return !has(c, kAlpha); };
  if (language == "en") {
    // contractions split to the right: "don 't"
    apostrophe_rule(t, tmp, not_alpha, not_alpha, true, true);
    apostrophe_rule(tmp, t, [](char32_t c) { return !has(c, kAlpha | kNumber); }, alpha, true, true);
    apostrophe_rule(t, tmp, alpha, not_alpha, true, true);
    apostrophe_rule(tmp, t, alpha, alpha, true, false);
    // "1990's"
    apostrophe_rule(t, tmp, [](char32_t c) { return has(c, kNumber); },
                    [](char32_t c) { return c == U's'; }, true, false);
    t.swap(tmp);
  } else if (language == "fr" || language == "it" || language == "ga") {
    // contractions split to the left: "l' homme"
    apostrophe_rule(t, tmp, not_alpha, not_alpha, true, true);
    apostrophe_rule(tmp, t, not_alpha, alpha, true, true);
    apostrophe_rule(t, tmp, alpha, not_alpha, true, true);
    apostrophe_rule(tmp, t, alpha, alpha, false, true);
  } else {
    tmp.clear();
    for (const char32_t c : t) {
      if (c == U'\'') {
        tmp += U" ' ";
      } else {
        tmp += c;
      }
    }
    t.swap(tmp);
  }
}

std::string to_utf8(const Text& t, std::size_t from, std::size_t to) {
  std::string s;
  for (std::size_t i = from; i < to; ++i) util::append_utf8(s, t[i]);
  return s;
}

// The script's word loop: words are split on single spaces (empty words included,
// trailing ones dropped); a word ending in a period loses it to a separate token unless
// it holds another period and a letter, is a nonbreaking prefix, is followed by a word
// starting in lowercase, or is a numeric-only prefix followed by a digit.
void split_final_periods(const Text& in, Text& out, const NonbreakingPrefixes& prefixes) {
  std::size_t end = in.size();
  while (end > 0 && in[end - 1] == U' ') --end;  // split() drops trailing empty fields
  out.clear();
  if (end == 0) {
    return;
  }
  for (std::size_t start = 0; start <= end;) {
    std::size_t stop = start;
    while (stop < end && in[stop] != U' ') ++stop;
    const std::size_t next = stop + 1;  // the following word, when stop < end
    bool split = false;
    if (stop - start >= 2 && in[stop - 1] == U'.') {
      bool inner_period = false, letter = false;
      for (std::size_t k = start; k + 1 < stop; ++k) {
        inner_period = inner_period || in[k] == U'.';
        letter = letter || has(in[k], kAlpha);
      }
      const bool has_next = stop < end;
      const bool next_lower = has_next && next < end && in[next] != U' ' && has(in[next], kLower);
      if (!(inner_period && letter) && !next_lower) {
        const std::string pre = to_utf8(in, start, stop - 1);
        const bool listed = prefixes.contains(pre);
        const bool numeric_only = listed && prefixes.numeric_only(pre);
        const bool next_digit = has_next && next < end && in[next] >= U'0' && in[next] <= U'9';
        split = !(listed && !numeric_only) && !(numeric_only && next_digit);
      }
    }
    if (split) {
      out.append(in, start, stop - 1 - start);
      out += U" .";
    } else {
      out.append(in, start, stop - start);
    }
    out += U' ';
    if (stop >= end) break;
    start = next;
  }
}

// s/ +/ /g; s/^ //g; s/ $//g
void squeeze_and_trim(const Text& in, Text& out) {
  out.clear();
  for (const char32_t c : in) {
    if (c == U' ' && (out.empty() || out.back() == U' ')) continue;
    out += c;
  }
  if (!out.empty() && out.back() == U' ') out.pop_back();
}

void encode(const Text& t, bool escape, std::string& out) {
  out.clear();
  out.reserve(t.size() + t.size() / 4);
  for (const char32_t c : t) {
    if (c == kRunDot) {
      out += '.';
    } else if (c >= 128) {
      util::append_utf8(out, c);
    } else if (!escape) {
      out += static_cast<char>(c);
    } else {
      switch (c) {
        case U'&': out += "&amp;"; break;
        case U'|': out += "&#124;"; break;
        case U'<': out += "&lt;"; break;
        case U'>': out += "&gt;"; break;
        case U'\'': out += "&apos;"; break;
        case U'"': out += "&quot;"; break;
        case U'[': out += "&#91;"; break;
        case U']': out += "&#93;"; break;
        default: out += static_cast<char>(c);
      }
    }
  }
}

bool is_blank(std::string_view line) {
  for (std::size_t i = 0; i < line.size();) {
    if (!has(util::next_code_point(line, i), kSpace)) return false;
  }
  return true;
}

}  // namespace

void TokenizerOptions::validate() const {
  if (expand_contractions && language != "fr") {
    throw util::UsageError("--expand-contractions is for French (-l fr), not '" + language + "'");
  }
}

Tokenizer::Tokenizer(TokenizerOptions options, NonbreakingPrefixes prefixes)
    : options_(std::move(options)), prefixes_(std::move(prefixes)) {
  options_.validate();
}

std::string Tokenizer::tokenize(std::string_view line) const {
  const std::size_t bad = util::find_invalid_utf8(line);
  if (bad != std::string_view::npos) {
    throw util::Error("invalid UTF-8 at byte " + std::to_string(bad + 1));
  }
  std::string text = options_.lowercase ? perl_lowercase(line) : std::string(line);
  if (options_.normalize_punctuation) text = normalize_punctuation(text, options_.language);
  if (!options_.tokenized) text = tokenize_normalized(text);
  if (options_.expand_contractions) text = expand_french_contractions(text);
  if (options_.plain_hyphens) text = plain_hyphen_marks(text);
  return options_.fold_accents ? fold_accents(text) : text;
}

std::string Tokenizer::tokenize_normalized(std::string_view line) const {
  // The script prints blank lines (\s only) as they are.
  if (is_blank(line)) return std::string(line);
  Text a, b;
  a.reserve(line.size() * 2);
  b.reserve(line.size() * 2);
  decode_and_clean(line, a);
  split_special_characters(a, b, options_.language);
  if (options_.aggressive && b.find(U'-') != Text::npos) {
    split_hyphens(b, a);
    a.swap(b);
  }
  // Passes whose character is absent cannot change the text.
  if (b.find(U"..") != Text::npos) {
    isolate_dot_runs(b, a);
  } else {
    a.swap(b);
  }
  if (a.find(U',') != Text::npos) split_commas(a, b);
  if (a.find(U'\'') != Text::npos) split_apostrophes(a, b, options_.language);
  split_final_periods(a, b, prefixes_);
  squeeze_and_trim(b, a);
  // ".'" ending the line is missed above: s/\.\' ?$/ . ' /
  const std::size_t n = a.size();
  if (n >= 2 && a[n - 2] == U'.' && a[n - 1] == U'\'') {
    a.resize(n - 2);
    a += U" . ' ";
  }
  std::string out;
  encode(a, options_.escape, out);
  return out;
}

}  // namespace rnnsearch::text
