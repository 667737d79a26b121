// sacreBLEU's BLEU tokenizers: the golden outputs of sacreBLEU 2.6.0 on the tricky
// file, byte for byte, and one table per tokenizer for its notable rules.
#include "eval/sacre_tokenizers.h"

#include <boost/test/unit_test.hpp>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "eval/sacre_token_writer.h"
#include "eval/tokenizer_zh.h"
#include "support/shared_data.h"
#include "text/whitespace.h"
#include "util/error.h"

namespace rnnsearch::eval {
namespace {

// The lines of a file, split at '\n' only (the golden script kept any other byte).
std::vector<std::string> read_lines(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  std::vector<std::string> lines;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(pos, end - pos));
    pos = end + 1;
  }
  return lines;
}

std::vector<std::string> python_split(const std::string& s) {
  std::vector<std::string_view> views;
  rnnsearch::text::split_white_space(s, views);
  return {views.begin(), views.end()};
}

std::vector<std::string> tokens_of(const SacreTokenizer& tok, const std::string& line) {
  std::vector<std::string_view> views;
  std::string buffer;
  tok.tokenize_into(line, views, buffer);
  return {views.begin(), views.end()};
}

// tokenize(in) == expected, and tokenize_into gives expected's words.
void check_tok(const std::string& name, const std::string& in, const std::string& expected) {
  const auto tok = make_sacre_tokenizer(name);
  BOOST_TEST(tok->tokenize(in) == expected, name << " on \"" << in << "\"");
  BOOST_TEST(tokens_of(*tok, in) == python_split(expected), name << " tokens of \"" << in << "\"");
}

void check_golden(const std::string& name) {
  const std::string input = testing::shared_path("golden/bleu/tokenize/tricky.txt");
  const std::string golden = testing::shared_path("golden/bleu/tokenize/tricky." + name);
  if (!testing::require_shared(input) || !testing::require_shared(golden)) return;
  const auto lines = read_lines(input);
  const auto expected = read_lines(golden);
  BOOST_TEST_REQUIRE(lines.size() == expected.size());
  BOOST_TEST_REQUIRE(lines.size() == 57u);
  const auto tok = make_sacre_tokenizer(name);
  std::size_t passed = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string got = tok->tokenize(lines[i]);
    BOOST_TEST(got == expected[i], "tricky." << name << ":" << i + 1);
    BOOST_TEST(tokens_of(*tok, lines[i]) == python_split(expected[i]),
               "tricky." << name << ":" << i + 1 << " tokens");
    if (got == expected[i]) ++passed;
  }
  BOOST_TEST_MESSAGE("tricky." << name << ": " << passed << "/" << lines.size() << " lines match");
}

}  // namespace

BOOST_AUTO_TEST_SUITE(sacre_tokenizers)

BOOST_AUTO_TEST_CASE(golden_13a) { check_golden("13a"); }
BOOST_AUTO_TEST_CASE(golden_intl) { check_golden("intl"); }
BOOST_AUTO_TEST_CASE(golden_zh) { check_golden("zh"); }
BOOST_AUTO_TEST_CASE(golden_char) { check_golden("char"); }
BOOST_AUTO_TEST_CASE(golden_none) { check_golden("none"); }

BOOST_AUTO_TEST_CASE(rules_13a) {
  check_tok("13a", "", "");
  check_tok("13a", "   ", "");
  check_tok("13a", "Hello, world.", "Hello , world .");
  // [.,] stay between digits, split off when a neighbour is a non-digit (the line
  // is padded, so a final "1990." splits).
  check_tok("13a", "1,000.50 in 1990.", "1,000.50 in 1990 .");
  check_tok("13a", "a.5 5.a .5 5.", "a . 5 5 . a . 5 5 .");
  // Runs: rule 2 takes every second mark, so an odd run after a digit keeps the
  // last mark on a following digit.
  check_tok("13a", "5..5", "5 . . 5");
  check_tok("13a", "5...5", "5 . . .5");
  check_tok("13a", "a...5", "a . . . 5");
  check_tok("13a", "a..5", "a . .5");
  check_tok("13a", "Wait...", "Wait . . .");
  // '-' splits only after a digit; ' is never split.
  check_tok("13a", "1990-2000 well-known -5 5- 1--2", "1990 - 2000 well-known -5 5 - 1 - -2");
  check_tok("13a", "don't 'x'", "don't 'x'");
  check_tok("13a", "a(b)c[d]{e}<f>g/h@i", "a ( b ) c [ d ] { e } < f > g / h @ i");
  check_tok("13a", "!\"#$%&()*+:;<=>?@[\\]^_`{|}~",
            "! \" # $ % & ( ) * + : ; < = > ? @ [ \\ ] ^ _ ` { | } ~");
  // Preprocessing: <skipped>, entities (each replaced once, in order), newlines.
  check_tok("13a", "a<skipped>b", "ab");
  check_tok("13a", "&quot;x&quot; &amp; &lt;y&gt; &apos;", "\" x \" & < y > & apos ;");
  check_tok("13a", "&amp;lt; &lt;skipped&gt;", "< < skipped >");
  check_tok("13a", "hyph-\nen a\nb", "hyphen a b");
  // Non-ASCII is never split; Unicode whitespace (NBSP, U+3000) separates,
  // U+200B (not whitespace in Python) does not.
  check_tok("13a", "€5 «x» 中文。", "€5 «x» 中文。");
  check_tok("13a", "a\u00A0b\u3000c\u200Bd", "a b c\u200Bd");
  check_tok("13a", "\ta\x0b b\x1c c\u0085", "a b c");
}

BOOST_AUTO_TEST_CASE(rules_intl) {
  check_tok("intl", "", "");
  // No padding: a mark after a number splits off only before a non-number.
  check_tok("intl", "in 1990. Then", "in 1990 . Then");
  check_tok("intl", "in 1990.", "in 1990.");
  check_tok("intl", "Hello, world.", "Hello , world .");
  check_tok("intl", "1,000.50 and 3-4", "1,000.50 and 3-4");
  // Unicode punctuation and symbols, Unicode numbers (² ٣ are \p{N}).
  check_tok("intl", "«x» €5 5° a-b", "« x » € 5 5 ° a - b");
  check_tok("intl", "2²,٣ x,٣", "2²,٣ x , ٣");
  check_tok("intl", "don't", "don ' t");
  check_tok("intl", "5'6", "5'6");
  // Runs of punctuation, as in 13a.
  check_tok("intl", "5...5", "5 . . .5");
  check_tok("intl", "5..5", "5 . . 5");
  check_tok("intl", "Wait...", "Wait . . .");
  check_tok("intl", "中文，标点。", "中文 ， 标点 。");
  // Symbols split even between numbers; emoji are So.
  check_tok("intl", "5+5=10 a😀b", "5 + 5 = 10 a 😀 b");
  check_tok("intl", "a\u00A0b\u200Bc", "a b\u200Bc");
}

BOOST_AUTO_TEST_CASE(rules_zh) {
  check_tok("zh", "", "");
  check_tok("zh", "中文，标点。", "中 文 ， 标 点 。");
  check_tok("zh", "Mixed中文English", "Mixed 中 文 English");
  // The line is stripped and not padded: marks at its ends stay on a digit.
  check_tok("zh", "  in 1990.  ", "in 1990.");
  check_tok("zh", " .5", ".5");
  check_tok("zh", "1990. x", "1990 . x");
  // sacreBLEU's table slip: U+2001..U+2A6D are split (€ — “ ” → ∑), U+200B too.
  check_tok("zh", "€5 a—b “q” x→y", "€ 5 a — b “ q ” x → y");
  check_tok("zh", "a\u200Bb", "a \u200B b");
  // No 13a unescaping or <skipped> removal.
  check_tok("zh", "&amp; <skipped>", "& amp ; < skipped >");
  // Outside the table: Hangul, kana, Latin-1.
  check_tok("zh", "한국어 かな «x»", "한국어 かな «x»");
}

BOOST_AUTO_TEST_CASE(zh_table) {
  BOOST_TEST(!is_zh_split_char(0x2000));
  BOOST_TEST(is_zh_split_char(0x2001));
  BOOST_TEST(is_zh_split_char(0x2A6D));
  BOOST_TEST(!is_zh_split_char(0x2A6E));
  BOOST_TEST(!is_zh_split_char(0x20000));  // meant, but not what Python compares
  BOOST_TEST(!is_zh_split_char(0x2F800));
  BOOST_TEST(is_zh_split_char(0x4E00));
  BOOST_TEST(is_zh_split_char(0x9FBB));
  BOOST_TEST(!is_zh_split_char(0x9FBC));
  BOOST_TEST(is_zh_split_char(0x3400));
  BOOST_TEST(is_zh_split_char(0x4DB5));
  BOOST_TEST(!is_zh_split_char(0x4DB6));
  BOOST_TEST(is_zh_split_char(0xFF01));
  BOOST_TEST(!is_zh_split_char(0xFFF0));
  BOOST_TEST(!is_zh_split_char(0xAC00));  // Hangul
  BOOST_TEST(!is_zh_split_char(0x3040));  // Hiragana
}

BOOST_AUTO_TEST_CASE(rules_char_and_none) {
  check_tok("char", "", "");
  check_tok("char", "ab c", "a b   c");
  check_tok("char", "中a\t", "中 a \t");
  check_tok("char", "é😀", "é 😀");
  check_tok("none", "  a  b\t", "  a  b\t");
  check_tok("none", "Hello, world.", "Hello, world.");
}

BOOST_AUTO_TEST_CASE(tokenize_into_reuses_buffers) {
  const auto tok = make_sacre_tokenizer("13a");
  std::vector<std::string_view> tokens{"stale"};
  std::string buffer = "stale";
  tok->tokenize_into("a, b.", tokens, buffer);
  BOOST_TEST((std::vector<std::string>(tokens.begin(), tokens.end()) ==
              std::vector<std::string>{"a", ",", "b", "."}));
  tok->tokenize_into("", tokens, buffer);
  BOOST_TEST(tokens.empty());
}

BOOST_AUTO_TEST_CASE(names_and_errors) {
  for (const std::string& name : sacre_tokenizer_names()) {
    BOOST_TEST(make_sacre_tokenizer(name)->name() == name);
  }
  BOOST_CHECK_EXCEPTION(make_sacre_tokenizer("13A"), util::UsageError, [](const util::UsageError& e) {
    return std::string(e.what()) == "unknown BLEU tokenizer '13A'; valid: none, zh, 13a, char, intl";
  });
  BOOST_CHECK_EXCEPTION(make_sacre_tokenizer("ja-mecab"), util::UsageError, [](const util::UsageError& e) {
    return std::string(e.what()).find("ja-mecab is not supported") != std::string::npos;
  });
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace rnnsearch::eval
