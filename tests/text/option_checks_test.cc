// The checks nmt-bpe and nmt-vocab make of their options, now in the library: each bad
// value gives the message the tools have always printed.
#include <boost/test/unit_test.hpp>

#include <functional>
#include <string>

#include "support/error_message.h"
#include "text/bpe_apply.h"
#include "text/bpe_learn.h"
#include "text/vocab_counts.h"
#include "util/error.h"

using rnnsearch::testing::usage_message;

namespace text = rnnsearch::text;

BOOST_AUTO_TEST_SUITE(option_checks)

BOOST_AUTO_TEST_CASE(bpe_learn_options_have_ranges) {
  text::BpeLearnOptions options;
  BOOST_TEST(usage_message([&] { options.validate(); }) == "no error");
  options.symbols = -1;
  BOOST_TEST(usage_message([&] { options.validate(); }) == "--symbols must be in [0, 10000000], got -1");
  options.symbols = 100;
  options.min_frequency = -1;
  BOOST_TEST(usage_message([&] { options.validate(); }) == "--min-frequency must be in [0, 1000000000], got -1");
  options.min_frequency = 2;
  options.num_workers = 2000;
  BOOST_TEST(usage_message([&] { options.validate(); }) == "--num-workers must be in [-1, 1024], got 2000");
}

BOOST_AUTO_TEST_CASE(bpe_apply_options_need_codes_and_a_separator) {
  text::BpeApplyOptions options;
  BOOST_TEST(usage_message([&] { options.validate(); }) == "nmt-bpe apply needs --codes FILE");
  options.codes = "codes";
  BOOST_TEST(usage_message([&] { options.validate(); }) == "no error");
  options.merges = -2;
  BOOST_TEST(usage_message([&] { options.validate(); }) == "--merges must be in [-1, 1000000000], got -2");
  options.merges = -1;
  options.vocabulary_threshold = -1;
  BOOST_TEST(usage_message([&] { options.validate(); }) ==
             "--vocabulary-threshold must be in [0, 1000000000000000000], got -1");
  options.vocabulary_threshold = 0;
  options.num_workers = -2;
  BOOST_TEST(usage_message([&] { options.validate(); }) == "--num-workers must be in [-1, 1024], got -2");
  options.num_workers = 0;
  options.separator = "";
  BOOST_TEST(usage_message([&] { options.validate(); }) == "--separator must not be empty");
}

BOOST_AUTO_TEST_CASE(vocab_options_refuse_a_negative_min_count) {
  text::VocabOptions options;
  BOOST_TEST(usage_message([&] { options.validate(); }) == "no error");
  options.min_count = -1;
  BOOST_TEST(usage_message([&] { options.validate(); }) ==
             "--min-count must be in [0, 1000000000000000000], got -1");
}

BOOST_AUTO_TEST_SUITE_END()
