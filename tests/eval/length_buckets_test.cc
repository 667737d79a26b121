// Scores by source length: bucket boundaries, empty buckets, the pooled score equal to the
// whole set's, the table and the SVG chart.
#include <boost/test/unit_test.hpp>

#include "eval/eval_options.h"
#include "eval/length_buckets.h"
#include "eval/length_chart.h"
#include "eval/metric_factory.h"

namespace eval = rnnsearch::eval;

namespace {

std::string sentence(int words) {
  std::string s;
  for (int i = 0; i < words; ++i) s += (i ? " w" : "w") + std::to_string(i);
  return s;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(length_buckets)

BOOST_AUTO_TEST_CASE(sentences_fall_into_half_open_buckets_and_the_last_is_open) {
  const std::vector<std::string> sources = {"", sentence(3), sentence(9), sentence(10), sentence(29), sentence(30),
                                            sentence(75), "a  b\tc"};
  eval::LengthBucketOptions options;
  options.width = 10;
  options.max = 30;
  const auto buckets = eval::length_buckets(sources, options);
  BOOST_TEST_REQUIRE(buckets.size() == 4u);
  BOOST_TEST(buckets[0].label == "0-10");
  BOOST_TEST(buckets[3].label == "30+");
  BOOST_TEST(buckets[0].segments == (std::vector<std::size_t>{0, 1, 2, 7}), boost::test_tools::per_element());
  BOOST_TEST(buckets[1].segments == std::vector<std::size_t>{3}, boost::test_tools::per_element());
  BOOST_TEST(buckets[2].segments == std::vector<std::size_t>{4}, boost::test_tools::per_element());
  BOOST_TEST(buckets[3].segments == (std::vector<std::size_t>{5, 6}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(pooled_buckets_score_as_the_whole_set_and_empty_buckets_show_a_dash) {
  const std::vector<std::string> sources = {sentence(4), sentence(12), sentence(15), sentence(5), sentence(60)};
  const eval::ReferenceSet references = {{"the cat sat on the mat", "a dog runs in the park today",
                                          "two men play chess", "it rains", "the end of a very long sentence"}};
  const std::vector<std::vector<std::string>> systems = {
      {"the cat sat on a mat", "a dog runs in a park", "two men play chess", "it is raining", "the end"},
      {"a cat is on the mat", "the dog runs in the park today", "men play", "it rains", "the end of a long sentence"}};
  eval::EvalOptions config;
  const auto bleu = eval::make_metric("bleu", config, references, false);
  eval::LengthBucketOptions options;
  options.width = 10;
  options.max = 30;
  const auto scores = eval::score_by_length(*bleu, sources, {"A", "B"}, systems, options);
  for (std::size_t s = 0; s < systems.size(); ++s) {
    const auto whole = bleu->segment_stats(systems[s]).column_sums();
    BOOST_TEST(scores.overall[s].score == bleu->score_from_stats(whole.data()).score);
    BOOST_TEST(scores.scores[s][2].score == -1.0);  // 20-30: no sentence
    BOOST_TEST(scores.scores[s][0].score >= 0.0);
  }
  BOOST_TEST(scores.overall[0].score != scores.overall[1].score);
  const std::string table = eval::format_length_table(scores, "BLEU", 2);
  BOOST_TEST(table.find("20-30") != std::string::npos);
  BOOST_TEST(count(table, " -") == 2u, table);
  BOOST_TEST(table.find("all") != std::string::npos);

  const std::string svg = eval::length_chart_svg(scores, "BLEU");
  BOOST_TEST(svg.rfind("<svg", 0) == 0u);
  BOOST_TEST(count(svg, "<circle") == 6u);    // 3 non-empty buckets x 2 systems
  BOOST_TEST(count(svg, "<polyline") == 4u);  // each line broken at the empty bucket
  BOOST_TEST(svg.find(">A</text>") != std::string::npos);
  // The sentences under each bucket's label: 0-10 and 10-20 two each, 20-30 none, 30+ one.
  BOOST_TEST(count(svg, ">n=2</text>") == 2u);
  BOOST_TEST(count(svg, ">n=0</text>") == 1u);
  BOOST_TEST(count(svg, ">n=1</text>") == 1u);
}

BOOST_AUTO_TEST_CASE(names_are_escaped_and_bad_options_are_named) {
  eval::LengthScores scores;
  eval::LengthBucketOptions options;
  scores.buckets = eval::length_buckets({sentence(3)}, options);
  scores.systems = {"a<b & \"c\""};
  scores.scores = {std::vector<eval::Score>(scores.buckets.size())};
  const std::string svg = eval::length_chart_svg(scores, "BLEU");
  BOOST_TEST(svg.find("a&lt;b &amp; &quot;c&quot;") != std::string::npos);
  BOOST_TEST(svg.find("a<b") == std::string::npos);
  options.width = 0;
  BOOST_CHECK_THROW(options.validate(), std::exception);
  options.width = 10;
  options.max = 25;
  BOOST_CHECK_EXCEPTION(options.validate(), std::exception, [](const std::exception& e) {
    return std::string(e.what()).find("--max-length must be a positive multiple of --bucket-width (10), got 25") !=
           std::string::npos;
  });
}

BOOST_AUTO_TEST_SUITE_END()
