// Whitespace exactly as Python's str.split() / str.rstrip() see it.
#include <boost/test/unit_test.hpp>

#include "text/unicode.h"
#include "text/whitespace.h"

using namespace rnnsearch::text;

namespace {

std::vector<std::string> split(std::string_view s) {
  std::vector<std::string_view> views;
  split_white_space(s, views);
  return {views.begin(), views.end()};
}

}  // namespace

BOOST_AUTO_TEST_CASE(split_on_ascii_and_unicode_spaces) {
  BOOST_TEST(split("  a\tb\n c  ") == (std::vector<std::string>{"a", "b", "c"}), boost::test_tools::per_element());
  // U+00A0 no-break space, U+3000 ideographic space and U+2009 thin space split in Python.
  BOOST_TEST(split("a\xC2\xA0" "b\xE3\x80\x80" "c\xE2\x80\x89" "d") ==
                 (std::vector<std::string>{"a", "b", "c", "d"}),
             boost::test_tools::per_element());
  // U+200B zero-width space is not whitespace for Python.
  BOOST_TEST(split("a\xE2\x80\x8B" "b").size() == 1u);
  BOOST_TEST(split("").empty());
  BOOST_TEST(split(" \t ").empty());
}

BOOST_AUTO_TEST_CASE(rstrip_and_strip) {
  BOOST_TEST(rstrip("abc \t\xC2\xA0") == "abc");
  BOOST_TEST(rstrip("\xC3\xA9t\xC3\xA9 ") == "\xC3\xA9t\xC3\xA9");
  BOOST_TEST(strip("\x1F x y \x0B") == "x y");
  BOOST_TEST(rstrip("   ").empty());
}

BOOST_AUTO_TEST_CASE(lowercase_is_full_unicode) {
  BOOST_TEST(lowercase("ABC def") == "abc def");
  BOOST_TEST(lowercase("\xC3\x84PFEL") == "\xC3\xA4pfel");                 // ÄPFEL
  BOOST_TEST(lowercase("\xCE\x9F\xCE\x94\xCE\x9F\xCE\xA3") == "\xCE\xBF\xCE\xB4\xCE\xBF\xCF\x82");  // final sigma
  BOOST_TEST(lowercase("\xC4\xB0") == "i\xCC\x87");                        // İ -> i + combining dot
}

BOOST_AUTO_TEST_CASE(lowercase_fast_path_agrees_with_full_case_mapping) {
  BOOST_TEST(lowercase("\xC3\x89T\xC3\x89 \xC5\xB8") == "\xC3\xA9t\xC3\xA9 \xC3\xBF");  // ÉTÉ Ÿ
  BOOST_TEST(lowercase("\xD0\x9C\xD0\x9E\xD0\xA1\xD0\x9A\xD0\x92\xD0\x90") ==
             "\xD0\xBC\xD0\xBE\xD1\x81\xD0\xBA\xD0\xB2\xD0\xB0");                         // МОСКВА
  BOOST_TEST(lowercase("\xCE\xA3\xCE\x91\xCE\xA3") == "\xCF\x83\xCE\xB1\xCF\x82");        // ΣΑΣ -> σας
  BOOST_TEST(lowercase("\xEF\xBC\xA1") == "\xEF\xBD\x81");                                 // fullwidth A
  BOOST_TEST(lowercase("\xF0\x90\x90\x80") == "\xF0\x90\x90\xA8");                         // Deseret
}
