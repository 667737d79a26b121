// The library entry points of nmt-align's subcommands (align/*_files.h): each options
// struct's validate() refuses what the tool refused, with the same message, and the
// entry points read and write files as the tool did.
#include <boost/test/unit_test.hpp>

#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "align/eval_files.h"
#include "align/extract_files.h"
#include "align/heatmap_files.h"
#include "align/ibm2_files.h"
#include "align/symmetrize_files.h"
#include "support/error_message.h"
#include "support/temp_dir.h"
#include "util/error.h"

using rnnsearch::testing::usage_message;

using namespace rnnsearch;
namespace rt = rnnsearch::testing;

namespace {


std::string contents(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(file_commands)

BOOST_AUTO_TEST_CASE(extract_options_refuse_what_the_tool_refused) {
  align::ExtractFilesOptions options;
  BOOST_TEST(usage_message([&] { options.validate(); }) == "-m MODEL, -s SOURCE and -t TARGET are required");
  options.model = "m";
  options.source = "s";
  options.target = "t";
  BOOST_TEST(usage_message([&] { options.validate(); }) == "no error");
  options.extract.invert = true;
  options.extract.set_mode(align::AlignmentMode::kSoft);
  BOOST_TEST(usage_message([&] { options.validate(); }) == "--invert applies to links, not to --mode soft");
  options.extract.set_mode(align::AlignmentMode::kThreshold);
  BOOST_TEST(!options.extract.soft);
  BOOST_TEST(!options.extract.rules.hard);
  options.extract.rules.threshold = 2.0f;
  BOOST_TEST(usage_message([&] { options.validate(); }) == "--threshold must be in [0, 1], got 2");
  // The tool's mode names, and its message for others.
  BOOST_TEST((align::parse_alignment_mode("soft") == align::AlignmentMode::kSoft));
  BOOST_TEST((align::parse_alignment_mode("hard") == align::AlignmentMode::kHard));
  BOOST_TEST(usage_message([] { align::parse_alignment_mode("fuzzy"); }) ==
             "--mode must be hard, threshold or soft, got 'fuzzy'");
  BOOST_TEST(usage_message([] { align::parse_merge_to("chars"); }) == "--merge must be pieces or words, got 'chars'");
}

BOOST_AUTO_TEST_CASE(symmetrize_and_combine_options_need_both_files_and_a_threshold_in_range) {
  align::SymmetrizeFilesOptions symmetrize;
  symmetrize.forward = "f";
  BOOST_TEST(usage_message([&] { symmetrize.validate(); }) == "-i FORWARD and -j REVERSE are required");
  align::CombineFilesOptions combine;
  combine.reverse = "r";
  BOOST_TEST(usage_message([&] { combine.validate(); }) == "-i FORWARD and -j REVERSE are required");
  combine.forward = "f";
  combine.threshold = 2.0f;
  BOOST_TEST(usage_message([&] { combine.validate(); }) == "--threshold must be in [0, 1], got 2");
}

BOOST_AUTO_TEST_CASE(ibm2_options_need_both_files_and_check_the_cache_size) {
  align::Ibm2FilesOptions options;
  BOOST_TEST(usage_message([&] { options.validate(); }) == "-s SOURCE and -t TARGET are required");
  options.source = "s";
  options.target = "t";
  options.ibm2.index_cache_mb = (std::size_t{1} << 30) + 1;
  BOOST_TEST(usage_message([&] { options.validate(); }) == "--cache-mb must be in [0, 1073741824], got 1073741825");
  options.ibm2.index_cache_mb = 0;
  options.ibm2.iterations = 0;
  BOOST_TEST(usage_message([&] { options.validate(); }) == "--iterations must be in [1, 1000], got 0");
}

BOOST_AUTO_TEST_CASE(eval_and_heatmap_options_need_their_files_and_line_numbers) {
  align::EvalFilesOptions eval;
  eval.gold = "g";
  BOOST_TEST(usage_message([&] { eval.validate(); }) == "-g GOLD and -a ALIGNMENT are required");
  align::HeatmapFilesOptions heatmap;
  BOOST_TEST(usage_message([&] { heatmap.validate(); }) == "-m MODEL, -s SOURCE and -t TARGET are required");
  heatmap.model = "m";
  heatmap.source = "s";
  heatmap.target = "t";
  BOOST_TEST(usage_message([&] { heatmap.validate(); }) == "no error");
  for (const std::string lines : {"0", "1,,2", "x", "1234567890", ""}) {
    heatmap.lines = lines;
    BOOST_TEST(usage_message([&] { heatmap.validate(); }) ==
                   "--lines takes 1-based line numbers in [1, 999999999] separated by commas, got '" + lines + "'",
               lines);
  }
  BOOST_TEST(align::parse_line_numbers("3,7,12") == (std::vector<std::size_t>{3, 7, 12}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(symmetrize_and_combine_write_a_line_per_pair) {
  rt::TempDir dir;
  align::SymmetrizeFilesOptions symmetrize;
  symmetrize.forward = dir.write("forward", "0-0 1-1\n0-1\n");
  symmetrize.reverse = dir.write("reverse", "0-0\n0-1 1-1\n");
  symmetrize.heuristic = align::Symmetrization::kUnion;
  symmetrize.output = (dir.path() / "union").string();
  align::symmetrize_files(symmetrize);
  BOOST_TEST(contents(symmetrize.output) == "0-0 1-1\n0-1 1-1\n");
  align::CombineFilesOptions combine;
  combine.forward = dir.write("forward.soft", "0.9,0.1 0.35,0.65\n1\n");
  combine.reverse = dir.write("reverse.soft", "0.8,0.2 0.5,0.5\n1\n");
  combine.threshold = 0.29f;
  combine.output = (dir.path() / "combined").string();
  align::combine_files(combine);
  BOOST_TEST(contents(combine.output) == "0-0 1-0 1-1\n0-0\n");
  combine.reverse = dir.write("short.soft", "1\n");
  BOOST_TEST(rt::error_message([&] { align::combine_files(combine); }) ==
             combine.reverse + ": has 1 line, but " + combine.forward + " has 2; the files must be line-aligned");
}

BOOST_AUTO_TEST_CASE(eval_scores_and_tells_what_it_left_out) {
  rt::TempDir dir;
  align::EvalFilesOptions options;
  options.gold = dir.write("gold.wa", "0001 1 1 S\n0001 2 3 S\n0001 2 2 P\n0001 0 3 S\n0003 1 2 S\n");
  options.alignment = dir.write("hyp", "0-0 1-1 2-2\n0-0\n0-1\n1-1\n");
  std::vector<std::string> notes;
  const auto scores = align::eval_files(options, [&](const std::string& line) { notes.push_back(line); });
  BOOST_TEST(align::scores_report(scores) ==
             "precision 0.5000\nrecall 0.6667\nAER 0.4444\nlinks 6, sure 3, matching sure 2, matching possible 3\n");
  const std::vector<std::string> expected = {
      "note: " + options.gold + ": 1 link to position 0 (NULL) left out, as in the no-null evaluation",
      "warning: " + options.gold + " numbers 3 sentences, " + options.alignment +
          " has 4 lines: the last 1 have no gold links"};
  BOOST_TEST(notes == expected, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(eval_scores_a_range_of_sentences) {
  rt::TempDir dir;
  align::EvalFilesOptions options;
  // Sentence 1: one sure link found; 2: one found of two; 3: a wrong link.
  const std::string gold_text = "0001 1 1 S\n0002 1 1 S\n0002 2 2 S\n0003 1 1 S\n";
  options.alignment = dir.write("hyp", "0-0\n0-0\n1-0\n");
  for (const std::string& gold : {dir.write("gold.wa", gold_text), dir.write("gold.pharaoh", "0-0\n0-0 1-1\n0-0\n")}) {
    options.gold = gold;
    align::parse_sentence_range("2-3", options);
    BOOST_TEST(align::scores_report(align::eval_files(options)) ==
               "precision 0.5000\nrecall 0.3333\nAER 0.6000\nlinks 2, sure 3, matching sure 1, matching possible 1\n");
    align::parse_sentence_range("1-1", options);
    BOOST_TEST(align::eval_files(options).aer() == 0.0);
    align::parse_sentence_range("2-4", options);
    BOOST_TEST(rt::error_message([&] { align::eval_files(options); }) ==
               "--sentences 2-4: " + gold + " and " + options.alignment + " have 3 sentences");
  }
  for (const std::string bad : {"0-3", "3-2", "7", "-3", "1-", "a-b", "1-2-3"}) {
    BOOST_TEST(usage_message([&] { align::parse_sentence_range(bad, options); }) ==
               "--sentences must be FIRST-LAST with 1 <= FIRST <= LAST, got '" + bad + "'");
  }
}

BOOST_AUTO_TEST_CASE(ibm2_writes_links_and_tells_each_iteration) {
  rt::TempDir dir;
  align::Ibm2FilesOptions options;
  options.source = dir.write("s", "the a\nthe b\na b\n");
  options.target = dir.write("t", "le x\nle y\nx y\n");
  options.output = (dir.path() / "links").string();
  options.progress = false;
  options.ibm2.iterations = 3;
  std::vector<std::string> notes;
  align::ibm2_files(options, [&](const std::string& line) { notes.push_back(line); });
  BOOST_TEST(contents(options.output) == "0-0 1-1\n0-0 1-1\n0-0 1-1\n");
  BOOST_TEST_REQUIRE(notes.size() == 3u);
  BOOST_TEST(notes[0].rfind("iteration 1: log-likelihood ", 0) == 0u, notes[0]);
  BOOST_TEST(notes[2].find(", tension ") != std::string::npos, notes[2]);
  options.target = dir.write("empty", "le x\n\nx y\n");
  BOOST_TEST(rt::error_message([&] { align::ibm2_files(options); }) ==
             options.target + ":2: is empty: every pair needs words on both sides to be aligned");
}

BOOST_AUTO_TEST_SUITE_END()
