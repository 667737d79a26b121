// A tool killed outright (SIGKILL: no handler runs) at any moment while writing -o FILE
// over an existing FILE leaves either the old FILE or the complete new one, never a
// partial file. Each writer runs once to completion for its new content and duration T,
// then is started again over the old content and killed after delays drawn (seeded)
// from [0, 1.2 T]: before it opens the output, while it writes, around the rename, after.
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <csignal>
#include <random>
#include <sstream>
#include <thread>

#include "support/child_process.h"
#include "support/golden_cases.h"
#include "support/reversal_model.h"
#include "support/run_process.h"
#include "support/temp_dir.h"

namespace rt = rnnsearch::testing;

namespace {

constexpr int kKillsPerTool = 5;

// `lines` lines of 6 to 20 words from a vocabulary of `words` ("word17"), with some
// punctuation when `punctuation`.
std::string text(std::mt19937& rng, int lines, int words, const char* prefix, bool punctuation) {
  std::ostringstream out;
  for (int i = 0; i < lines; ++i) {
    const int length = 6 + static_cast<int>(rng() % 15);
    for (int k = 0; k < length; ++k) {
      out << (k ? " " : "") << prefix << rng() % words << (punctuation && rng() % 9 == 0 ? "," : "");
    }
    out << (punctuation ? ".\n" : "\n");
  }
  return out.str();
}

// Pharaoh links, a few per line.
std::string links(std::mt19937& rng, int lines) {
  std::ostringstream out;
  for (int i = 0; i < lines; ++i) {
    for (int k = 0; k < 8; ++k) out << (k ? " " : "") << k << "-" << (k + rng() % 3) % 8;
    out << "\n";
  }
  return out.str();
}

// Runs `tool args -o OUT` to completion into a fresh OUT, then kKillsPerTool times over
// an OUT holding `old`, killed after a delay; OUT must then be `old` or the complete output.
void check_kills_leave_old_or_new(const rt::TempDir& dir, const std::string& tool, const std::vector<std::string>& args,
                                  std::mt19937& rng) {
  std::string call = tool;
  for (const auto& a : args) call += " " + a;
  std::vector<std::string> argv = {rt::tool_path(tool)};
  argv.insert(argv.end(), args.begin(), args.end());
  const std::string name = "out." + std::to_string(rng() % 1000000);
  const std::string out = (dir.path() / name).string();
  argv.insert(argv.end(), {"-o", out});

  const auto start = std::chrono::steady_clock::now();
  const auto complete = rt::run_process(argv);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  BOOST_TEST_REQUIRE(complete.exit_code == 0, call << ": " << complete.err);
  const std::string fresh = rt::read_file(out);
  BOOST_TEST_REQUIRE(fresh.size() > 50000u, call << " wrote only " << fresh.size() << " bytes");

  const std::string old = "the previous run's output\n";
  std::uniform_real_distribution<double> delay(0.0, 1.2 * seconds);
  int kept_old = 0, completed = 0;
  for (int k = 0; k < kKillsPerTool; ++k) {
    dir.write(name, old);
    const double wait = delay(rng);
    rt::ChildProcess child(argv);
    std::this_thread::sleep_for(std::chrono::duration<double>(wait));
    child.send_signal(SIGKILL);
    child.wait();
    const std::string now = rt::read_file(out);
    kept_old += now == old;
    completed += now == fresh;
    BOOST_TEST((now == old || now == fresh),
               call << " killed after " << wait << " s left " << now.size() << " bytes, neither the old "
                    << old.size() << " nor the new " << fresh.size());
  }
  BOOST_TEST_MESSAGE(call << ": a run takes " << seconds << " s; " << kKillsPerTool << " kills left the old file "
                          << kept_old << " times, the new one " << completed << " times");
}

}  // namespace

BOOST_AUTO_TEST_SUITE(kill_writers)

BOOST_AUTO_TEST_CASE(sigkill_at_random_moments_leaves_the_old_or_the_complete_new_output) {
  std::mt19937 rng(20261124);
  rt::TempDir dir;
  const std::string raw = dir.write("raw.txt", text(rng, 60000, 5000, "word", true));
  const std::string codes = dir.write("codes", "#version: 0.2\nw o\nwo r\nwor d\nword 1\nword 2\nword 3\n");
  const std::string forward = dir.write("forward.align", links(rng, 60000));
  const std::string reverse = dir.write("reverse.align", links(rng, 60000));
  check_kills_leave_old_or_new(dir, "nmt-tokenize", {"-i", raw, "-q"}, rng);
  check_kills_leave_old_or_new(dir, "nmt-detokenize", {"-i", raw, "-q"}, rng);
  check_kills_leave_old_or_new(dir, "nmt-bpe", {"apply", "-c", codes, "-i", raw}, rng);
  check_kills_leave_old_or_new(dir, "nmt-bpe", {"undo", "-i", raw}, rng);
  check_kills_leave_old_or_new(dir, "nmt-vocab", {"-i", raw}, rng);
  check_kills_leave_old_or_new(dir, "nmt-align", {"symmetrize", "-i", forward, "-j", reverse}, rng);

  const rt::ReversalModel m;
  const std::string sources = dir.write("sources", text(rng, 3000, 10, "w", false));
  check_kills_leave_old_or_new(dir, "nmt-decode", {"-m", m.model, "-i", sources, "-q"}, rng);
  check_kills_leave_old_or_new(dir, "nmt-align", {"-m", m.model, "-s", sources, "-t", sources, "-q"}, rng);
  check_kills_leave_old_or_new(dir, "nmt-align", {"ibm2", "-s", sources, "-t", sources, "-q"}, rng);
}

BOOST_AUTO_TEST_SUITE_END()
