// Nonbreaking prefix lists: the Moses file format and the built-in lists; the languages
// with rules (text/languages.h).
#include <boost/test/unit_test.hpp>

#include "support/error_message.h"
#include "support/shared_data.h"
#include "support/temp_dir.h"
#include "text/languages.h"
#include "text/nonbreaking_prefixes.h"
#include "util/error.h"

using rnnsearch::text::NonbreakingPrefixes;
namespace rt = rnnsearch::testing;

BOOST_AUTO_TEST_SUITE(nonbreaking_prefixes)

BOOST_AUTO_TEST_CASE(reads_the_moses_format) {
  const auto p = NonbreakingPrefixes::from_text("# comment\nMr\n\nNo #NUMERIC_ONLY#\n#Dr\nSt\n0\n");
  BOOST_TEST(p.contains("Mr"));
  BOOST_TEST(!p.numeric_only("Mr"));
  BOOST_TEST(p.contains("No"));
  BOOST_TEST(p.numeric_only("No"));
  BOOST_TEST(!p.contains("#Dr"));
  BOOST_TEST(!p.contains("Dr"));
  BOOST_TEST(!p.contains("0"));  // Perl skips a line that reads as false
  BOOST_TEST(p.size() == 3u);
}

BOOST_AUTO_TEST_CASE(the_numeric_marker_follows_the_last_space) {
  // Perl's greedy (.*)\s+#NUMERIC_ONLY#: a double space leaves one in the prefix.
  const auto p = NonbreakingPrefixes::from_text("Art  #NUMERIC_ONLY#\nNr\t#NUMERIC_ONLY#\n");
  BOOST_TEST(p.numeric_only("Art "));
  BOOST_TEST(p.numeric_only("Nr"));
}

BOOST_AUTO_TEST_CASE(has_built_in_lists) {
  BOOST_TEST(NonbreakingPrefixes::built_in("en").contains("Mr"));
  BOOST_TEST(NonbreakingPrefixes::built_in("en").numeric_only("No"));
  BOOST_TEST(NonbreakingPrefixes::built_in("de").contains("usw"));
  BOOST_TEST(NonbreakingPrefixes::built_in("de").contains("3"));
  BOOST_TEST(NonbreakingPrefixes::built_in("fr").contains("Mme"));
  BOOST_TEST(NonbreakingPrefixes::built_in("cs").contains("Ing"));
  BOOST_TEST(NonbreakingPrefixes::built_in("xx").contains("Mr"));  // English fallback
  BOOST_TEST(NonbreakingPrefixes::built_in("xa").size() == 0u);     // the demo languages have no abbreviations
  BOOST_TEST(NonbreakingPrefixes::built_in("xb").size() == 0u);
}

// The languages with rules are known and warn about nothing; any other code is named in a
// warning that lists them.
BOOST_AUTO_TEST_CASE(languages_without_rules_have_a_warning) {
  for (const std::string code : {"ca", "cs", "de", "en", "fi", "fr", "ga", "it", "sv", "xa", "xb"}) {
    BOOST_TEST(rnnsearch::text::has_rules(code), code);
    BOOST_TEST(rnnsearch::text::unknown_language_warning(code, "X").empty(), code);
  }
  BOOST_TEST(rnnsearch::text::languages_with_rules().size() == 11u);
  BOOST_TEST(!rnnsearch::text::has_rules("french"));
  BOOST_TEST(!rnnsearch::text::has_rules(""));
  BOOST_TEST(rnnsearch::text::unknown_language_warning("french", "using X") ==
             "no rules for language 'french'; using X (languages with rules: ca, cs, de, en, fi, fr, ga, it, sv, xa, "
             "xb; codes are ISO 639-1, e.g. fr)");
}

BOOST_AUTO_TEST_CASE(reads_the_golden_files) {
  const std::string path = rt::shared_path("golden/moses/nonbreaking_prefixes/nonbreaking_prefix.en");
  if (!rt::require_shared(path)) return;
  const auto p = NonbreakingPrefixes::from_file(path);
  BOOST_TEST(p.contains("Mr"));
  BOOST_TEST(p.numeric_only("No"));
  BOOST_TEST(!p.contains("Fig"));
}

BOOST_AUTO_TEST_CASE(reports_a_missing_file) {
  BOOST_CHECK_THROW(NonbreakingPrefixes::from_file("/nonexistent/prefixes"), rnnsearch::util::Error);
}

// A prefix file is UTF-8 text: random bytes are an input error naming the file and line.
BOOST_AUTO_TEST_CASE(refuses_a_file_that_is_not_utf8_text) {
  const rt::TempDir dir;
  const auto bad = dir.write("bad", "Mr\nDr\n# note \xc3\xa9\nz\xff.B\nSt\n");
  BOOST_TEST(rt::error_message([&] { NonbreakingPrefixes::from_file(bad); }) == bad + ":4: invalid UTF-8 at byte 2");
  const auto last = dir.write("last", "Mr\n\xe2\x82");  // a truncated sequence on a last line without "\n"
  BOOST_TEST(rt::error_message([&] { NonbreakingPrefixes::from_file(last); }) == last + ":2: invalid UTF-8 at byte 1");
  const auto good = dir.write("good", "Mr\r\nStra\xc3\x9f" "e\n");
  BOOST_TEST(NonbreakingPrefixes::from_file(good).contains("Stra\xc3\x9f" "e"));
}

BOOST_AUTO_TEST_SUITE_END()
