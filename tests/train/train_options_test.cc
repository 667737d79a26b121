// TrainOptions and nmt-train's command line form of them: the enumerations parse from
// their names and back, a bad name or file pair is the usage error nmt-train printed, and
// validate() names the option, its range and the value.
#include <boost/program_options.hpp>
#include <boost/test/unit_test.hpp>

#include <functional>
#include <string>
#include <vector>

#include "data/parallel_corpus.h"
#include "model/model_options.h"
#include "nn/attention.h"
#include "support/error_message.h"
#include "train/train_arguments.h"
#include "train/train_options.h"
#include "util/cli.h"
#include "util/error.h"

using rnnsearch::testing::usage_message;

using namespace rnnsearch;

namespace {


train::TrainArguments arguments() {
  train::TrainArguments a;
  a.train_sets = {"train.src", "train.tgt"};
  return a;
}

}  // namespace

BOOST_AUTO_TEST_CASE(enumerations_parse_from_their_names_and_back) {
  for (const auto kind : {train::OptimizerKind::kAdam, train::OptimizerKind::kAdadelta}) {
    BOOST_TEST((train::parse_optimizer(train::optimizer_name(kind)) == kind));
  }
  for (const auto metric : {train::EarlyStoppingMetric::kBleu, train::EarlyStoppingMetric::kCrossEntropy,
                            train::EarlyStoppingMetric::kPerplexity}) {
    BOOST_TEST((train::parse_early_stopping_metric(train::early_stopping_metric_name(metric)) == metric));
  }
  for (const auto model : {train::FinalModel::kBest, train::FinalModel::kLast}) {
    BOOST_TEST((train::parse_final_model(train::final_model_name(model)) == model));
  }
  for (const auto init : {model::Initialization::kXavier, model::Initialization::kPaper}) {
    BOOST_TEST((train::parse_initialization(train::initialization_name(init)) == init));
  }
  BOOST_TEST(std::string(train::optimizer_name(train::OptimizerKind::kAdadelta)) == "adadelta");
  BOOST_TEST(std::string(train::early_stopping_metric_name(train::EarlyStoppingMetric::kCrossEntropy)) ==
             "cross-entropy");
}

BOOST_AUTO_TEST_CASE(a_bad_name_is_the_usage_error_nmt_train_printed) {
  BOOST_TEST(usage_message([] { train::parse_optimizer("sgd"); }) ==
             "--optimizer must be one of adam, adadelta, got 'sgd'");
  BOOST_TEST(usage_message([] { train::parse_early_stopping_metric("ter"); }) ==
             "--early-stopping-metric must be one of bleu, cross-entropy, perplexity, got 'ter'");
  BOOST_TEST(usage_message([] { train::parse_final_model("first"); }) ==
             "--final-model must be one of best, last, got 'first'");
  BOOST_TEST(usage_message([] { train::parse_initialization("he"); }) ==
             "--init must be one of xavier, paper, got 'he'");
}

BOOST_AUTO_TEST_CASE(the_options_defaults_have_the_names_help_shows) {
  const train::TrainArguments a;
  BOOST_TEST(data::long_pairs_name(a.options.long_pairs) == std::string("skip"));
  BOOST_TEST(nn::attention_form_name(a.options.model.attention_form) == std::string("additive"));
  BOOST_TEST(train::initialization_name(a.options.init) == std::string("xavier"));
  BOOST_TEST(train::optimizer_name(a.options.optimizer) == std::string("adam"));
  BOOST_TEST(train::early_stopping_metric_name(a.options.early_stopping_metric) == std::string("bleu"));
  BOOST_TEST(train::final_model_name(a.options.final_model) == std::string("best"));
  BOOST_TEST(!a.no_shuffle);
}

BOOST_AUTO_TEST_CASE(enumeration_options_parse_into_their_fields) {
  namespace po = boost::program_options;
  train::TrainOptions options;
  po::options_description description;
  description.add_options()
      ("optimizer", util::enum_value(&options.optimizer, train::optimizer_name, train::parse_optimizer), "")
      ("final-model", util::enum_value(&options.final_model, train::final_model_name, train::parse_final_model), "");
  const auto parse = [&](std::vector<std::string> args) {
    po::variables_map values;
    po::store(po::command_line_parser(args).options(description).run(), values);
    po::notify(values);
  };
  parse({"--optimizer", "adadelta"});
  BOOST_TEST((options.optimizer == train::OptimizerKind::kAdadelta));
  BOOST_TEST((options.final_model == train::FinalModel::kBest));  // the default, parsed from its name
  BOOST_TEST(usage_message([&] { parse({"--optimizer", "sgd"}); }) ==
             "--optimizer must be one of adam, adadelta, got 'sgd'");
}

BOOST_AUTO_TEST_CASE(arguments_become_options_with_pairs_split) {
  auto a = arguments();
  a.valid_sets = {"valid.src", "valid.tgt"};
  a.options.optimizer = train::OptimizerKind::kAdadelta;
  a.options.final_model = train::FinalModel::kLast;
  a.options.long_pairs = data::LongPairs::kTruncate;
  a.options.model.attention_form = nn::AttentionForm::kDot;
  a.no_shuffle = true;
  a.common.quiet = true;
  a.common.threads = 3;
  const train::TrainOptions options = a.to_options();
  BOOST_TEST(options.train_source == "train.src");
  BOOST_TEST(options.train_target == "train.tgt");
  BOOST_TEST(options.valid_target == "valid.tgt");
  BOOST_TEST(options.source_vocabulary.empty());
  BOOST_TEST((options.optimizer == train::OptimizerKind::kAdadelta));
  BOOST_TEST((options.final_model == train::FinalModel::kLast));
  BOOST_TEST((options.long_pairs == data::LongPairs::kTruncate));
  BOOST_TEST((options.model.attention_form == nn::AttentionForm::kDot));
  BOOST_TEST(!options.batching.shuffle);
  BOOST_TEST(options.quiet);
  BOOST_TEST(options.threads == 3);
  BOOST_TEST(options.resolved_learning_rate() == 1.0f);
}

BOOST_AUTO_TEST_CASE(arguments_refuse_missing_training_files_and_odd_pairs) {
  BOOST_TEST(usage_message([] { train::TrainArguments().to_options(); }) == "--train-sets SRC TGT is required");
  auto a = arguments();
  a.vocabs = {"a", "b", "c"};
  BOOST_TEST(usage_message([&] { a.to_options(); }) == "--vocabs takes two files (source and target), got 3");
  a = arguments();
  a.valid_sets = {"v"};
  BOOST_TEST(usage_message([&] { a.to_options(); }) == "--valid-sets takes two files (source and target), got 1");
  // The enumerations' names are parsed as the command line is (enum_value), with these messages.
  BOOST_TEST(usage_message([] { data::parse_long_pairs("wrap"); }) ==
             "--long-pairs must be one of skip, error, truncate, got 'wrap'");
  BOOST_TEST(usage_message([] { model::parse_attention_form("luong"); }) ==
             "--attention must be one of additive, dot, general, none, got 'luong'");
}

BOOST_AUTO_TEST_CASE(validate_names_the_option_and_the_value) {
  auto options = arguments().to_options();
  options.max_updates = 1;
  BOOST_TEST(usage_message([&] { options.validate(); }) == "no error");
  auto bad = options;
  bad.max_updates = 0;
  BOOST_TEST(usage_message([&] { bad.validate(); }) ==
             "nothing would end training: give --max-epochs, --max-updates, --max-minutes, or --valid-sets with "
             "--early-stopping");
  bad = options;
  bad.valid_freq = 0;
  BOOST_TEST(usage_message([&] { bad.validate(); }) == "--valid-freq must be in [1, 1000000000000], got 0");
  bad = options;
  bad.source_vocabulary_size = 4;
  BOOST_TEST(usage_message([&] { bad.validate(); }) ==
             "--src-vocab-size must be 0 or more than the 4 special tokens, got 4");
}
