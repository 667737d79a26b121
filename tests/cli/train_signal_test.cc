// nmt-train stopped by SIGTERM (and SIGINT, SIGHUP) mid-run saves, exits 128 + the signal
// number (143, 130, 129: "stopped, resume me", not 1, "bad input") naming the update, and --resume
// then ends with exactly the parameters of an uninterrupted run. Killed
// outright (SIGKILL), it resumes from its last periodic checkpoint, again exactly.
#include <boost/test/unit_test.hpp>

#include <csignal>
#include <cstring>
#include <sstream>

#include "model/model_file.h"
#include "support/child_process.h"
#include "support/model_parameters.h"
#include "support/run_process.h"
#include "support/temp_dir.h"
#include "util/rng.h"

namespace rt = rnnsearch::testing;
using namespace rnnsearch;

namespace {

void write_copy_task(const rt::TempDir& dir) {
  util::Rng rng(11);
  std::ostringstream text;
  for (int i = 0; i < 600; ++i) {
    const int length = 2 + static_cast<int>(rng.below(6));
    for (int k = 0; k < length; ++k) text << (k ? " " : "") << "t" << rng.below(20);
    text << '\n';
  }
  dir.write("train.src", text.str());
  dir.write("train.tgt", text.str());
}

std::vector<std::string> train_command(const rt::TempDir& dir, const std::string& model, long updates) {
  return {rt::tool_path("nmt-train"), "-t", (dir.path() / "train.src").string(), (dir.path() / "train.tgt").string(),
          "-m", (dir.path() / model).string(), "--dim-emb", "16", "--dim-enc", "16", "--dim-dec", "16", "--dim-att",
          "16", "--dim-maxout", "16", "--mini-batch", "8", "--max-updates", std::to_string(updates), "--save-freq",
          "10", "--log-freq", "1", "--threads", "2"};
}

bool same_parameters(const std::string& a, const std::string& b) { return rt::parameter_difference(a, b).empty(); }

void interrupt_and_resume(int signal) {
  rt::TempDir dir;
  write_copy_task(dir);
  constexpr long kUpdates = 400;
  BOOST_TEST_REQUIRE(rt::run_process(train_command(dir, "whole.bin", kUpdates)).exit_code == 0);

  rt::ChildProcess child(train_command(dir, "split.bin", kUpdates));
  BOOST_TEST_REQUIRE(child.wait_for_stderr("update 30 ", 60.0), child.err());
  child.send_signal(signal);
  const int code = child.wait();
  BOOST_TEST(child.err().find("training ended") == std::string::npos);  // it did stop early
  if (signal == SIGKILL) {
    BOOST_TEST(code == 128 + SIGKILL);
  } else {
    BOOST_TEST(code == 128 + signal, child.err());
    BOOST_TEST(child.killed_by() == 0, "killed, not saved: " << child.err());  // it exited with that code
    BOOST_TEST(child.err().find("stopped by a signal after update") != std::string::npos, child.err());
  }

  auto resume = train_command(dir, "split.bin", kUpdates);
  resume.push_back("--resume");
  const auto resumed = rt::run_process(resume);
  BOOST_TEST_REQUIRE(resumed.exit_code == 0, resumed.err);
  BOOST_TEST(resumed.err.find("resuming at update") != std::string::npos);
  BOOST_TEST(same_parameters((dir.path() / "whole.bin").string(), (dir.path() / "split.bin").string()));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(train_signals)

BOOST_AUTO_TEST_CASE(sigterm_then_resume_equals_an_uninterrupted_run) { interrupt_and_resume(SIGTERM); }

BOOST_AUTO_TEST_CASE(sigint_then_resume_equals_an_uninterrupted_run) { interrupt_and_resume(SIGINT); }

BOOST_AUTO_TEST_CASE(sighup_then_resume_equals_an_uninterrupted_run) { interrupt_and_resume(SIGHUP); }

BOOST_AUTO_TEST_CASE(sigkill_then_resume_from_the_last_checkpoint_equals_an_uninterrupted_run) {
  interrupt_and_resume(SIGKILL);
}

BOOST_AUTO_TEST_SUITE_END()
