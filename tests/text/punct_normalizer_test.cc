// normalize-punctuation.perl and lowercase.perl: rule cases and the goldens of
// shared/golden/moses/norm (tricky.txt through each script).
#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

#include "support/golden_cases.h"
#include "support/shared_data.h"
#include "text/punct_normalizer.h"
#include "text/unicode.h"

using rnnsearch::text::normalize_punctuation;
namespace rt = rnnsearch::testing;

namespace {

void check_norm(const std::string& language, const std::string& in, const std::string& expected) {
  BOOST_TEST(normalize_punctuation(in, language) == expected, "-l " << language << " on [" << in << "]");
}

std::vector<std::string> read_lines(const std::string& path) {
  std::vector<std::string> lines = rt::split(rt::read_file(path), '\n');
  if (!lines.empty() && lines.back().empty()) lines.pop_back();
  return lines;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(punct_normalizer)

BOOST_AUTO_TEST_CASE(normalizes_spacing_around_brackets_and_colons) {
  check_norm("en", "a(b)c", "a (b) c");
  check_norm("en", "( a ) .", " (a).");  // " (" first, so a leading space stays
  check_norm("en", "x : y ; 5 %", "x: y; 5%");
  check_norm("en", "a   b", "a b");
}

BOOST_AUTO_TEST_CASE(maps_typographic_quotes_and_dashes) {
  check_norm("en", "\xE2\x80\x9E" "a\xE2\x80\x9C b\xE2\x80\x9D", "\"a\" b\"");
  check_norm("en", "1990\xE2\x80\x93" "2000 a\xE2\x80\x94" "b", "1990-2000 a - b");
  check_norm("en", "it\xE2\x80\x99s \xE2\x80\x98x\xE2\x80\x99", "it's \"x\"");
  check_norm("en", "``a''", " \" a \" ");  // ` to ', then '' to " with spaces
  check_norm("en", "wait\xE2\x80\xA6", "wait...");
}

BOOST_AUTO_TEST_CASE(handles_french_quotes_and_pseudo_spaces) {
  check_norm("fr", "\xC2\xAB\xC2\xA0Oui\xC2\xA0\xC2\xBB", "\"Oui\"");
  check_norm("fr", "Quoi\xC2\xA0?", "Quoi?");
  check_norm("en", "10\xC2\xA0%", "10%");
}

BOOST_AUTO_TEST_CASE(orders_quotes_and_commas_by_language) {
  check_norm("en", "\"a\", b.", "\"a,\" b.");
  check_norm("de", "\"a,\" b", "\"a\", b");
  check_norm("fr", "fin.\"", "fin\".");  // the script's [^<] matches the newline
  check_norm("cs", "fin.\"", "fin.\"");
}

BOOST_AUTO_TEST_CASE(joins_digit_groups_split_by_no_break_spaces) {
  check_norm("en", "1\xC2\xA0" "000", "1.000");
  check_norm("de", "1\xC2\xA0" "000", "1,000");
  check_norm("en", "1 000", "1 000");
}

BOOST_AUTO_TEST_CASE(lowercases_as_perl_lc) {
  BOOST_TEST(rnnsearch::text::perl_lowercase("\xC3\x84PFEL \xCE\x9F\xCE\x94\xCE\x9F\xCE\xA3") ==
             "\xC3\xA4pfel \xCE\xBF\xCE\xB4\xCE\xBF\xCF\x83");  // no final-sigma rule
  BOOST_TEST(rnnsearch::text::perl_lowercase("\xC4\xB0") == "i\xCC\x87");
}

BOOST_AUTO_TEST_CASE(matches_moses_on_the_goldens) {
  const std::string input_path = rt::shared_path("golden/moses/input/tricky.txt");
  if (!rt::require_shared(input_path)) return;
  const auto input = read_lines(input_path);
  for (const std::string language : {"en", "de", "fr"}) {
    const auto expected = read_lines(rt::shared_path("golden/moses/norm/tricky.norm-" + language));
    BOOST_REQUIRE_EQUAL(input.size(), expected.size());
    for (std::size_t i = 0; i < input.size(); ++i) {
      BOOST_TEST(normalize_punctuation(input[i], language) == expected[i], "tricky.norm-" << language << ":" << i + 1);
    }
  }
  const auto lowered = read_lines(rt::shared_path("golden/moses/norm/tricky.lc"));
  BOOST_REQUIRE_EQUAL(input.size(), lowered.size());
  for (std::size_t i = 0; i < input.size(); ++i) {
    BOOST_TEST(rnnsearch::text::perl_lowercase(input[i]) == lowered[i], "tricky.lc:" << i + 1);
  }
}

BOOST_AUTO_TEST_SUITE_END()
