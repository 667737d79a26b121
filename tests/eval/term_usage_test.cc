// Term usage and exact match on hand-made lines: whole words only, multi-word terms,
// terms expected twice, case, the WMT21 rule of one match per start position; and the
// files read in step, with the report's lines.
#include <boost/test/unit_test.hpp>

#include "eval/term_usage.h"
#include "eval/terms.h"
#include "support/temp_dir.h"
#include "util/error.h"

namespace eval = rnnsearch::eval;

namespace {

// used / exact / terms of one line.
struct Counted {
  std::size_t used, exact, terms;
};

Counted count(const std::string& translation, const std::vector<std::string_view>& terms, bool lowercase = false) {
  const eval::TermMatcher matcher(lowercase);
  const eval::TermCounts c = matcher.count(translation, terms);
  BOOST_TEST(c.lines == 1u);
  return {c.used, c.exact_matches, c.terms};
}

void check(const std::string& translation, const std::vector<std::string_view>& terms, Counted expected,
           bool lowercase = false) {
  const Counted got = count(translation, terms, lowercase);
  BOOST_TEST_CONTEXT(translation) {
    BOOST_TEST(got.used == expected.used);
    BOOST_TEST(got.exact == expected.exact);
    BOOST_TEST(got.terms == expected.terms);
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(term_usage)

BOOST_AUTO_TEST_CASE(a_term_matches_whole_words_only) {
  check("the cat sat", {"cat"}, {1, 1, 1});
  check("two cats sat", {"cat"}, {0, 0, 1});
  check("concatenate them", {"cat"}, {0, 0, 1});
  check("a bobcat", {"cat"}, {0, 0, 1});
  // 13a splits punctuation off, as BLEU counts words: "cat." and "(cat)" hold the word.
  check("I saw a cat.", {"cat"}, {1, 1, 1});
  check("(cat) and dog", {"cat"}, {1, 1, 1});
  // ... but keeps a hyphenated word whole.
  check("a cat-like grin", {"cat"}, {0, 0, 1});
}

BOOST_AUTO_TEST_CASE(a_multi_word_term_needs_its_words_in_a_row) {
  check("the New York office", {"New York"}, {1, 1, 1});
  check("the York New office", {"New York"}, {0, 0, 1});
  check("New office in York", {"New York"}, {0, 0, 1});
  check("a New Yorker", {"New York"}, {0, 0, 1});
  // Spacing inside the term does not matter: both sides are tokenized.
  check("the New York office", {"  New   York "}, {1, 1, 1});
  check("the New York, office", {"York,"}, {1, 1, 1});
}

BOOST_AUTO_TEST_CASE(a_term_expected_twice_needs_two_occurrences) {
  check("the cat and the dog", {"cat", "cat"}, {1, 1, 2});
  check("the cat and the cat", {"cat", "cat"}, {2, 2, 2});
  check("cat cat cat", {"cat", "cat"}, {2, 2, 2});
  check("the cat and the dog", {"cat", "dog", "cat"}, {2, 2, 3});
  // Occurrences of one term do not overlap: "a a" occurs once in "a a a" for the usage
  // rate; the WMT21 rule looks for start positions, and finds two.
  check("a a a", {"a a", "a a"}, {1, 2, 2});
}

BOOST_AUTO_TEST_CASE(two_terms_starting_at_one_word_match_once_in_the_wmt21_count) {
  check("a cat food bowl", {"cat", "cat food"}, {2, 1, 2});
  check("a cat food bowl", {"cat food", "cat"}, {2, 1, 2});
  check("a cat food bowl and a cat", {"cat food", "cat"}, {2, 2, 2});
  check("a cat food bowl", {"food", "cat food"}, {2, 2, 2});
}

BOOST_AUTO_TEST_CASE(case_matters_unless_lowercased) {
  check("The Cat sat", {"cat"}, {0, 0, 1});
  check("The Cat sat", {"cat"}, {1, 1, 1}, true);
  check("the cat sat", {"CAT"}, {1, 1, 1}, true);
  check("DIE STRASSE", {"die straße"}, {0, 0, 1}, true);  // lowercasing, not case folding
  check("Die Straße", {"die straße"}, {1, 1, 1}, true);
}

BOOST_AUTO_TEST_CASE(empty_fields_are_no_terms) {
  const eval::TermMatcher matcher;
  const eval::TermCounts none = matcher.count("the cat", {});
  BOOST_TEST(none.lines == 1u);
  BOOST_TEST(none.lines_with_terms == 0u);
  BOOST_TEST(none.terms == 0u);
  const eval::TermCounts blank = matcher.count("the cat", {"", "  ", "cat", ""});
  BOOST_TEST(blank.lines_with_terms == 1u);
  BOOST_TEST(blank.terms == 1u);
  BOOST_TEST(blank.used == 1u);
}

BOOST_AUTO_TEST_CASE(files_are_counted_in_step) {
  const rnnsearch::testing::TempDir dir;
  const std::string hyp = dir.write("hyp", "the cat sat\ntwo cats\nthe New York office\nno terms here\n");
  const std::string terms = dir.write("terms", "cat\ncat\tdog\nNew York\tYork\n\n");
  const eval::TermCounts c = eval::count_terms(hyp, terms, false);
  BOOST_TEST(c.lines == 4u);
  BOOST_TEST(c.lines_with_terms == 3u);
  BOOST_TEST(c.terms == 5u);
  BOOST_TEST(c.used == 3u);
  BOOST_TEST(c.exact_matches == 3u);
  BOOST_TEST(eval::format_term_counts(c, 1) ==
             "term usage: 60.0% (3 of 5 terms in 3 lines)\nexact match: 60.0% (3 of 5 terms)\n");
  BOOST_TEST(eval::format_term_counts(c, 2) ==
             "term usage: 60.00% (3 of 5 terms in 3 lines)\nexact match: 60.00% (3 of 5 terms)\n");
}

BOOST_AUTO_TEST_CASE(no_terms_at_all_gives_no_rate) {
  eval::TermCounts c;
  c.lines = 7;
  BOOST_TEST(eval::format_term_counts(c, 1) == "term usage: n/a (no terms in 7 lines)\nexact match: n/a (no terms)\n");
  const std::string json = eval::format_term_counts_json(c, 1, false, "[]\n");
  BOOST_TEST(json.find("\"term_usage\": null,") != std::string::npos, json);
  BOOST_TEST(json.find("\"scores\": []\n}\n") != std::string::npos, json);
}

BOOST_AUTO_TEST_CASE(files_of_different_lengths_name_both) {
  const rnnsearch::testing::TempDir dir;
  const std::string hyp = dir.write("hyp", "a\nb\nc\n");
  const std::string terms = dir.write("terms", "a\n\n");
  try {
    eval::count_terms(hyp, terms, false);
    BOOST_FAIL("no error");
  } catch (const rnnsearch::util::Error& e) {
    BOOST_TEST(std::string(e.what()) == terms + ": has 2 lines, but " + hyp + " has 3; the files must be line-aligned");
  }
}

BOOST_AUTO_TEST_CASE(invalid_utf8_in_the_terms_names_file_and_line) {
  const rnnsearch::testing::TempDir dir;
  const std::string hyp = dir.write("hyp", "a\nb\n");
  const std::string terms = dir.write("terms", "a\nb\xff\n");
  try {
    eval::count_terms(hyp, terms, false);
    BOOST_FAIL("no error");
  } catch (const rnnsearch::util::Error& e) {
    BOOST_TEST(e.file() == terms);
    BOOST_TEST(e.line() == 2u);
  }
}

BOOST_AUTO_TEST_SUITE_END()
