// The unknown-token count of data/unknown_tokens.h: ids of <unk> per side, and a warning
// only when their share is more than the threshold (never at 1), with grouped counts.
#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

#include "data/unknown_tokens.h"
#include "support/error_message.h"

using namespace rnnsearch;
using data::UnknownTokens;

BOOST_AUTO_TEST_SUITE(unknown_tokens)

BOOST_AUTO_TEST_CASE(counts_the_unk_ids_of_each_side) {
  UnknownTokens counts;
  const auto unk = data::Vocabulary::kUnk;
  counts.add(UnknownTokens::kSource, {4, unk, 5, unk});
  counts.add(UnknownTokens::kSource, {});
  counts.add(UnknownTokens::kTarget, {unk, 6, 7});
  BOOST_TEST(counts.tokens(UnknownTokens::kSource) == 4u);
  BOOST_TEST(counts.unknown(UnknownTokens::kSource) == 2u);
  BOOST_TEST(counts.tokens(UnknownTokens::kTarget) == 3u);
  BOOST_TEST(counts.unknown(UnknownTokens::kTarget) == 1u);
}

BOOST_AUTO_TEST_CASE(warns_when_the_share_is_more_than_the_threshold) {
  UnknownTokens counts;
  std::vector<std::int32_t> ids(10020, 4);
  std::fill(ids.begin(), ids.begin() + 3412, data::Vocabulary::kUnk);
  counts.add(UnknownTokens::kSource, ids);
  BOOST_TEST(counts.warning(UnknownTokens::kSource, 0.1, "input.de") ==
             "3,412 of 10,020 source tokens (34.1%) in input.de are unknown to the model; is the text tokenized, "
             "BPE'd with the model's codes, and in the model's source language?");
  BOOST_TEST(counts.warning(UnknownTokens::kSource, 3412.0 / 10020.0, "input.de").empty());
  BOOST_TEST(!counts.warning(UnknownTokens::kSource, 0.0, "input.de").empty());
  BOOST_TEST(counts.warning(UnknownTokens::kSource, 1.0, "input.de").empty());
  BOOST_TEST(counts.warning(UnknownTokens::kTarget, 0.0, "input.en").empty());  // no tokens

  std::vector<std::string> lines;
  counts.add(UnknownTokens::kTarget, {data::Vocabulary::kUnk});
  counts.warn({{}, [&](const std::string& line) { lines.push_back(line); }}, 0.5, "a.de", "a.en");
  BOOST_TEST_REQUIRE(lines.size() == 1u);  // the source's 34.1% is not over 0.5
  BOOST_TEST(lines[0] == "1 of 1 target tokens (100.0%) in a.en are unknown to the model; is the text tokenized, "
                         "BPE'd with the model's codes, and in the model's target language?");
}

BOOST_AUTO_TEST_CASE(the_threshold_is_a_share) {
  data::check_unknown_warning(0.0);
  data::check_unknown_warning(1.0);
  BOOST_TEST(testing::usage_message([] { data::check_unknown_warning(1.5); }) ==
             "--unknown-warning must be in [0, 1], got 1.5");
  BOOST_TEST(testing::usage_message([] { data::check_unknown_warning(-0.1); }) ==
             "--unknown-warning must be in [0, 1], got -0.1");
}

BOOST_AUTO_TEST_SUITE_END()
