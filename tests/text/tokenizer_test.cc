// The Moses tokenizer: rule-by-rule cases, then the goldens of shared/golden/moses (tok/,
// multi30k_tok/) line by line. Every golden file must match on at least 99.5% of its
// lines, and every differing line must be listed, with its reason, in
// tokenizer_known_differences.tsv; a listed line that now matches fails too.
#include <boost/test/unit_test.hpp>

#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "support/golden_cases.h"
#include "support/gzip_text.h"
#include "support/shared_data.h"
#include "text/nonbreaking_prefixes.h"
#include "text/tokenizer.h"
#include "util/error.h"

using rnnsearch::text::NonbreakingPrefixes;
using rnnsearch::text::Tokenizer;
using rnnsearch::text::TokenizerOptions;
namespace rt = rnnsearch::testing;

namespace {

NonbreakingPrefixes golden_prefixes(const std::string& language) {
  return NonbreakingPrefixes::from_file(
      rt::shared_path("golden/moses/nonbreaking_prefixes/nonbreaking_prefix." + language));
}

TokenizerOptions options_for(const std::string& language, bool aggressive = false, bool escape = true) {
  TokenizerOptions options;
  options.language = language;
  options.aggressive = aggressive;
  options.escape = escape;
  return options;
}

// Tokenizes with the project's built-in prefix list.
std::string tok(const TokenizerOptions& options, const std::string& line) {
  return Tokenizer(options, NonbreakingPrefixes::built_in(options.language)).tokenize(line);
}

void check_tok(const TokenizerOptions& options, const std::string& in, const std::string& expected) {
  BOOST_TEST(tok(options, in) == expected, "-l " << options.language << (options.aggressive ? " -a" : "")
                                                 << (options.escape ? "" : " -no-escape") << " on [" << in << "]");
}

void check_en(const std::string& in, const std::string& expected) { check_tok(options_for("en"), in, expected); }

// Lines of a file that ends with a newline, kept byte for byte.
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines = rt::split(text, '\n');
  if (!lines.empty() && lines.back().empty()) lines.pop_back();
  return lines;
}

std::vector<std::string> read_lines(const std::string& path) { return lines_of(rt::read_file(path)); }


// (file, 1-based line) -> reason, from tokenizer_known_differences.tsv.
std::map<std::pair<std::string, std::size_t>, std::string> known_differences() {
  std::map<std::pair<std::string, std::size_t>, std::string> known;
  const std::string path = rt::source_dir() + "/tests/text/tokenizer_known_differences.tsv";
  for (const std::string& line : read_lines(path)) {
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> fields = rt::split(line, '\t');
    BOOST_REQUIRE_MESSAGE(fields.size() == 3, path << ": expected file<TAB>line<TAB>reason: " << line);
    known[{fields[0], std::stoul(fields[1])}] = fields[2];
  }
  return known;
}

// Compares `tokenizer` on `input` with the golden file `name` (relative to golden/moses).
void check_golden(const std::string& name, const std::vector<std::string>& input, const Tokenizer& tokenizer) {
  const std::string path = rt::shared_path("golden/moses/" + name);
  if (!rt::require_shared(path)) return;
  const std::vector<std::string> expected = read_lines(path);
  BOOST_REQUIRE_EQUAL(input.size(), expected.size());
  static const auto known = known_differences();
  std::size_t same = 0;
  for (std::size_t i = 0; i < input.size(); ++i) {
    const std::string got = tokenizer.tokenize(input[i]);
    const bool listed = known.count({name, i + 1}) != 0;
    if (got == expected[i]) {
      ++same;
      BOOST_TEST(!listed, name << ":" << i + 1 << " is listed as a known difference but now matches");
    } else {
      BOOST_TEST(listed, name << ":" << i + 1 << " differs\n  input:    [" << input[i] << "]\n  expected: ["
                              << expected[i] << "]\n  got:      [" << got << "]");
    }
  }
  const double rate = input.empty() ? 1.0 : static_cast<double>(same) / input.size();
  BOOST_TEST_MESSAGE(name << ": " << same << "/" << input.size() << " lines identical");
  BOOST_TEST(rate >= 0.995, name << ": only " << same << " of " << input.size() << " lines identical");
}

}  // namespace

BOOST_AUTO_TEST_SUITE(tokenizer)

BOOST_AUTO_TEST_CASE(collapses_and_trims_white_space) {
  check_en("  a \t b\xC2\xA0\xC2\xA0" "c  ", "a b c");
  check_en("", "");
  check_en("   ", "   ");  // blank lines are printed as they are
  check_en("a\x01" "b", "ab");  // control characters are deleted
}

BOOST_AUTO_TEST_CASE(splits_off_symbols_and_punctuation) {
  check_en("Hello, world!", "Hello , world !");
  check_en("(a) [b] {c}", "( a ) &#91; b &#93; { c }");
  check_en("x+y=z", "x + y = z");
  check_en("50%", "50 %");
  check_en("\xE2\x82\xAC" "5", "\xE2\x82\xAC 5");  // euro sign
}

BOOST_AUTO_TEST_CASE(escapes_xml_and_factor_characters) {
  check_en("a & b | c < d > e \" f [ g ]", "a &amp; b &#124; c &lt; d &gt; e &quot; f &#91; g &#93;");
  check_tok(options_for("en", false, false), "a & b | \"c\"", "a & b | \" c \"");
}

BOOST_AUTO_TEST_CASE(keeps_commas_inside_numbers) {
  check_en("1,000 and 2,5", "1,000 and 2,5");
  check_en("a,b", "a , b");
  check_en("5,a", "5 , a");
  check_en("a,5", "a , 5");
  check_en("in 1990,", "in 1990 ,");
  check_en("A,B,C,D", "A , B , C , D");
}

BOOST_AUTO_TEST_CASE(keeps_multi_dot_runs_whole) {
  check_en("Wait... what", "Wait ... what");
  check_en("the end...", "the end ...");
  check_en("a..b", "a .. b");
  check_en("...,", "... ,");
}

BOOST_AUTO_TEST_CASE(splits_hyphens_with_a) {
  check_tok(options_for("en", true), "state-of-the-art", "state @-@ of @-@ the @-@ art");
  check_tok(options_for("en", true), "a-b-c x-", "a @-@ b @-@ c x-");
  check_en("state-of-the-art", "state-of-the-art");
}

BOOST_AUTO_TEST_CASE(applies_the_english_apostrophe_rule) {
  check_en("don't", "don &apos;t");
  check_en("Peter's", "Peter &apos;s");
  check_en("the '90s", "the &apos; 90s");
  check_en("1990's", "1990 &apos;s");
  check_en("Joneses' house", "Joneses &apos; house");
}

BOOST_AUTO_TEST_CASE(applies_the_french_apostrophe_rule) {
  check_tok(options_for("fr"), "L'homme", "L&apos; homme");
  check_tok(options_for("it"), "dell'arte", "dell&apos; arte");
}

BOOST_AUTO_TEST_CASE(splits_apostrophes_on_both_sides_elsewhere) {
  check_tok(options_for("de"), "geht's", "geht &apos; s");
  check_tok(options_for("cs"), "a'b", "a &apos; b");
}

BOOST_AUTO_TEST_CASE(splits_final_periods_unless_protected) {
  check_en("Mr. Smith is here.", "Mr. Smith is here .");
  check_en("the U.S. and the U.K.", "the U.S. and the U.K.");
  check_en("No. 5 and No. One", "No. 5 and No . One");  // numeric-only prefix
  check_en("end. of", "end. of");  // a lowercase word follows
  check_en("end. Of", "end . Of");
  check_en("'Quoted.'", "&apos;Quoted . &apos; ");  // the script's trailing space
}

BOOST_AUTO_TEST_CASE(rejects_invalid_utf8) {
  BOOST_CHECK_THROW(tok(options_for("en"), "a\xFF" "b"), rnnsearch::util::Error);
}

BOOST_AUTO_TEST_CASE(lowercases_and_normalizes_first_when_asked) {
  TokenizerOptions options = options_for("en");
  options.lowercase = true;
  options.normalize_punctuation = true;
  // lowercase, then “ ” become " and the English rule moves the comma inside the quotes
  check_tok(options, "He said \xE2\x80\x9CHi\xE2\x80\x9D, then LEFT.", "he said &quot; hi , &quot; then left .");
}

BOOST_AUTO_TEST_CASE(is_usable_from_several_threads) {
  const Tokenizer tokenizer(options_for("en"), NonbreakingPrefixes::built_in("en"));
  const std::string line = "Mr. Smith's car, the U.S. one, costs $1,000... doesn't it?";
  const std::string expected = tokenizer.tokenize(line);
  std::vector<std::thread> threads;
  std::vector<int> ok(4, 1);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 2000; ++i) ok[t] &= tokenizer.tokenize(line) == expected;
    });
  }
  for (auto& thread : threads) thread.join();
  for (int t = 0; t < 4; ++t) BOOST_TEST(ok[t] == 1);
}

BOOST_AUTO_TEST_CASE(matches_moses_on_the_goldens) {
  const std::vector<std::pair<std::string, TokenizerOptions>> variants = {
      {"plain", options_for("")}, {"a", options_for("", true)}, {"noesc", options_for("", false, false)},
      {"a.noesc", options_for("", true, false)}};
  for (const std::string language : {"en", "de", "fr"}) {
    const std::string prefix_path =
        rt::shared_path("golden/moses/nonbreaking_prefixes/nonbreaking_prefix." + language);
    if (!rt::require_shared(prefix_path)) return;
    const NonbreakingPrefixes prefixes = golden_prefixes(language);
    const auto val = read_lines(rt::shared_path("golden/moses/input/val." + language));
    const auto tricky = read_lines(rt::shared_path("golden/moses/input/tricky.txt"));
    for (auto [suffix, options] : variants) {
      options.language = language;
      const Tokenizer tokenizer(options, prefixes);
      check_golden("tok/val." + language + ".tok." + suffix, val, tokenizer);
      check_golden("tok/tricky.tok-" + language + "." + suffix, tricky, tokenizer);
    }
    TokenizerOptions pipeline = options_for(language);
    pipeline.lowercase = true;
    pipeline.normalize_punctuation = true;
    check_golden("tok/tricky.lc.norm.tok-" + language, tricky, Tokenizer(pipeline, prefixes));
  }
}

BOOST_AUTO_TEST_CASE(reproduces_the_multi30k_tokenized_files) {
  for (const std::string language : {"en", "de", "fr", "cs"}) {
    const std::string prefix_path =
        rt::shared_path("golden/moses/nonbreaking_prefixes/nonbreaking_prefix." + language);
    if (!rt::require_shared(prefix_path)) return;
    TokenizerOptions options = options_for(language);
    options.lowercase = true;
    options.normalize_punctuation = true;
    const Tokenizer tokenizer(options, golden_prefixes(language));
    for (const std::string split : {"val", "test_2016_flickr"}) {
      const std::string raw = rt::shared_path("data/multi30k/" + split + "." + language + ".gz");
      if (!rt::require_shared(raw)) continue;
      check_golden("multi30k_tok/" + split + ".lc.norm.tok." + language, rnnsearch::testing::gunzip_lines(raw), tokenizer);
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
