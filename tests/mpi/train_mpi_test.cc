// nmt-train across processes: `mpirun -np 2 --oversubscribe` on this machine, a few
// dozen updates of a tiny model each time.
//   - 2 processes of 1 thread give the bits of 1 process of 2 threads (same parts of each
//     batch, same dropout masks, and a sum of two gradients has one order), validation,
//     dropout and clipping included;
//   - 2 processes match 1 process of 1 thread on the same global batch (without dropout,
//     whose masks follow the parts) up to float summation order: kTolerance;
//   - SIGTERM to one process stops all after the same update, rank 0 saves, and --resume
//     under mpirun ends with the bits of an uninterrupted run;
//   - a killed process ends the job with mpirun's message instead of a hang;
//   - only rank 0 talks: one log, one error message for bad input.
// Builds without MPI refuse to run as one of several processes, naming the reason.
// Without mpirun (or MPI in this build) the mpirun cases skip, and fail under CI=true.
#include <boost/test/unit_test.hpp>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <regex>
#include <sstream>

#include "model/model_file.h"
#include "support/child_process.h"
#include "support/run_process.h"
#include "support/temp_dir.h"
#include "train/process_group.h"
#include "util/rng.h"

namespace rt = rnnsearch::testing;
using namespace rnnsearch;

namespace {

// Largest difference allowed between a parameter of the 2-process run and the same
// parameter of the 1-process, 1-thread run after kUpdates Adam updates (learning rate
// 0.001, so a parameter moves at most about 0.001 per update). Measured: see the test log.
constexpr double kTolerance = 1e-5;
constexpr int kUpdates = 24;

std::string find_mpirun() {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    const std::string candidate = dir + "/mpirun";
    if (!dir.empty() && ::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

// True when mpirun can run nmt-train here; else skips (or fails under CI=true).
bool mpi_ready() {
  std::string missing;
  if (!train::ProcessGroup::mpi_available()) missing = "this build has no MPI (libboost-mpi-dev)";
  else if (find_mpirun().empty()) missing = "mpirun is not on PATH (openmpi-bin)";
  if (missing.empty()) return true;
  const char* ci = std::getenv("CI");
  if (ci != nullptr && std::string(ci) == "true") {
    BOOST_ERROR("MPI test needs MPI: " + missing);
  } else {
    BOOST_TEST_MESSAGE("skipped: " + missing);
  }
  return false;
}

// mpirun -np N on localhost. Open MPI refuses root without the two variables (CI runs as
// root); CMA single-copy needs ptrace rights that containers often lack.
std::vector<std::string> mpirun(int processes, const std::vector<std::string>& command) {
  std::vector<std::string> argv = {"/usr/bin/env",
                                   "OMPI_ALLOW_RUN_AS_ROOT=1",
                                   "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1",
                                   "OMPI_MCA_btl_vader_single_copy_mechanism=none",
                                   find_mpirun(),
                                   "-np",
                                   std::to_string(processes),
                                   "--oversubscribe"};
  argv.insert(argv.end(), command.begin(), command.end());
  return argv;
}

// A copy task (target = source) over 20 tokens, and a validation set.
void write_task(const rt::TempDir& dir) {
  util::Rng rng(11);
  for (const auto& [name, lines] : {std::pair<std::string, int>{"train", 600}, {"valid", 40}}) {
    std::ostringstream text;
    for (int i = 0; i < lines; ++i) {
      const int length = 2 + static_cast<int>(rng.below(6));
      for (int k = 0; k < length; ++k) text << (k ? " " : "") << "t" << rng.below(20);
      text << '\n';
    }
    dir.write(name + ".src", text.str());
    dir.write(name + ".tgt", text.str());
  }
}

std::vector<std::string> train_command(const rt::TempDir& dir, const std::string& model, int threads,
                                       const std::vector<std::string>& extra = {}, long updates = kUpdates) {
  const auto file = [&](const std::string& name) { return (dir.path() / name).string(); };
  std::vector<std::string> argv = {rt::tool_path("nmt-train"), "-t", file("train.src"), file("train.tgt"),
                                   "--valid-sets", file("valid.src"), file("valid.tgt"), "-m", file(model),
                                   "--dim-emb", "16", "--dim-enc", "16", "--dim-dec", "16", "--dim-att", "16",
                                   "--dim-maxout", "16", "--mini-batch", "8", "--max-updates",
                                   std::to_string(updates), "--valid-freq", "8", "--save-freq", "8",
                                   "--log-freq", "1", "--final-model", "last", "--threads", std::to_string(threads)};
  argv.insert(argv.end(), extra.begin(), extra.end());
  return argv;
}

std::vector<const nn::Parameter*> parameters_of(const model::LoadedModel& loaded) {
  return static_cast<const model::RnnSearch&>(*loaded.model).parameters().all();
}

bool same_bits(const std::string& a, const std::string& b) {
  const auto first = model::read_model_file(a), second = model::read_model_file(b);
  const auto pa = parameters_of(first), pb = parameters_of(second);
  if (pa.size() != pb.size()) return false;
  for (std::size_t i = 0; i < pa.size(); ++i) {
    if (pa[i]->value.size() != pb[i]->value.size() ||
        std::memcmp(pa[i]->value.data(), pb[i]->value.data(), pa[i]->value.size() * sizeof(float)) != 0) {
      return false;
    }
  }
  return true;
}

double largest_difference(const std::string& a, const std::string& b) {
  const auto first = model::read_model_file(a), second = model::read_model_file(b);
  const auto pa = parameters_of(first), pb = parameters_of(second);
  BOOST_TEST_REQUIRE(pa.size() == pb.size());
  double largest = 0.0;
  for (std::size_t i = 0; i < pa.size(); ++i) {
    BOOST_TEST_REQUIRE(pa[i]->value.size() == pb[i]->value.size());
    largest = std::max(largest, static_cast<double>((pa[i]->value - pb[i]->value).cwiseAbs().maxCoeff()));
  }
  return largest;
}

std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

// The pid the log names for `rank` ("rank 1 of 2 (pid 4242 on host)").
pid_t pid_of_rank(const std::string& log, int rank) {
  std::smatch match;
  const std::regex pattern("rank " + std::to_string(rank) + " of [0-9]+ \\(pid ([0-9]+) on ");
  if (!std::regex_search(log, match, pattern)) return -1;
  return static_cast<pid_t>(std::stol(match[1]));
}

// mpirun in the background. A test that fails before the job ends asks mpirun to end it
// (SIGTERM: mpirun ends its processes; SIGKILL, ChildProcess's last resort, would leave
// them running).
class MpiJob {
 public:
  explicit MpiJob(const std::vector<std::string>& argv) : child_(argv) {}
  ~MpiJob() {
    if (ended_) return;
    child_.send_signal(SIGTERM);
    child_.wait_for_stderr("\n(never printed)\n", 30.0);  // until every process closed stderr
  }
  bool wait_for_stderr(const std::string& text, double seconds) { return child_.wait_for_stderr(text, seconds); }
  const std::string& err() const { return child_.err(); }
  int wait() {
    ended_ = true;
    return child_.wait();
  }

 private:
  rt::ChildProcess child_;
  bool ended_ = false;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(train_mpi)

BOOST_AUTO_TEST_CASE(two_processes_of_one_thread_give_the_bits_of_one_process_of_two_threads) {
  if (!mpi_ready()) return;
  rt::TempDir dir;
  write_task(dir);
  const auto single = rt::run_process(train_command(dir, "one.bin", 2));
  BOOST_TEST_REQUIRE(single.exit_code == 0, single.err);
  const auto spread = rt::run_process(mpirun(2, train_command(dir, "two.bin", 1)));
  BOOST_TEST_REQUIRE(spread.exit_code == 0, spread.err);
  BOOST_TEST(spread.err.find("1 thread(s) in each of 2 processes") != std::string::npos, spread.err);
  BOOST_TEST(same_bits((dir.path() / "one.bin").string(), (dir.path() / "two.bin").string()));
  BOOST_TEST(same_bits((dir.path() / "one.bin.best").string(), (dir.path() / "two.bin.best").string()));
  // Rank 0 alone logs: each line once, the validations with the same figures.
  BOOST_TEST(count(spread.err, "training ended at update 24") == 1u, spread.err);
  BOOST_TEST(count(spread.err, "validation at update 16 (") == 1u, spread.err);
  const auto figures = [](const std::string& log) {
    const auto at = log.find("validation at update 24");
    const auto start = log.find("cross-entropy", at);
    return log.substr(start, log.find('\n', start) - start);
  };
  BOOST_TEST(figures(spread.err) == figures(single.err));
}

// With --exponential-smoothing and --keep-checkpoints, and a resume under mpirun in
// between: every process keeps the same smoothed copy, rank 0 saves and resumes it.
BOOST_AUTO_TEST_CASE(smoothing_and_a_resume_under_mpirun_give_the_bits_of_one_process_of_two_threads) {
  if (!mpi_ready()) return;
  rt::TempDir dir;
  write_task(dir);
  const std::vector<std::string> habits = {"--exponential-smoothing", "0.05", "--keep-checkpoints", "2"};
  const auto single = rt::run_process(train_command(dir, "one.bin", 2, habits));
  BOOST_TEST_REQUIRE(single.exit_code == 0, single.err);
  const auto first = rt::run_process(mpirun(2, train_command(dir, "two.bin", 1, habits, 12)));
  BOOST_TEST_REQUIRE(first.exit_code == 0, first.err);
  auto resume = mpirun(2, train_command(dir, "two.bin", 1, habits));
  resume.push_back("--resume");
  const auto resumed = rt::run_process(resume);
  BOOST_TEST_REQUIRE(resumed.exit_code == 0, resumed.err);
  for (const std::string suffix : {"", ".best", ".ckpt", ".update16", ".update24"}) {
    BOOST_TEST(same_bits((dir.path() / ("one.bin" + suffix)).string(), (dir.path() / ("two.bin" + suffix)).string()),
               suffix);
  }
}

BOOST_AUTO_TEST_CASE(two_processes_match_one_process_of_one_thread_up_to_summation_order) {
  if (!mpi_ready()) return;
  rt::TempDir dir;
  write_task(dir);
  const auto single = rt::run_process(train_command(dir, "one.bin", 1, {"--dropout", "0"}));
  BOOST_TEST_REQUIRE(single.exit_code == 0, single.err);
  const auto spread = rt::run_process(mpirun(2, train_command(dir, "two.bin", 1, {"--dropout", "0"})));
  BOOST_TEST_REQUIRE(spread.exit_code == 0, spread.err);
  const double difference = largest_difference((dir.path() / "one.bin").string(), (dir.path() / "two.bin").string());
  BOOST_TEST_MESSAGE("largest parameter difference after " << kUpdates << " updates: " << difference);
  BOOST_TEST(difference <= kTolerance);
  BOOST_TEST(difference > 0.0);  // the sums are ordered differently: were the batches split at all?
}

BOOST_AUTO_TEST_CASE(sigterm_to_one_process_stops_all_and_resume_gives_the_bits_of_an_uninterrupted_run) {
  if (!mpi_ready()) return;
  rt::TempDir dir;
  write_task(dir);
  constexpr long kLongRun = 300;
  const auto whole = rt::run_process(mpirun(2, train_command(dir, "whole.bin", 1, {}, kLongRun)));
  BOOST_TEST_REQUIRE(whole.exit_code == 0, whole.err);

  MpiJob child(mpirun(2, train_command(dir, "split.bin", 1, {}, kLongRun)));
  BOOST_TEST_REQUIRE(child.wait_for_stderr("update 20 ", 120.0), child.err());
  const pid_t rank1 = pid_of_rank(child.err(), 1);
  BOOST_TEST_REQUIRE(rank1 > 0, child.err());
  ::kill(rank1, SIGTERM);  // not rank 0: the stop must still reach every process
  const int code = child.wait();
  BOOST_TEST(code != 0);
  BOOST_TEST(child.err().find("training ended") == std::string::npos, child.err());
  BOOST_TEST(count(child.err(), "stopped by a signal after update") == 1u, child.err());

  auto resume = mpirun(2, train_command(dir, "split.bin", 1, {}, kLongRun));
  resume.push_back("--resume");
  const auto resumed = rt::run_process(resume);
  BOOST_TEST_REQUIRE(resumed.exit_code == 0, resumed.err);
  BOOST_TEST(count(resumed.err, "resuming at update") == 1u, resumed.err);
  BOOST_TEST(same_bits((dir.path() / "whole.bin").string(), (dir.path() / "split.bin").string()));
}

BOOST_AUTO_TEST_CASE(a_killed_process_ends_the_job_with_a_message) {
  if (!mpi_ready()) return;
  rt::TempDir dir;
  write_task(dir);
  MpiJob child(mpirun(2, train_command(dir, "model.bin", 1, {"--max-epochs", "1000"}, 0)));
  BOOST_TEST_REQUIRE(child.wait_for_stderr("update 10 ", 120.0), child.err());
  const pid_t rank1 = pid_of_rank(child.err(), 1);
  BOOST_TEST_REQUIRE(rank1 > 0, child.err());
  ::kill(rank1, SIGKILL);
  // mpirun notices the death and ends rank 0, which would otherwise wait in its all-reduce.
  BOOST_TEST(child.wait_for_stderr("exited on signal 9", 60.0), child.err());
  BOOST_TEST(child.wait() != 0);
}

BOOST_AUTO_TEST_CASE(bad_input_is_reported_once_and_every_process_ends) {
  if (!mpi_ready()) return;
  rt::TempDir dir;
  write_task(dir);
  dir.write("short.tgt", "t1 t2\n");
  auto command = train_command(dir, "model.bin", 1);
  command[3] = (dir.path() / "short.tgt").string();  // -t train.src short.tgt
  const auto run = rt::run_process(mpirun(2, command));
  BOOST_TEST(run.exit_code == 1, run.err);
  BOOST_TEST(count(run.err, "nmt-train: ") == 1u, run.err);
  BOOST_TEST(run.err.find("short.tgt") != std::string::npos, run.err);
  BOOST_TEST(run.err.find("MPI_ABORT") == std::string::npos, run.err);  // all ended normally, none was killed
}

BOOST_AUTO_TEST_CASE(version_says_whether_this_build_has_mpi) {
  const auto run = rt::run_process({rt::tool_path("nmt-train"), "--version"});
  BOOST_TEST(run.exit_code == 0);
  const std::string expected = train::ProcessGroup::mpi_available() ? "with MPI" : "without MPI";
  BOOST_TEST(run.out.find(expected) != std::string::npos, run.out);
}

BOOST_AUTO_TEST_CASE(a_build_without_mpi_refuses_to_be_one_of_several_processes) {
  if (train::ProcessGroup::mpi_available()) return;  // only builds without MPI refuse
  rt::TempDir dir;
  write_task(dir);
  // As mpirun's environment says to each of its processes.
  std::vector<std::string> argv = {"/usr/bin/env", "OMPI_COMM_WORLD_SIZE=2"};
  const auto command = train_command(dir, "model.bin", 1);
  argv.insert(argv.end(), command.begin(), command.end());
  const auto run = rt::run_process(argv);
  BOOST_TEST(run.exit_code == 2, run.err);
  BOOST_TEST(run.err.find("started 2 processes (OMPI_COMM_WORLD_SIZE), but this build has no MPI") !=
                 std::string::npos, run.err);
  BOOST_TEST(!std::filesystem::exists(dir.path() / "model.bin"));
}

BOOST_AUTO_TEST_SUITE_END()
