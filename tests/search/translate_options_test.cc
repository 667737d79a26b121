// nmt-decode's options validate themselves, once, with the messages nmt-decode printed:
// the option, its range and the value.
#include <boost/test/unit_test.hpp>

#include <functional>
#include <string>

#include "search/translator.h"
#include "support/error_message.h"
#include "util/error.h"

using rnnsearch::testing::usage_message;

using namespace rnnsearch;

BOOST_AUTO_TEST_CASE(translate_options_name_the_option_its_range_and_the_value) {
  search::TranslateOptions options;
  BOOST_TEST(usage_message([&] { options.validate(); }) == "no error");
  auto bad = options;
  bad.beam.beam_size = 0;
  BOOST_TEST(usage_message([&] { bad.validate(); }) == "--beam-size must be in [1, 1000], got 0");
  bad = options;
  bad.beam.beam_size = 4;
  bad.n_best = 5;
  BOOST_TEST(usage_message([&] { bad.validate(); }) == "--n-best must be in [0, 4], got 5");
  bad.n_best = -1;
  BOOST_TEST(usage_message([&] { bad.validate(); }) == "--n-best must be in [0, 4], got -1");
  bad.n_best = 4;
  BOOST_TEST(usage_message([&] { bad.validate(); }) == "no error");
  bad = options;
  bad.maxi_batch = 0;
  BOOST_TEST(usage_message([&] { bad.validate(); }) == "--maxi-batch must be in [1, 1000], got 0");
  BOOST_TEST(usage_message([] { search::parse_alignment_output("fuzzy"); }) ==
             "--alignment must be hard or soft, got 'fuzzy'");
  BOOST_TEST((search::parse_alignment_output("hard") == search::AlignmentOutput::kHard));
  BOOST_TEST((search::parse_alignment_output("soft") == search::AlignmentOutput::kSoft));
}

BOOST_AUTO_TEST_CASE(decode_options_need_a_model_and_a_known_attention_source) {
  search::DecodeOptions options;
  BOOST_TEST(usage_message([&] { options.validate(); }) == "--model MODEL is required");
  options.model_paths = {"model.bin"};
  BOOST_TEST(usage_message([&] { options.validate(); }) == "no error");
  options.attention_source = "encoder";
  BOOST_TEST(usage_message([&] { options.validate(); }) ==
             "--attention-source must be auto, decoder or head, got 'encoder'");
  options.attention_source = "head";
  options.translate.beam.length_penalty = -1;
  BOOST_TEST(usage_message([&] { options.validate(); }) == "--length-penalty must be in [0, 10], got -1");
}

BOOST_AUTO_TEST_CASE(translate_files_validates_before_reading_a_model) {
  search::DecodeOptions options;
  options.model_paths = {"/nonexistent/model.bin"};
  options.translate.beam.batch_size = 0;
  BOOST_TEST(usage_message([&] { search::translate_files(options, {}); }) ==
             "--mini-batch must be in [1, 1000], got 0");
}
