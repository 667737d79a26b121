// nmt-glossary extract: the tight consistent phrase pairs of hand-made alignments, and a
// glossary from a small corpus whose counts and shares sit on the thresholds.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <filesystem>

#include "align/glossary_extract.h"
#include "support/golden_cases.h"
#include "support/temp_dir.h"
#include "util/error.h"

namespace align = rnnsearch::align;
using rnnsearch::data::Alignment;
using Span = align::PhrasePairSpan;

namespace {

std::vector<Span> pairs(std::size_t n, std::size_t m, const Alignment& links, std::size_t max_length = 3) {
  return align::tight_phrase_pairs(n, m, links, max_length);
}

// A corpus of (source, target, links) lines, each repeated `times`.
struct Corpus {
  std::string source, target, alignment;
  void add(int times, const std::string& s, const std::string& t, const std::string& a) {
    for (int i = 0; i < times; ++i) {
      source += s + "\n";
      target += t + "\n";
      alignment += a + "\n";
    }
  }
};

// "cat" occurs 23 times: translated "Katze" 18 times, "Kater" 4, and once (in "cat food",
// both words linked to one) with no consistent pair. "the" occurs 20 times: "die" 16, "der" 4.
Corpus cat_corpus() {
  Corpus c;
  c.add(16, "the cat sleeps .", "die Katze schläft .", "0-0 1-1 2-2 3-3");
  c.add(4, "the cat eats", "der Kater frisst", "0-0 1-1 2-2");
  c.add(2, "a cat", "eine Katze", "0-0 1-1");
  c.add(1, "cat food", "Katzenfutter", "0-0 1-0");
  return c;
}

std::string extract(const Corpus& c, align::GlossaryExtractOptions options) {
  const rnnsearch::testing::TempDir dir;
  options.source = dir.write("src", c.source);
  options.target = dir.write("tgt", c.target);
  options.alignment = dir.write("links", c.alignment);
  options.output = (dir.path() / "glossary").string();
  align::extract_glossary_file(options);
  return rnnsearch::testing::read_file(options.output);
}

std::string extract_error(const Corpus& c, const std::string& expected_file_name) {
  const rnnsearch::testing::TempDir dir;
  align::GlossaryExtractOptions options;
  options.source = dir.write("src", c.source);
  options.target = dir.write("tgt", c.target);
  options.alignment = dir.write("links", c.alignment);
  options.output = (dir.path() / "glossary").string();
  try {
    align::extract_glossary_file(options);
  } catch (const rnnsearch::util::Error& e) {
    BOOST_TEST(!std::filesystem::exists(options.output));
    const std::string what = e.what();
    const std::string prefix = (dir.path() / expected_file_name).string();
    BOOST_TEST(what.rfind(prefix, 0) == 0u, what);
    return what.substr(prefix.size());
  }
  return "no error";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(glossary_extract)

BOOST_AUTO_TEST_CASE(a_diagonal_gives_every_span_up_to_the_length) {
  const auto p = pairs(4, 4, {{0, 0}, {1, 1}, {2, 2}, {3, 3}});
  const std::vector<Span> expected = {{0, 1, 0, 1}, {0, 2, 0, 2}, {0, 3, 0, 3}, {1, 2, 1, 2}, {1, 3, 1, 3},
                                      {1, 4, 1, 4}, {2, 3, 2, 3}, {2, 4, 2, 4}, {3, 4, 3, 4}};
  BOOST_TEST((p == expected));
  BOOST_TEST(pairs(4, 4, {{0, 0}, {1, 1}, {2, 2}, {3, 3}}, 1).size() == 4u);
}

BOOST_AUTO_TEST_CASE(crossing_links_pair_the_words_and_the_whole) {
  const std::vector<Span> expected = {{0, 1, 1, 2}, {0, 2, 0, 2}, {1, 2, 0, 1}};
  BOOST_TEST((pairs(2, 2, {{0, 1}, {1, 0}}) == expected));
}

BOOST_AUTO_TEST_CASE(a_link_leaving_the_box_makes_no_pair) {
  // Source 0 and 1 both link to target 0, source 1 also to target 1: only the whole pairs.
  const std::vector<Span> expected = {{0, 2, 0, 2}};
  BOOST_TEST((pairs(2, 2, {{0, 0}, {1, 0}, {1, 1}}) == expected));
}

BOOST_AUTO_TEST_CASE(spans_are_tight_on_both_sides) {
  // An unlinked source word may sit inside a span, never at its ends.
  const std::vector<Span> inside = {{0, 1, 0, 1}, {0, 3, 0, 2}, {2, 3, 1, 2}};
  BOOST_TEST((pairs(3, 2, {{0, 0}, {2, 1}}) == inside));
  // An unlinked target word inside the reach is part of the pair; one at its edge is not added.
  const std::vector<Span> target_inside = {{0, 1, 0, 1}, {0, 2, 0, 3}, {1, 2, 2, 3}};
  BOOST_TEST((pairs(2, 3, {{0, 0}, {1, 2}}) == target_inside));
  const std::vector<Span> target_edge = {{0, 1, 0, 1}, {0, 2, 0, 2}, {1, 2, 1, 2}};
  BOOST_TEST((pairs(2, 3, {{0, 0}, {1, 1}}) == target_edge));
  BOOST_TEST(pairs(3, 3, {}).empty());
}

BOOST_AUTO_TEST_CASE(the_length_bounds_both_sides) {
  const Alignment one_to_four = {{0, 0}, {0, 1}, {0, 2}, {0, 3}};
  BOOST_TEST(pairs(1, 4, one_to_four, 3).empty());
  const std::vector<Span> whole = {{0, 1, 0, 4}};
  BOOST_TEST((pairs(1, 4, one_to_four, 4) == whole));
}

BOOST_AUTO_TEST_CASE(defaults_keep_phrases_of_20_occurrences_translated_one_way_80_percent) {
  // "the" and "the cat": 16 of 20 (exactly 0.8). "cat": 18 of 23 occurrences (0.78; 18 of
  // its 22 extracted pairs would be 0.82); "sleeps": 16 occurrences, too few.
  BOOST_TEST(extract(cat_corpus(), {}) == "the\tdie\nthe cat\tdie Katze\n");
  align::GlossaryExtractOptions options;
  options.min_share = 0.75;
  BOOST_TEST(extract(cat_corpus(), options) == "cat\tKatze\nthe\tdie\nthe cat\tdie Katze\n");
  options.min_share = 0.81;
  BOOST_TEST(extract(cat_corpus(), options) == "");
}

BOOST_AUTO_TEST_CASE(order_is_by_count_then_text_and_the_letters_filter_punctuation) {
  align::GlossaryExtractOptions options;
  options.min_count = 16;
  const std::string expected =
      "cat sleeps\tKatze schläft\ncat sleeps .\tKatze schläft .\nsleeps\tschläft\nsleeps .\tschläft .\n"
      "the\tdie\nthe cat\tdie Katze\nthe cat sleeps\tdie Katze schläft\n";
  BOOST_TEST(extract(cat_corpus(), options) == expected);
  options.min_letters = 0;
  BOOST_TEST(extract(cat_corpus(), options) == ".\t.\n" + expected);
  options.min_letters = 7;  // "schläft" has 7 letters, "sleeps" 6
  BOOST_TEST(extract(cat_corpus(), options) == "");
  options.min_letters = 3;
  options.max_length = 2;
  BOOST_TEST(extract(cat_corpus(), options) ==
             "cat sleeps\tKatze schläft\nsleeps\tschläft\nsleeps .\tschläft .\nthe\tdie\nthe cat\tdie Katze\n");
}

BOOST_AUTO_TEST_CASE(the_order_of_the_corpus_changes_nothing) {
  const Corpus c = cat_corpus();
  Corpus reversed;
  const auto s = rnnsearch::testing::split(c.source, '\n'), t = rnnsearch::testing::split(c.target, '\n'),
             a = rnnsearch::testing::split(c.alignment, '\n');
  for (std::size_t i = s.size(); i-- > 0;) {
    if (!s[i].empty()) reversed.add(1, s[i], t[i], a[i]);
  }
  align::GlossaryExtractOptions options;
  options.min_count = 2;
  options.min_share = 0.5;
  BOOST_TEST(extract(reversed, options) == extract(c, options));
  BOOST_TEST(extract(c, options).find("a cat\teine Katze\n") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(bad_links_name_the_file_and_line) {
  Corpus c;
  c.add(1, "a b", "x y", "0-0 1-1");
  c.add(1, "a b", "x y", "0-0 2-1");
  BOOST_TEST(extract_error(c, "links") == ":2: link 2-1 is outside the pair of 2 source and 2 target words");
  Corpus malformed;
  malformed.add(1, "a b", "x y", "0-0 1-x");
  BOOST_TEST(extract_error(malformed, "links").rfind(":1: ", 0) == 0u);
  Corpus short_target = cat_corpus();
  short_target.target = "die Katze schläft .\n";
  const std::string message = extract_error(short_target, "tgt");
  BOOST_TEST(message.rfind(": has 1 line, but ", 0) == 0u, message);
  BOOST_TEST(message.find("src has 23; the files must be line-aligned") != std::string::npos, message);
}

BOOST_AUTO_TEST_CASE(options_out_of_range_are_usage_errors) {
  align::GlossaryExtractOptions options;
  options.source = "s";
  options.target = "t";
  options.alignment = "a";
  options.min_share = 1.5;
  BOOST_CHECK_THROW(options.validate(), rnnsearch::util::UsageError);
  options.min_share = 0.8;
  options.max_length = 0;
  BOOST_CHECK_THROW(options.validate(), rnnsearch::util::UsageError);
  options.max_length = 3;
  options.source = "-";
  BOOST_CHECK_THROW(options.validate(), rnnsearch::util::UsageError);
}

BOOST_AUTO_TEST_SUITE_END()
