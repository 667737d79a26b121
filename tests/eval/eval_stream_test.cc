// Scoring read as a stream, a block at a time: the block size changes nothing in the
// output (sums, bootstrap rows, sentence scores, by-length buckets), and a file that ends
// early is reported with both files' whole line counts.
#include <boost/test/unit_test.hpp>

#include <algorithm>

#include "eval/eval_options.h"
#include "eval/eval_stream.h"
#include "eval/evaluate.h"
#include "eval/length_buckets.h"
#include "eval/metric_factory.h"
#include "support/temp_dir.h"
#include "util/error.h"

namespace eval = rnnsearch::eval;

namespace {

constexpr const char* kRef =
    "the cat sat on the mat\na dog runs in the park\ntwo men play chess .\nit is raining today\nthe end\n"
    "\nwe meet again at noon\n";
constexpr const char* kHyp =
    "the cat sat on a mat\na dog runs in a park\nmen play chess\nit rains today\nthe end .\nnothing\nwe meet at noon\n";
constexpr const char* kHyp2 =
    "a cat is on the mat\nthe dog runs in the park\ntwo men play\nit is raining\nthe end\n\nwe meet again\n";

std::string report(const eval::EvalOptions& config, std::size_t block) {
  eval::EvalStream inputs(config, block);
  return eval::evaluate(config, inputs).output;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(eval_stream)

BOOST_AUTO_TEST_CASE(the_block_size_changes_no_output) {
  const rnnsearch::testing::TempDir dir;
  eval::EvalOptions single;
  single.references = {dir.write("ref", kRef), dir.write("ref2", kHyp2)};
  single.inputs = {dir.write("hyp", kHyp)};
  single.metrics = {"bleu", "chrf", "ter"};
  single.format = eval::OutputFormat::kText;
  eval::EvalOptions confidence = single;
  confidence.confidence = true;
  confidence.confidence_n = 50;
  eval::EvalOptions paired = single;
  paired.inputs.push_back((dir.path() / "ref2").string());
  paired.paired_bs = true;
  paired.paired_bs_n = 50;
  eval::EvalOptions sentence = single;
  sentence.metrics = {"chrf"};
  sentence.sentence_level = true;
  for (const auto* config : {&single, &confidence, &paired, &sentence}) {
    const std::string whole = report(*config, 1000);
    for (const std::size_t block : {1, 2, 3, 6}) BOOST_TEST(report(*config, block) == whole);
  }
}

BOOST_AUTO_TEST_CASE(by_length_blocks_equal_score_by_length) {
  const rnnsearch::testing::TempDir dir;
  eval::EvalOptions config;
  config.references = {dir.write("ref", kRef)};
  config.inputs = {dir.write("hyp", kHyp)};
  eval::LengthBucketOptions options;
  options.width = 2;
  options.max = 6;
  const std::vector<std::string> sources = {"a b c d e f g", "a", "", "a b c", "a b", "a b c d", "a b c d e"};
  eval::EvalStream inputs(config, 3);
  const auto prototype = eval::make_metric("bleu", config, eval::ReferenceSet(1), false);
  eval::LengthScoreBuilder builder({"A"}, prototype->width(), options);
  eval::EvalBlock block;
  while (inputs.next(block)) {
    const auto metric = eval::make_metric("bleu", config, block.references, false);
    const std::vector<std::string> block_sources(sources.begin() + static_cast<long>(block.first),
                                                 sources.begin() + static_cast<long>(block.first + block.size()));
    builder.add(block_sources, {metric->segment_stats(block.systems.front())});
  }
  const auto streamed = builder.finish(*prototype);
  eval::EvalStream whole_inputs(config);
  BOOST_REQUIRE(whole_inputs.next(block));
  const auto metric = eval::make_metric("bleu", config, block.references, false);
  const auto whole = eval::score_by_length(*metric, sources, {"A"}, block.systems, options);
  BOOST_REQUIRE(streamed.buckets.size() == whole.buckets.size());
  for (std::size_t b = 0; b < whole.buckets.size(); ++b) {
    BOOST_TEST(streamed.buckets[b].segments == whole.buckets[b].segments);
    BOOST_TEST(streamed.scores[0][b].score == whole.scores[0][b].score);
  }
  BOOST_TEST(streamed.overall[0].score == whole.overall[0].score);
}

// Sentence scores are printed as each block is scored, not kept to the end: one output
// call per block, with that block's lines; a later bad line comes after them.
BOOST_AUTO_TEST_CASE(sentence_scores_are_printed_a_block_at_a_time) {
  const rnnsearch::testing::TempDir dir;
  eval::EvalOptions config;
  config.references = {dir.write("ref", kRef)};
  config.inputs = {dir.write("hyp", kHyp)};
  config.sentence_level = true;
  std::vector<std::string> chunks;
  const eval::EvalPrinter print{[&](const std::string& text) { chunks.push_back(text); },
                                [](const std::string&) {}};
  eval::EvalStream inputs(config, 3);
  eval::evaluate(config, inputs, print);
  BOOST_TEST_REQUIRE(chunks.size() == 3u);  // 7 segments: 3 + 3 + 1
  const auto lines = [](const std::string& text) { return std::count(text.begin(), text.end(), '\n'); };
  BOOST_TEST(lines(chunks[0]) == 3);
  BOOST_TEST(lines(chunks[2]) == 1);
  BOOST_TEST(chunks[0] + chunks[1] + chunks[2] == report(config, 1000));

  config.inputs = {dir.write("short", "the cat\na dog\nmen\nit\n")};
  chunks.clear();
  eval::EvalStream shorter(config, 3);
  BOOST_CHECK_THROW(eval::evaluate(config, shorter, print), rnnsearch::util::Error);
  BOOST_TEST(chunks.size() == 1u);  // the first block's scores, before the error
}

BOOST_AUTO_TEST_CASE(a_file_ending_early_is_named_with_both_line_counts) {
  const rnnsearch::testing::TempDir dir;
  eval::EvalOptions config;
  const std::string ref = dir.write("ref", kRef), hyp = dir.write("hyp", "one\ntwo\n");
  config.references = {ref};
  config.inputs = {hyp};
  for (const std::size_t block : {1, 1000}) {
    eval::EvalStream inputs(config, block);
    try {
      eval::evaluate(config, inputs);
      BOOST_FAIL("no error");
    } catch (const rnnsearch::util::Error& e) {
      BOOST_TEST(std::string(e.what()).find(hyp + ": 2 lines, but the reference " + ref +
                                            " has 7 lines; every line needs its reference") != std::string::npos,
                 e.what());
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
