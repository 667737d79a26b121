// clean-corpus-n.perl's rules one at a time (text/clean_corpus.h). Every expectation was
// checked against the script (mosesdecoder commit 34452895f350bf097b21ee514a529a1dc542243c,
// perl 5.36) or against its regular expressions run in that perl; the streaming driver is
// tested through the command line in tests/cli/clean_cli_test.cc.
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "support/error_message.h"
#include "support/temp_dir.h"
#include "text/clean_corpus.h"
#include "text/unicode.h"
#include "util/error.h"
#include "util/utf8.h"

using namespace rnnsearch::text;
namespace rt = rnnsearch::testing;

namespace {

CleanOptions config(std::size_t min_words, std::size_t max_words) {
  CleanOptions cfg;
  cfg.corpus = "corpus";
  cfg.lang1 = "en";
  cfg.lang2 = "fr";
  cfg.clean = "clean";
  cfg.min_words = min_words;
  cfg.max_words = max_words;
  return cfg;
}

// "kept" or the drop reason's key.
std::string verdict(std::string_view side1, std::string_view side2, const CleanOptions& cfg) {
  const auto drop = judge_pair(side1, side2, cfg);
  return drop ? drop_reason_key(*drop) : "kept";
}

// `n` space-separated words.
std::string words(std::size_t n) {
  std::string s;
  for (std::size_t i = 0; i < n; ++i) s += i == 0 ? "w" : " w";
  return s;
}

std::string usage_message(const std::function<void()>& call) {
  try {
    call();
  } catch (const rnnsearch::util::UsageError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(clean_corpus_rules)

BOOST_AUTO_TEST_CASE(perl_space_is_unicode_white_space) {
  // Every code point perl 5.36 matches with \s in a character string, and its UTF-8 length.
  const std::vector<std::pair<std::string, std::size_t>> spaces = {
      {"\t", 1},           {"\n", 1},           {"\v", 1},           {"\f", 1},           {"\r", 1},
      {" ", 1},            {"\xC2\x85", 2},     {"\xC2\xA0", 2},     {"\xE1\x9A\x80", 3}, {"\xE2\x80\x80", 3},
      {"\xE2\x80\x85", 3}, {"\xE2\x80\x8A", 3}, {"\xE2\x80\xA8", 3}, {"\xE2\x80\xA9", 3}, {"\xE2\x80\xAF", 3},
      {"\xE2\x81\x9F", 3}, {"\xE3\x80\x80", 3}};
  for (const auto& [s, length] : spaces) {
    BOOST_TEST(perl_space_length(s + "x", 0) == length, "U+" << std::hex << static_cast<unsigned>(s[0]));
    BOOST_TEST(is_perl_space(rnnsearch::util::to_u32(s)[0]));  // ICU agrees
  }
  // Not \s: U+001C (Python's isspace says yes), U+200B, U+FEFF, U+180E (no longer
  // White_Space), U+00A1, U+2030, letters.
  for (const std::string s : {"\x1C", "\xE2\x80\x8B", "\xEF\xBB\xBF", "\xE1\xA0\x8E", "\xC2\xA1", "\xE2\x80\xB0", "a",
                              "\xC3\xA9", "\xE3\x80\x81"}) {
    BOOST_TEST(perl_space_length(s, 0) == 0u, s);
  }
  BOOST_TEST(perl_space_length("a b", 1) == 1u);
}

BOOST_AUTO_TEST_CASE(sides_lose_pipes_and_spaces_collapse) {
  BOOST_TEST(clean_side("  a | b\t c \r", false) == "a b c");
  BOOST_TEST(clean_side("a|b||c", false) == "abc");
  BOOST_TEST(clean_side("|", false) == "");
  BOOST_TEST(clean_side(" | ", false) == "");
  // NBSP, U+3000, U+2028, U+0085, VT and FF are \s; U+200B is not.
  BOOST_TEST(clean_side("A\xC2\xA0\xC2\xA0" "B\xE3\x80\x80" "C", false) == "A B C");
  BOOST_TEST(clean_side("\xE2\x80\xA8x\xC2\x85y\v\fz\xC2\xA0", false) == "x y z");
  BOOST_TEST(clean_side("a\xE2\x80\x8B" "b", false) == "a\xE2\x80\x8B" "b");
  // Factored: the pipes stay.
  BOOST_TEST(clean_side(" a|N  b|V ", true) == "a|N b|V");
  BOOST_TEST(clean_side("a | b", true) == "a | b");
}

BOOST_AUTO_TEST_CASE(a_pipe_on_the_first_line_makes_the_corpus_factored) {
  BOOST_TEST(is_factored("a|N", "b"));
  BOOST_TEST(is_factored("a", "b|V"));
  BOOST_TEST(!is_factored("a b", "c d"));
}

BOOST_AUTO_TEST_CASE(words_are_split_on_single_spaces) {
  BOOST_TEST(count_words("a b c", false) == 3u);
  BOOST_TEST(count_words("", false) == 0u);
  BOOST_TEST(count_words("<a b> c", false) == 3u);
}

BOOST_AUTO_TEST_CASE(xml_tags_are_matched_as_the_script_matches_them) {
  // word_count() with -ignore-xml, as perl counts each.
  const std::vector<std::pair<std::string, std::size_t>> cases = {
      {"a b c", 3},  {"", 0},          {"<a b> c", 1}, {"<a>", 1},          {"<ab>", 0},     {"x<b>y", 1},
      {"<a >b", 2},  {"< a>", 2},      {"<<x>>", 0},   {"<>>>", 0},         {"a <b c d> e", 2}, {"<>ab>", 0},
      {"<a>b>", 1},  {"<a> b>", 2},    {"<a b>> c", 1}, {"<b>word</b>", 1}, {"<a\xC3\xA9>", 0}};
  for (const auto& [side, count] : cases) BOOST_TEST(count_words(side, true) == count, "[" << side << "]");
  BOOST_TEST(xml_tag_end("<a b>> c", 0) == 6u);  // the last \S is the first ">"
  BOOST_TEST(xml_tag_end("<a>b>", 0) == 0u);
  BOOST_TEST(xml_tag_end("x<ab>", 1) == 5u);
}

BOOST_AUTO_TEST_CASE(word_length_is_counted_in_code_points_between_spaces_and_pipes) {
  BOOST_TEST(!has_long_word("abc de", 3));
  BOOST_TEST(has_long_word("abcd e", 3));
  BOOST_TEST(!has_long_word("ab|cd", 3));  // factors count one by one
  BOOST_TEST(!has_long_word("\xC3\xA9\xC3\xA9\xC3\xA9", 3));  // ééé: 6 bytes, 3 characters
  BOOST_TEST(has_long_word("\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9", 3));
  BOOST_TEST(has_long_word("\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E", 2));  // 日本語
  BOOST_TEST(has_long_word("a", 0));
}

BOOST_AUTO_TEST_CASE(blank_factors_are_found) {
  BOOST_TEST(has_blank_factor("a |b"));
  BOOST_TEST(has_blank_factor("a||b"));
  BOOST_TEST(!has_blank_factor("a|b c|d"));
  BOOST_TEST(!has_blank_factor("|a b|"));  // [ |]\| needs a character before the pipe
  BOOST_TEST(!has_blank_factor("a| b"));
}

BOOST_AUTO_TEST_CASE(lowercasing_is_perls_lc) {
  // İ becomes i + U+0307; Σ is σ wherever it stands (no final-sigma rule); ẞ is ß.
  BOOST_TEST(perl_lowercase("\xC4\xB0STANBUL") == "i\xCC\x87stanbul");
  BOOST_TEST(perl_lowercase("\xCE\x9F\xCE\x94\xCE\x9F\xCE\xA3") == "\xCE\xBF\xCE\xB4\xCE\xBF\xCF\x83");
  BOOST_TEST(perl_lowercase("\xE1\xBA\x9E") == "\xC3\x9F");
  BOOST_TEST(perl_lowercase("\xC7\x85") == "\xC7\x86");  // ǅ
}

BOOST_AUTO_TEST_CASE(the_first_rule_that_applies_drops_the_pair) {
  const auto cfg = config(2, 5);
  BOOST_TEST(verdict("", "a b", cfg) == "empty");
  BOOST_TEST(verdict("a b", "", cfg) == "empty");
  BOOST_TEST(verdict(words(5), words(5), cfg) == "kept");
  BOOST_TEST(verdict(words(6), words(5), cfg) == "too-long");
  BOOST_TEST(verdict(words(2), words(6), cfg) == "too-long");
  BOOST_TEST(verdict(words(1), words(2), cfg) == "too-short");
  BOOST_TEST(verdict(words(6), words(1), cfg) == "too-long");  // MAX is checked before MIN
  auto identical = cfg;
  BOOST_TEST(verdict("a b", "a b", identical) == "kept");
  identical.drop_identical = true;
  BOOST_TEST(verdict("a b", "a b", identical) == "identical");
  BOOST_TEST(verdict("a b", "a c", identical) == "kept");
}

BOOST_AUTO_TEST_CASE(the_length_ratio_is_compared_as_perl_divides) {
  auto cfg = config(1, 80);
  BOOST_TEST(verdict(words(9), words(1), cfg) == "kept");  // 9 is not above 9
  BOOST_TEST(verdict(words(1), words(9), cfg) == "kept");
  BOOST_TEST(verdict(words(10), words(1), cfg) == "ratio");
  BOOST_TEST(verdict(words(1), words(10), cfg) == "ratio");
  BOOST_TEST(verdict(words(19), words(2), cfg) == "ratio");  // 9.5
  cfg.ratio = 1.5;
  BOOST_TEST(verdict(words(3), words(2), cfg) == "kept");
  BOOST_TEST(verdict(words(2), words(3), cfg) == "kept");
  BOOST_TEST(verdict(words(5), words(3), cfg) == "ratio");  // 1.67
  BOOST_TEST(verdict(words(3), words(5), cfg) == "ratio");
  cfg.ignore_ratio = true;
  BOOST_TEST(verdict(words(50), words(1), cfg) == "kept");
}

BOOST_AUTO_TEST_CASE(xml_tags_are_not_words_with_ignore_xml) {
  auto cfg = config(2, 3);
  cfg.ignore_xml = true;
  BOOST_TEST(verdict("<em> a b </em>", "a b", cfg) == "kept");  // 2 words, not 4
  BOOST_TEST(verdict("<em> a </em>", "a b", cfg) == "too-short");
  cfg.ignore_xml = false;
  BOOST_TEST(verdict("<em> a b </em>", "a b", cfg) == "too-long");
}

BOOST_AUTO_TEST_CASE(a_side_of_tags_alone_has_an_undefined_ratio) {
  auto cfg = config(0, 80);
  cfg.ignore_xml = true;
  BOOST_CHECK_EXCEPTION(judge_pair("<ab>", "a", cfg), UndefinedRatio,
                        [](const UndefinedRatio& e) { return e.side == 1; });
  BOOST_CHECK_EXCEPTION(judge_pair("a", "<ab>", cfg), UndefinedRatio,
                        [](const UndefinedRatio& e) { return e.side == 2; });
  cfg.ignore_ratio = true;
  BOOST_TEST(verdict("<ab>", "a", cfg) == "kept");
  cfg.ignore_ratio = false;
  cfg.min_words = 1;
  BOOST_TEST(verdict("<ab>", "a", cfg) == "too-short");
}

BOOST_AUTO_TEST_CASE(long_words_drop_the_pair) {
  auto cfg = config(1, 80);
  cfg.max_word_length = 3;
  BOOST_TEST(verdict("abc d", "\xC3\xA9\xC3\xA9\xC3\xA9", cfg) == "kept");
  BOOST_TEST(verdict("abc d", "\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9", cfg) == "long-word");
  BOOST_TEST(verdict("abcd", "a", cfg) == "long-word");
}

BOOST_AUTO_TEST_CASE(arguments_and_options_are_checked) {
  CleanOptions cfg;
  cfg.set_arguments({"corpus", "en", "fr", "clean", "1", "80", "kept.lines"});
  BOOST_TEST(cfg.input_path(cfg.lang2) == "corpus.fr");
  BOOST_TEST(cfg.output_path(cfg.lang1) == "clean.en");
  BOOST_TEST(cfg.min_words == 1u);
  BOOST_TEST(cfg.max_words == 80u);
  BOOST_TEST(cfg.retained == "kept.lines");
  cfg.validate();
  BOOST_TEST(usage_message([&] { cfg.set_arguments({"corpus", "en", "fr", "clean", "1"}); }) ==
             "expected CORPUS L1 L2 CLEAN MIN MAX [RETAINED], got 5 arguments");
  BOOST_TEST(usage_message([&] { cfg.set_arguments({"corpus", "en", "fr", "clean", "1", "8.5"}); }) ==
             "MAX must be a whole number of words in [0, 1000000000], got '8.5'");
  auto bad = config(5, 3);
  BOOST_TEST(usage_message([&] { bad.validate(); }) == "MIN must not exceed MAX, got 5 > 3");
  bad = config(1, 80);
  bad.ratio = 0.5;
  BOOST_TEST(usage_message([&] { bad.validate(); }) == "--ratio must be in [1, 1e+06], got 0.5");
  bad = config(1, 80);
  bad.encoding = "latin1";
  BOOST_TEST(usage_message([&] { bad.validate(); }) ==
             "--encoding must be utf8, got 'latin1' (convert the corpus with iconv first)");
  bad.encoding = "UTF-8";
  bad.validate();
  bad.lang2 = "en";
  BOOST_TEST(usage_message([&] { bad.validate(); }) == "L1 and L2 must differ, got 'en' twice");
}

BOOST_AUTO_TEST_CASE(the_summary_file_has_one_count_per_reason) {
  CleanSummary summary;
  summary.read = 10;
  summary.kept = 4;
  summary[CleanDrop::kEmpty] = 1;
  summary[CleanDrop::kTooLong] = 2;
  summary[CleanDrop::kRatio] = 3;
  BOOST_TEST(summary.dropped_total() == 6u);
  BOOST_TEST(summary_table(summary) ==
             "read\t10\nkept\t4\ndropped\t6\ninvalid-utf8\t0\nempty\t1\ntoo-long\t2\ntoo-short\t0\nratio\t3\n"
             "long-word\t0\nidentical\t0\n");
}

BOOST_AUTO_TEST_CASE(the_driver_writes_nothing_when_the_sides_differ_in_length) {
  rt::TempDir dir;
  dir.write("c.en", "a\nb\nc\n");
  dir.write("c.fr", "a\nb\n");
  auto cfg = config(1, 80);
  cfg.corpus = (dir.path() / "c").string();
  cfg.clean = (dir.path() / "out").string();
  BOOST_TEST(rt::error_message([&] { clean_corpus(cfg); }) ==
             cfg.corpus + ".fr: has 2 lines, but " + cfg.corpus + ".en has 3; the files must be line-aligned");
  BOOST_TEST(!std::filesystem::exists(cfg.clean + ".en"));
  dir.write("c.fr", "x\ny\nz\n");
  const auto summary = clean_corpus(cfg);
  BOOST_TEST(summary.read == 3u);
  BOOST_TEST(summary.kept == 3u);
  std::ifstream in(cfg.clean + ".fr");
  BOOST_TEST(std::string(std::istreambuf_iterator<char>(in), {}) == "x\ny\nz\n");
}

BOOST_AUTO_TEST_SUITE_END()
