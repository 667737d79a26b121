// The end of training throws away no training that helped: whatever ends the run (the
// update limit off the validation grid, --max-minutes, a signal), the last parameters
// are validated, MODEL holds the better on valid of them and the best validated model,
// and the "final model: update U (...)" line names the update MODEL holds. The final
// validation changes no training state: a run extended with --resume and a larger
// --max-updates ends with the parameters of a single run of that budget.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <csignal>
#include <map>
#include <regex>

#include "model/model_file.h"
#include "support/child_process.h"
#include "support/model_parameters.h"
#include "support/run_process.h"
#include "support/temp_dir.h"

namespace rt = rnnsearch::testing;
using namespace rnnsearch;

namespace {

struct DemoData {
  rt::TempDir dir;
  std::string path(const std::string& name) const { return (dir.path() / name).string(); }

  DemoData() {
    const auto made = rt::run_process({rt::tool_path("nmt-demo-corpus"), "-o", path("c"), "--train", "400", "--valid",
                                       "30", "--test", "1", "--seed", "3"});
    BOOST_TEST_REQUIRE(made.exit_code == 0, made.err);
  }

  // A tiny model validated every `valid_freq` updates by cross-entropy, then `args`.
  std::vector<std::string> train(const std::string& model, const std::vector<std::string>& args,
                                 const std::string& valid_freq = "20") const {
    std::vector<std::string> argv = {rt::tool_path("nmt-train"), "-t", path("c/train.xa"), path("c/train.xb"),
                                     "--valid-sets", path("c/valid.xa"), path("c/valid.xb"), "-m", path(model),
                                     "--dim-emb", "16", "--dim-enc", "16", "--dim-dec", "16", "--dim-att", "16",
                                     "--dim-maxout", "16", "--mini-batch", "16", "--valid-freq", valid_freq,
                                     "--early-stopping-metric", "cross-entropy", "--early-stopping", "0",
                                     "--log-freq", "1000"};
    argv.insert(argv.end(), args.begin(), args.end());
    return argv;
  }
};

// Cross-entropy of every validation in a log, by update; the final validation's too.
std::map<long, double> validations(const std::string& log) {
  std::map<long, double> ce;
  static const std::regex line(R"((?:final )?validation at update (\d+) \([^)]*\): cross-entropy ([0-9.]+))");
  for (std::sregex_iterator it(log.begin(), log.end(), line), end; it != end; ++it) {
    ce[std::stol((*it)[1])] = std::stod((*it)[2]);
  }
  return ce;
}

long final_model_update(const std::string& log) {
  std::smatch match;
  BOOST_TEST_REQUIRE(std::regex_search(log, match, std::regex(R"(final model: update (\d+) \()")), log);
  return std::stol(match[1]);
}

bool same_parameters(const std::string& a, const std::string& b, model::FileKind kind_b = model::FileKind::kModel) {
  return rt::parameter_difference(a, b, kind_b).empty();
}

// The log's validations hold the final one at `last`; MODEL is the lower cross-entropy of
// it and the best validated, and the final-model line names that update.
void check_the_better_is_kept(const DemoData& data, const std::string& model, const std::string& log, long last) {
  const std::map<long, double> ce = validations(log);
  BOOST_TEST_REQUIRE(ce.count(last) == 1, "no validation at the last update " << last << ": " << log);
  BOOST_TEST_REQUIRE(ce.size() >= 2, log);
  long best = -1;  // the earliest lowest of the others (a tie is no improvement)
  for (const auto& [update, value] : ce) {
    if (update != last && (best < 0 || value < ce.at(best))) best = update;
  }
  const long chosen = final_model_update(log);
  if (std::abs(ce.at(last) - ce.at(best)) < 1e-4) {  // equal as printed: either may be the lower
    BOOST_TEST((chosen == last || chosen == best), log);
  } else {
    BOOST_TEST(chosen == (ce.at(last) < ce.at(best) ? last : best), log);
  }
  const bool is_last = chosen == last;
  BOOST_TEST(same_parameters(data.path(model), data.path(model + (is_last ? ".ckpt" : ".best")),
                             is_last ? model::FileKind::kCheckpoint : model::FileKind::kModel));
  for (const auto& [update, value] : ce) BOOST_TEST(ce.at(chosen) <= value + 1e-4, "update " << update << ": " << log);
}

long ended_at(const std::string& log) {
  std::smatch match;
  BOOST_TEST_REQUIRE(std::regex_search(log, match, std::regex(R"((?:training ended at|stopped by a signal after) update (\d+))")),
                     log);
  return std::stol(match[1]);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(train_final_model)

BOOST_AUTO_TEST_CASE(an_update_limit_off_the_grid_validates_the_last_parameters) {
  const DemoData data;
  const auto r = rt::run_process(data.train("m.bin", {"--max-updates", "70"}));
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  BOOST_TEST(r.err.find("final validation at update 70") != std::string::npos, r.err);
  check_the_better_is_kept(data, "m.bin", r.err, 70);
}

// A learning rate far too high: the last parameters are much worse than an earlier validation's.
BOOST_AUTO_TEST_CASE(a_last_update_worse_on_valid_leaves_the_best_validated_model) {
  const DemoData data;
  const auto r = rt::run_process(data.train("m.bin", {"--max-updates", "70", "--learning-rate", "1"}));
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  BOOST_TEST(r.err.find("(the best validated; the last update, 70, is worse on valid)") != std::string::npos, r.err);
  check_the_better_is_kept(data, "m.bin", r.err, 70);
}

BOOST_AUTO_TEST_CASE(an_update_limit_on_the_grid_validates_nothing_more) {
  const DemoData data;
  const auto r = rt::run_process(data.train("m.bin", {"--max-updates", "60"}));
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  BOOST_TEST(r.err.find("final validation") == std::string::npos, r.err);
  check_the_better_is_kept(data, "m.bin", r.err, 60);
}

BOOST_AUTO_TEST_CASE(a_time_limit_keeps_a_model_at_least_as_good_as_the_last_validated_one) {
  const DemoData data;
  const auto r = rt::run_process(data.train("m.bin", {"--max-minutes", "0.03"}, "5"));
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  check_the_better_is_kept(data, "m.bin", r.err, ended_at(r.err));
}

BOOST_AUTO_TEST_CASE(a_signal_stop_chooses_the_model_as_the_end_of_training_does) {
  const DemoData data;
  rt::ChildProcess child(data.train("m.bin", {"--max-updates", "100000"}, "5"));
  BOOST_TEST_REQUIRE(child.wait_for_stderr("validation at update 10 ", 60.0), child.err());
  child.send_signal(SIGTERM);
  BOOST_TEST(child.wait() == 128 + SIGTERM, child.err());
  check_the_better_is_kept(data, "m.bin", child.err(), ended_at(child.err()));
}

BOOST_AUTO_TEST_CASE(the_final_validation_changes_nothing_an_extended_run_continues_from) {
  const DemoData data;
  const auto whole = rt::run_process(data.train("whole.bin", {"--max-updates", "90"}));
  BOOST_TEST_REQUIRE(whole.exit_code == 0, whole.err);
  const auto first = rt::run_process(data.train("split.bin", {"--max-updates", "50"}));
  BOOST_TEST_REQUIRE(first.exit_code == 0, first.err);
  BOOST_TEST(first.err.find("final validation at update 50") != std::string::npos, first.err);
  auto more = data.train("split.bin", {"--max-updates", "90", "--resume"});
  const auto extended = rt::run_process(more);
  BOOST_TEST_REQUIRE(extended.exit_code == 0, extended.err);
  BOOST_TEST(extended.err.find("resuming at update 50") != std::string::npos, extended.err);
  BOOST_TEST(same_parameters(data.path("whole.bin"), data.path("split.bin")));
  BOOST_TEST(same_parameters(data.path("whole.bin.best"), data.path("split.bin.best")));
  BOOST_TEST(final_model_update(whole.err) == final_model_update(extended.err));
}

BOOST_AUTO_TEST_SUITE_END()
