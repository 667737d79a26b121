// The rules that turn an attention matrix over BPE pieces into word links (which step
// stands for a word, merging pieces, the source </s>, hard or threshold), soft
// symmetrization, and gold files in both formats, each on a small hand-made case.
#include <boost/test/unit_test.hpp>

#include "align/gold_file.h"
#include "align/soft_combine.h"
#include "align/word_attention.h"
#include "support/error_message.h"
#include "util/error.h"

using namespace rnnsearch;
namespace rt = rnnsearch::testing;

namespace {

// Source "a@@ b c" (words 0 0 1, pieces 0 1 2) and target "x y@@ z" (words 0 1 1).
const std::vector<int> kSourceWords{0, 0, 1};
const std::vector<int> kTargetWords{0, 1, 1};

// [(3 target pieces + </s>) x (3 source pieces + </s>)], rows summing to 1.
math::Matrix attention() {
  math::Matrix weights(4, 4);
  weights << 0.30f, 0.25f, 0.05f, 0.40f,  // x: the pieces of word 0 together beat </s>
      0.10f, 0.05f, 0.70f, 0.15f,         // y@@
      0.45f, 0.05f, 0.40f, 0.10f,         // z: piece a alone, word c
      0.05f, 0.05f, 0.10f, 0.80f;         // </s>
  return weights;
}

std::string links(const align::WordAlignmentRules& rules) {
  return data::format_pharaoh(align::attention_links(attention(), kSourceWords, kTargetWords, rules));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(attention_rules)

BOOST_AUTO_TEST_CASE(word_attention_sums_source_pieces_and_averages_target_pieces) {
  const auto words = align::unit_attention(attention(), kSourceWords, kTargetWords, align::AttentionStep::kEmit);
  BOOST_TEST_REQUIRE(words.rows() == 2);
  BOOST_TEST_REQUIRE(words.cols() == 3);  // words a@@b, c, then </s>
  BOOST_TEST(words(0, 0) == 0.55f, boost::test_tools::tolerance(1e-6f));
  BOOST_TEST(words(0, 2) == 0.40f, boost::test_tools::tolerance(1e-6f));
  BOOST_TEST(words(1, 0) == (0.15f + 0.50f) / 2, boost::test_tools::tolerance(1e-6f));
  BOOST_TEST(words(1, 1) == (0.70f + 0.40f) / 2, boost::test_tools::tolerance(1e-6f));
  // The next step's rows: word 0 reads row 1, word 1 the mean of rows 2 and 3.
  const auto next = align::unit_attention(attention(), kSourceWords, kTargetWords, align::AttentionStep::kNext);
  BOOST_TEST(next(0, 1) == 0.70f, boost::test_tools::tolerance(1e-6f));
  BOOST_TEST(next(1, 2) == 0.45f, boost::test_tools::tolerance(1e-6f));
  const auto renormalized = align::words_only(words, align::EosRule::kRenormalize);
  BOOST_TEST(renormalized.cols() == 2);
  BOOST_TEST(renormalized(0, 0) == 0.55f / 0.60f, boost::test_tools::tolerance(1e-6f));
}

BOOST_AUTO_TEST_CASE(each_rule_changes_the_links_as_documented) {
  align::WordAlignmentRules rules;  // emit, pieces, ignore, hard
  BOOST_TEST(links(rules) == "0-0 0-1 1-1");  // z's strongest piece is a@@
  rules.merge_to = align::MergeTo::kWords;
  BOOST_TEST(links(rules) == "0-0 1-1");
  rules.eos = align::EosRule::kNull;  // x attends to </s> (0.40) more than to any piece...
  rules.merge_to = align::MergeTo::kPieces;
  BOOST_TEST(links(rules) == "0-1 1-1");
  rules.merge_to = align::MergeTo::kWords;  // ...but less than to the word a@@b (0.55)
  BOOST_TEST(links(rules) == "0-0 1-1");
  rules = {};
  rules.step = align::AttentionStep::kNext;
  BOOST_TEST(links(rules) == "0-1 1-0 1-1");  // the </s> row's strongest source piece is c
  rules = {};
  rules.hard = false;
  rules.threshold = 0.4f;
  BOOST_TEST(links(rules) == "0-1 1-1");
  rules.merge_to = align::MergeTo::kWords;
  BOOST_TEST(links(rules) == "0-0 1-1");
  rules.eos = align::EosRule::kRenormalize;
  rules.threshold = 0.5f;
  BOOST_TEST(links(rules) == "0-0 1-1");  // 0.917 and 0.629 after dividing by 0.60 and 0.875
}

BOOST_AUTO_TEST_CASE(rule_names_parse_and_others_are_usage_errors) {
  BOOST_TEST((align::parse_attention_step("next") == align::AttentionStep::kNext));
  BOOST_TEST((align::parse_eos_rule("null") == align::EosRule::kNull));
  BOOST_TEST((align::parse_merge_to("words") == align::MergeTo::kWords));
  BOOST_CHECK_THROW(align::parse_eos_rule("drop"), util::UsageError);
  BOOST_CHECK_THROW(align::parse_attention_step("previous"), util::UsageError);
  BOOST_CHECK_THROW(align::parse_merge_to("chars"), util::UsageError);
}

BOOST_AUTO_TEST_CASE(soft_combine_links_pairs_whose_two_directions_agree_on_average) {
  const auto forward = align::parse_soft_rows("0.9,0.1 0.35,0.65", "fwd", 1);  // 2 target x 2 source words
  const auto reverse = align::parse_soft_rows("0.8,0.2 0.5,0.5", "rev", 1);  // 2 source x 2 target words
  BOOST_TEST(data::format_pharaoh(align::combine_soft(forward, reverse, 0.5f, "rev", 1)) == "0-0 1-1");
  // Means: 0-0 0.85, 0-1 0.275, 1-0 0.3, 1-1 0.575.
  BOOST_TEST(data::format_pharaoh(align::combine_soft(forward, reverse, 0.29f, "rev", 1)) == "0-0 1-0 1-1");
  BOOST_TEST(align::parse_soft_rows("", "fwd", 1).size() == 0);
  const auto wide = align::parse_soft_rows("0.5,0.5,0", "rev", 4);
  BOOST_TEST(rt::error_message([&] { align::combine_soft(forward, wide, 0.5f, "rev", 4); })
                 .find("rev:4: the forward soft alignment is 2 target x 2 source words") == 0u);
  BOOST_TEST(rt::error_message([] { align::parse_soft_rows("0.5,x", "fwd", 2); })
                 .find("fwd:2: expected soft alignment rows") == 0u);
  BOOST_TEST(rt::error_message([] { align::parse_soft_rows("0.5,0.5 1", "fwd", 3); }) ==
             "fwd:3: soft alignment rows of 2 and 1 weights");
}

BOOST_AUTO_TEST_CASE(gold_files_in_the_shared_task_format_equal_their_pharaoh_form) {
  const auto task = align::parse_gold_file({"0001 1 1 S", "0001 2 3 P", "0001 0 2 S", "3 2 1", ""}, "gold.wa");
  const auto pharaoh = align::parse_gold_file({"0-0 1?2", "", "1-0"}, "gold.txt");
  BOOST_TEST(task.shared_task_format);
  BOOST_TEST(!pharaoh.shared_task_format);
  BOOST_TEST_REQUIRE(task.sentences.size() == 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    BOOST_TEST(data::format_pharaoh(task.sentences[i].sure) == data::format_pharaoh(pharaoh.sentences[i].sure));
    BOOST_TEST(data::format_pharaoh(task.sentences[i].possible) ==
               data::format_pharaoh(pharaoh.sentences[i].possible));
  }
  BOOST_TEST(rt::error_message([] { align::parse_gold_file({"1 1 1 S", "1 2 2 Q"}, "gold.wa"); })
                 .find("gold.wa:2: expected 'SENT SRC_POS TGT_POS [S|P]'") == 0u);
  BOOST_TEST(rt::error_message([] { align::parse_gold_file({"0 1 1 S"}, "gold.wa"); }) ==
             "gold.wa:1: sentence numbers start at 1, got 0");
}

BOOST_AUTO_TEST_SUITE_END()
