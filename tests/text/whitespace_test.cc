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
