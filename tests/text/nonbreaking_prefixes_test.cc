// Nonbreaking prefix lists: the Moses file format and the built-in lists.
#include <boost/test/unit_test.hpp>

#include "support/shared_data.h"
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

BOOST_AUTO_TEST_SUITE_END()
