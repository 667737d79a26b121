#include "eval/ter_normalizer.h"

#include "text/unicode.h"
#include "text/whitespace.h"
#include "util/utf8.h"

// The steps below follow the re.sub calls of sacreBLEU's tokenizer_ter.py in order: a
// pattern without context becomes a character test, a literal pattern a
// non-overlapping left-to-right replacement; where passes merge, the comment says why.

namespace rnnsearch::eval {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// re.sub(from, to, s) for a literal pattern `from`.
std::string replace_all(std::string s, std::string_view from, std::string_view to) {
  std::size_t hit = s.find(from);
  if (hit == std::string::npos) return s;
  std::string out;
  out.reserve(s.size());
  std::size_t pos = 0;
  while (hit != std::string::npos) {
    out.append(s, pos, hit - pos);
    out.append(to);
    pos = hit + from.size();
    hit = s.find(from, pos);
  }
  out.append(s, pos, std::string::npos);
  return out;
}

// The class [{-~[-` -&(-+:-@/]: ASCII punctuation and symbols except ' , - . (and the
// space itself, which is harmless).
bool is_western_split_char(unsigned char c) {
  return (c >= 0x20 && c <= 0x26) || (c >= 0x28 && c <= 0x2B) || c == '/' || (c >= 0x3A && c <= 0x40) ||
         (c >= 0x5B && c <= 0x60) || (c >= 0x7B && c <= 0x7E);
}

// CJK blocks split down to single characters: Unified Ideographs and Extension A,
// Strokes, Radicals Supplement, Compatibility, Compatibility Ideographs and Forms,
// and tercom's range 3200-3F22 ("Enclosed CJK Letters and Months").
bool is_cjk_split_char(char32_t cp) {
  return (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0x3400 && cp <= 0x4DBF) || (cp >= 0x31C0 && cp <= 0x31EF) ||
         (cp >= 0x2E80 && cp <= 0x2EFF) || (cp >= 0x3300 && cp <= 0x33FF) || (cp >= 0xF900 && cp <= 0xFAFF) ||
         (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0x3200 && cp <= 0x3F22);
}

// TercomTokenizer.ASIAN_PUNCT.
bool is_asian_punct(char32_t cp) {
  return cp == 0x3001 || cp == 0x3002 || (cp >= 0x3008 && cp <= 0x3011) || (cp >= 0x3014 && cp <= 0x301F) ||
         (cp >= 0xFF61 && cp <= 0xFF65) || cp == 0x30FB;
}

// TercomTokenizer.FULL_WIDTH_PUNCT.
bool is_full_width_punct(char32_t cp) {
  switch (cp) {
    case 0xFF0E: case 0xFF0C: case 0xFF1F: case 0xFF1A: case 0xFF1B:
    case 0xFF01: case 0xFF02: case 0xFF08: case 0xFF09:
      return true;
    default:
      return false;
  }
}

// re.sub(r"\n-", "", s) then re.sub(r"\n", " ", s): the second maps the first's output
// character by character, so one scan does both.
std::string join_line_breaks(const std::string& in) {
  std::string s;
  s.reserve(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (in[i] == '\n' && i + 1 < in.size() && in[i + 1] == '-') {
      ++i;
      continue;
    }
    s.push_back(in[i] == '\n' ? ' ' : in[i]);
  }
  return s;
}

// XML entities, in this order (so "&amp;lt;" becomes "<" but "&amp;quot;" "&quot;").
std::string unescape_xml(std::string s) {
  if (s.find('&') == std::string::npos) return s;
  s = replace_all(std::move(s), "&quot;", "\"");
  s = replace_all(std::move(s), "&amp;", "&");
  s = replace_all(std::move(s), "&lt;", "<");
  s = replace_all(std::move(s), "&gt;", ">");
  return s;
}

// f" {s} " and punctuation tokenization: " \1 " around each character of the class.
std::string pad_western_punctuation(const std::string& s) {
  std::string t;
  t.reserve(s.size() * 2 + 2);
  t.push_back(' ');
  for (char c : s) {
    if (is_western_split_char(static_cast<unsigned char>(c))) {
      t.push_back(' ');
      t.push_back(c);
      t.push_back(' ');
    } else {
      t.push_back(c);
    }
  }
  t.push_back(' ');
  return t;
}

// ([^0-9])([\.,]) -> "\1 \2 ": period and comma unless preceded by a digit. The byte
// before an ASCII '.' or ',' is the last byte of the preceding character.
std::string split_period_comma_after_non_digit(const std::string& t) {
  std::string s;
  s.reserve(t.size() * 2);  // at most two spaces per two bytes
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (i + 1 < t.size() && (t[i + 1] == '.' || t[i + 1] == ',') && !is_digit(t[i])) {
      s.push_back(t[i]);
      s.push_back(' ');
      s.push_back(t[i + 1]);
      s.push_back(' ');
      ++i;
    } else {
      s.push_back(t[i]);
    }
  }
  return s;
}

// ([\.,])([^0-9]) -> " \1 \2": unless followed by a digit. The match consumes the whole
// following character before the search resumes.
std::string split_period_comma_before_non_digit(const std::string& s) {
  std::string t;
  t.reserve(s.size() * 2);
  for (std::size_t i = 0; i < s.size();) {
    if ((s[i] == '.' || s[i] == ',') && i + 1 < s.size() && !is_digit(s[i + 1])) {
      const std::size_t next = i + 1 + util::sequence_length(static_cast<unsigned char>(s[i + 1]));
      t.push_back(' ');
      t.push_back(s[i]);
      t.push_back(' ');
      t.append(s, i + 1, next - (i + 1));
      i = next;
    } else {
      t.push_back(s[i]);
      ++i;
    }
  }
  return t;
}

// ([0-9])(-) -> "\1 \2 ": dash after a digit.
std::string split_dash_after_digit(const std::string& t) {
  std::string s;
  s.reserve(t.size() * 2);
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (is_digit(t[i]) && i + 1 < t.size() && t[i + 1] == '-') {
      s.push_back(t[i]);
      s.push_back(' ');
      s.push_back('-');
      s.push_back(' ');
      ++i;
    } else {
      s.push_back(t[i]);
    }
  }
  return s;
}

// _normalize_general_and_western.
std::string normalize_western(const std::string& in) {
  std::string t = pad_western_punctuation(unescape_xml(join_line_breaks(in)));
  // Possessives: "'s " -> " 's ". The second rule, "'s$" -> " 's", never fires: the
  // padded text always ends in a space.
  t = replace_all(std::move(t), "'s ", " 's ");
  return split_dash_after_digit(split_period_comma_before_non_digit(split_period_comma_after_non_digit(t)));
}

// _normalize_asian. Every rule puts spaces around single characters of a set, so the
// passes collapse into one: extra spaces vanish in the final split. The three
// Hiragana / Katakana rules are anchored at the start of the text ("^"), which after
// the Western step always is a space, so they never match.
std::string normalize_asian(const std::string& s) {
  std::string out;
  out.reserve(s.size() + s.size() / 2);
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t start = i;
    const char32_t cp = util::next_code_point(s, i);
    const bool split = cp >= 0x2E80 && (is_cjk_split_char(cp) || is_asian_punct(cp) || is_full_width_punct(cp));
    if (split) out.push_back(' ');
    out.append(s, start, i - start);
    if (split) out.push_back(' ');
  }
  return out;
}

// _remove_punct, and _remove_asian_punct when `asian` is set.
std::string remove_punct(const std::string& s, bool asian) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      switch (c) {
        case '.': case ',': case '?': case ':': case ';': case '!': case '"': case '(': case ')':
          break;
        default:
          out.push_back(static_cast<char>(c));
      }
      ++i;
      continue;
    }
    const std::size_t start = i;
    const char32_t cp = util::next_code_point(s, i);
    if (asian && (is_asian_punct(cp) || is_full_width_punct(cp))) continue;
    out.append(s, start, i - start);
  }
  return out;
}

// Per ASCII byte: Python's whitespace (\t \n \v \f \r, the separators 0x1C-0x1F,
// space), and the byte lowercased.
struct AsciiTables {
  unsigned char space[128];  // 1 or 0
  char same[128];
  char lower[128];
  AsciiTables() {
    for (int c = 0; c < 128; ++c) {
      space[c] = (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x20);
      same[c] = static_cast<char>(c);
      lower[c] = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    }
  }
};
const AsciiTables kAscii;

// ' '.join(s.split()): Python's split() cuts at runs of Unicode whitespace. With
// `lower_ascii`, also lowercases ASCII letters.
std::string join_words(std::string_view s, bool lower_ascii) {
  std::string out(s.size(), '\0');  // whitespace runs only shrink
  const char* const map = lower_ascii ? kAscii.lower : kAscii.same;
  char* const begin = out.data();
  char* o = begin;
  unsigned gap = 1;  // at the start or after whitespace: more whitespace writes nothing
  std::size_t i = 0;
  while (i < s.size()) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      const std::size_t space = text::white_space_length(s, i);
      if (space > 0) {
        if (!gap) *o++ = ' ';
        gap = 1;
        i += space;
      } else {
        const std::size_t length = util::sequence_length(c);
        for (std::size_t k = 0; k < length; ++k) *o++ = s[i + k];
        gap = 0;
        i += length;
      }
      continue;
    }
    // Branch-free (a branch per word boundary mispredicts): write the byte, or ' '
    // for whitespace, and keep it unless it is whitespace after whitespace.
    const unsigned space = kAscii.space[c];
    const unsigned char byte = static_cast<unsigned char>(map[c]);
    *o = static_cast<char>(byte ^ ((byte ^ ' ') & (0u - space)));
    o += 1 - (space & gap);
    gap = space;
    ++i;
  }
  if (o != begin && o[-1] == ' ') --o;
  out.resize(static_cast<std::size_t>(o - begin));
  return out;
}

bool is_ascii(std::string_view s) {
  for (char c : s) {
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  }
  return true;
}

}  // namespace

std::string tercom_normalize(std::string_view sentence, const TerOptions& options) {
  if (sentence.empty()) return std::string();
  // Lowercasing first (Python's str.lower(); for ASCII text done while joining).
  std::string lowered;
  std::string_view cased = sentence;
  bool fold_ascii = false;
  if (!options.case_sensitive) {
    if (is_ascii(sentence)) {
      fold_ascii = true;
    } else {
      lowered = text::lowercase(sentence);
      cased = lowered;
    }
  }
  if (!options.normalized && !options.no_punct) return join_words(cased, fold_ascii);

  std::string s(cased);
  if (fold_ascii) {
    for (char& c : s) {
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
  }
  if (options.normalized) {
    s = normalize_western(s);
    if (options.asian_support) s = normalize_asian(s);
  }
  if (options.no_punct) s = remove_punct(s, options.asian_support);
  return join_words(s, false);
}

}  // namespace rnnsearch::eval
