// nmt-glossary match's glossary: terms found on token boundaries, the longest first, left
// to right, without overlaps; each target term once; case; the file's errors with lines.
#include <boost/test/unit_test.hpp>

#include "support/temp_dir.h"
#include "text/glossary.h"
#include "util/error.h"

using rnnsearch::text::Glossary;

namespace {

using Entries = std::vector<std::pair<std::string, std::string>>;

const Entries kTerms = {{"cat", "Katze"},          {"New York", "New York"},   {"York City", "York-Stadt"},
                        {"New York City", "NYC"},  {"heart attack", "Herzinfarkt"}, {"heart", "Herz"},
                        {"attack", "Angriff"},     {"a", "ein"}};

std::string annotate(const std::string& line, bool ignore_case = false) {
  return Glossary(kTerms, ignore_case).annotate(line);
}

// The message of the util::Error that reading `text` as a glossary file throws.
std::string file_error(const std::string& text) {
  const rnnsearch::testing::TempDir dir;
  const std::string path = dir.write("glossary", text);
  try {
    Glossary g(path, false);
  } catch (const rnnsearch::util::Error& e) {
    const std::string what = e.what();
    return what.substr(path.size());
  }
  return "no error";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(glossary)

BOOST_AUTO_TEST_CASE(terms_match_whole_tokens_only) {
  BOOST_TEST(annotate("the cat sleeps") == "the cat sleeps\tKatze");
  BOOST_TEST(annotate("two cats sleep") == "two cats sleep");
  BOOST_TEST(annotate("concatenate them") == "concatenate them");
  BOOST_TEST(annotate("the cat .") == "the cat .\tKatze");
  BOOST_TEST(annotate("the cat.") == "the cat.");  // tokenized text: "cat." is another token
  BOOST_TEST(annotate("") == "");
}

BOOST_AUTO_TEST_CASE(the_longest_term_wins_left_to_right_without_overlaps) {
  BOOST_TEST(annotate("in New York City today") == "in New York City today\tNYC");
  BOOST_TEST(annotate("in New York today") == "in New York today\tNew York");
  BOOST_TEST(annotate("in York City today") == "in York City today\tYork-Stadt");
  // "heart attack" is taken before "heart" and "attack" could be.
  BOOST_TEST(annotate("a heart attack") == "a heart attack\tein\tHerzinfarkt");
  BOOST_TEST(annotate("heart and attack") == "heart and attack\tHerz\tAngriff");
  // Left to right: "New York" starts first, so "York City" (overlapping it) is not taken.
  const Glossary two({{"New York", "NY"}, {"York City", "YC"}}, false);
  BOOST_TEST(two.annotate("New York City") == "New York City\tNY");
  BOOST_TEST(two.annotate("York City New York") == "York City New York\tYC\tNY");
}

BOOST_AUTO_TEST_CASE(each_target_term_once_in_order_of_first_match) {
  BOOST_TEST(annotate("a cat and a cat and a heart") == "a cat and a cat and a heart\tein\tKatze\tHerz");
  // Two source terms with one target term: written once.
  const Glossary same({{"automobile", "Auto"}, {"car", "Auto"}, {"bus", "Bus"}}, false);
  BOOST_TEST(same.annotate("car bus automobile") == "car bus automobile\tAuto\tBus");
}

BOOST_AUTO_TEST_CASE(spaces_are_token_separators_only) {
  BOOST_TEST(annotate("  New   York  ") == "  New   York  \tNew York");
  const Glossary spaced({{"  New  York ", " die   Stadt "}}, false);
  BOOST_TEST(spaced.size() == 1u);
  BOOST_TEST(spaced.annotate("New York") == "New York\tdie Stadt");
}

BOOST_AUTO_TEST_CASE(fields_already_there_are_kept_and_not_searched) {
  BOOST_TEST(annotate("the cat\tHund") == "the cat\tHund\tKatze");
  BOOST_TEST(annotate("the dog\tcat") == "the dog\tcat");
}

BOOST_AUTO_TEST_CASE(case_sensitive_unless_asked) {
  BOOST_TEST(annotate("The Cat sleeps") == "The Cat sleeps");
  BOOST_TEST(annotate("The Cat sleeps", true) == "The Cat sleeps\tKatze");
  BOOST_TEST(annotate("NEW YORK CITY", true) == "NEW YORK CITY\tNYC");
  const Glossary upper({{"ÉCOLE", "school"}}, true);
  BOOST_TEST(upper.annotate("une école") == "une école\tschool");
  // Source terms that differ only in case are one term under ignore_case.
  BOOST_CHECK_THROW(Glossary({{"Cat", "Katze"}, {"cat", "Kater"}}, true), rnnsearch::util::Error);
  BOOST_TEST(Glossary({{"Cat", "Katze"}, {"cat", "Kater"}}, false).annotate("cat Cat") == "cat Cat\tKater\tKatze");
}

BOOST_AUTO_TEST_CASE(the_file_is_read_with_blank_lines_skipped) {
  const rnnsearch::testing::TempDir dir;
  const std::string path = dir.write("glossary", "cat\tKatze\n\n   \n \t \nNew York\tNew York\ncat\tKatze\n");
  const Glossary g(path, false);
  BOOST_TEST(g.size() == 2u);
  BOOST_TEST(g.annotate("a cat in New York") == "a cat in New York\tKatze\tNew York");
}

BOOST_AUTO_TEST_CASE(malformed_lines_name_the_line) {
  BOOST_TEST(file_error("cat\tKatze\ndog Hund\n") == ":2: expected \"source term<TAB>target term\", found no tab");
  BOOST_TEST(file_error("cat\tKatze\tchat\n") == ":1: expected \"source term<TAB>target term\", found 2 tabs");
  BOOST_TEST(file_error("cat\tKatze\n \tHund\n") == ":2: the source term is empty");
  BOOST_TEST(file_error("cat\t  \n") == ":1: the target term is empty");
  BOOST_TEST(file_error("cat\tKatze\ndog\tHund\ncat\tKater\n") ==
             ":3: the source term \"cat\" has another target term at line 1: \"Katze\"");
  BOOST_TEST(file_error("cat\tKatze\n\xff\tx\n") == ":2: invalid UTF-8 at byte 1");
}

BOOST_AUTO_TEST_SUITE_END()
