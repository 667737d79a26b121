// The checks nmt-bleu and nmt-by-length make of their options, now in the library: each
// bad value gives the message the tools have always printed.
#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <functional>
#include <limits>
#include <optional>
#include <string>

#include "eval/by_length.h"
#include "eval/eval_options.h"
#include "eval/sacrebleu_arguments.h"
#include "support/error_message.h"
#include "util/error.h"

using rnnsearch::testing::usage_message;

namespace eval = rnnsearch::eval;

namespace {


eval::EvalOptions valid_eval_options() {
  eval::EvalOptions options;
  options.references = {"ref.txt"};
  return options;
}

// Sets (or, with nullptr, unsets) an environment variable for one scope.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value) {
      setenv(name, value, 1);
    } else {
      unsetenv(name);
    }
  }
  ~ScopedEnv() {
    if (old_) {
      setenv(name_, old_->c_str(), 1);
    } else {
      unsetenv(name_);
    }
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(eval_options)

BOOST_AUTO_TEST_CASE(eval_options_refuse_what_nmt_bleu_refuses) {
  BOOST_TEST(usage_message([] { valid_eval_options().validate(); }) == "no error");
  auto options = valid_eval_options();
  options.bleu_smooth_value = std::numeric_limits<double>::quiet_NaN();
  BOOST_TEST(usage_message([&] { options.validate(); }) == "--smooth-value must be in [0, 1000], got nan");
  options = valid_eval_options();
  options.num_refs = 5000;
  BOOST_TEST(usage_message([&] { options.validate(); }) == "--num-refs must be in [1, 1000], got 5000");
  options = valid_eval_options();
  options.paired_jobs = -1;
  BOOST_TEST(usage_message([&] { options.validate(); }) == "--paired-jobs must be in [0, 1024], got -1");
  options = valid_eval_options();
  options.chrf_beta = -1;
  BOOST_TEST(usage_message([&] { options.validate(); }) == "--chrf-beta must be in [0, 100], got -1");
  BOOST_TEST(usage_message([] { eval::parse_output_format("xml"); }) == "--format must be json or text, got 'xml'");
  BOOST_TEST((eval::parse_output_format("text") == eval::OutputFormat::kText));
  BOOST_TEST(usage_message([] { eval::parse_bleu_smoothing("log"); }) ==
             "--smooth-method: unknown method 'log' (choose from exp, floor, add-k, none)");
  BOOST_TEST((eval::parse_bleu_smoothing("add-k") == eval::BleuSmoothing::kAddK));
}

BOOST_AUTO_TEST_CASE(sacrebleu_arguments_refuse_test_sets_and_other_encodings) {
  eval::SacrebleuArguments arguments;
  BOOST_TEST(usage_message([&] { arguments.validate(); }) == "no error");
  arguments.test_sets.language_pair = "de-en";
  BOOST_TEST(usage_message([&] { arguments.validate(); }) ==
             "test-set downloads (-t, -l, --origlang, --subset, --detail) are not supported; "
             "give the reference files: nmt-bleu REF... -i HYP");
  arguments = eval::SacrebleuArguments();
  arguments.encoding = "latin-1";
  BOOST_TEST(usage_message([&] { arguments.validate(); }) == "--encoding: only utf-8 is supported, got 'latin-1'");
  eval::EvalOptions options;
  BOOST_TEST(usage_message([&] { arguments.apply_to(options); }) ==
             "--encoding: only utf-8 is supported, got 'latin-1'");
  arguments.encoding = "utf8";
  BOOST_TEST(usage_message([&] { arguments.validate(); }) == "no error");
}

BOOST_AUTO_TEST_CASE(paired_jobs_replace_the_thread_count_when_given) {
  eval::EvalOptions options;
  options.threads = 3;
  BOOST_TEST(options.worker_threads() == 3);
  options.paired_jobs = 5;
  BOOST_TEST(options.worker_threads() == 5);
}

BOOST_AUTO_TEST_CASE(smoothing_values_and_seeds_parse_as_sacrebleu_reads_them) {
  BOOST_TEST(eval::parse_smooth_value("0.5") == 0.5);
  BOOST_TEST(eval::parse_smooth_value("1e-3") == 0.001);
  BOOST_TEST(usage_message([] { eval::parse_smooth_value("nan"); }) == "--smooth-value must be in [0, 1000], got nan");
  // Not a number: empty text is no exception, nor are what strtod would take (hex, spaces).
  for (const std::string text : {"", "0.5x", "0x10", " 1", "1 ", "1e999"}) {
    BOOST_TEST(usage_message([&] { eval::parse_smooth_value(text); }) ==
               "--smooth-value must be a number in [0, 1000], got '" + text + "'");
  }
  BOOST_TEST(*eval::parse_seed("42") == 42u);
  BOOST_TEST(*eval::parse_seed("18446744073709551615") == 18446744073709551615u);
  BOOST_TEST(!eval::parse_seed("None").has_value());
  for (const std::string text : {"", "-1", "12a", " 7", "+7", "18446744073709551616", "99999999999999999999999"}) {
    BOOST_TEST(usage_message([&] { eval::parse_seed(text); }) ==
               "--seed must be an integer in [0, 18446744073709551615] or 'none', got '" + text + "'");
  }
  BOOST_TEST(usage_message([] { eval::parse_seed("x", "SACREBLEU_SEED"); }) ==
             "SACREBLEU_SEED must be an integer in [0, 18446744073709551615] or 'none', got 'x'");
}

BOOST_AUTO_TEST_CASE(the_environment_stands_in_for_seed_and_overrides_format) {
  eval::EvalOptions options;
  {
    const ScopedEnv seed("SACREBLEU_SEED", nullptr), format("SACREBLEU_FORMAT", nullptr);
    eval::SacrebleuArguments().apply_to(options);
    BOOST_TEST(*options.seed == 12345u);
    BOOST_TEST((options.format == eval::OutputFormat::kJson));
  }
  {
    const ScopedEnv seed("SACREBLEU_SEED", "7"), format("SACREBLEU_FORMAT", "TEXT");
    eval::SacrebleuArguments().apply_to(options);
    BOOST_TEST(*options.seed == 7u);
    BOOST_TEST((options.format == eval::OutputFormat::kText));
    eval::SacrebleuArguments given;
    given.seed = "none";
    given.smooth_value = "3";
    given.apply_to(options);
    BOOST_TEST(!options.seed.has_value());
    BOOST_TEST(*options.bleu_smooth_value == 3.0);
    // Given empty is not "not given".
    eval::SacrebleuArguments empty_seed, empty_smoothing;
    empty_seed.seed = "";
    BOOST_TEST(usage_message([&] { empty_seed.apply_to(options); }).rfind("--seed must be", 0) == 0u);
    empty_smoothing.smooth_value = "";
    BOOST_TEST(usage_message([&] { empty_smoothing.apply_to(options); }).rfind("--smooth-value must be", 0) == 0u);
  }
  {
    const ScopedEnv seed("SACREBLEU_SEED", "");
    BOOST_TEST(usage_message([&] { eval::SacrebleuArguments().apply_to(options); }) ==
               "SACREBLEU_SEED must be an integer in [0, 18446744073709551615] or 'none', got ''");
  }
  {
    const ScopedEnv format("SACREBLEU_FORMAT", "yaml");  // ignored, as sacreBLEU ignores it
    options.format = eval::OutputFormat::kJson;
    eval::SacrebleuArguments().apply_to(options);
    BOOST_TEST((options.format == eval::OutputFormat::kJson));
  }
}

BOOST_AUTO_TEST_CASE(by_length_options_name_what_is_missing_or_wrong) {
  eval::ByLengthOptions options;
  BOOST_TEST(usage_message([&] { options.validate(); }) == "--source is required");
  options.source = "src.txt";
  BOOST_TEST(usage_message([&] { options.validate(); }) == "give one --reference file");
  options.reference = "ref.txt";
  BOOST_TEST(usage_message([&] { options.validate(); }) == "--input needs at least one system's translations");
  options.eval.inputs = {"a.txt", "b.txt"};
  options.names = {"a"};
  BOOST_TEST(usage_message([&] { options.validate(); }) == "--names gives 1 names for 2 systems");
  options.names.clear();
  options.metric = "meteor";
  BOOST_TEST(usage_message([&] { options.validate(); }) == "--metric must be bleu, chrf or ter, got 'meteor'");
  options.metric = "ter";
  options.decimals = 7;
  BOOST_TEST(usage_message([&] { options.validate(); }) == "--decimals must be in [0, 6], got 7");
  options.decimals = 2;
  options.buckets.width = 0;
  BOOST_TEST(usage_message([&] { options.validate(); }) == "--bucket-width must be in [1, 1000], got 0");
  options.buckets.width = 10;
  options.buckets.max = -1;
  BOOST_TEST(usage_message([&] { options.validate(); }) == "--max-length must be in [1, 10000], got -1");
  options.buckets.max = 40;
  BOOST_TEST(usage_message([&] { options.validate(); }) == "no error");
}

BOOST_AUTO_TEST_SUITE_END()
