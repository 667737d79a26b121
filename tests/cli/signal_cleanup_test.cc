// A tool stopped by SIGINT or SIGTERM while writing -o FILE leaves FILE as it was and no
// FILE.tmp.* beside it, and still dies by the signal (a shell sees 130 or 143). Each tool
// reads a FIFO that the test keeps open and never ends, so it is caught mid-output with
// its temporary file open.
#include <boost/test/unit_test.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <thread>

#include "support/child_process.h"
#include "support/golden_cases.h"
#include "support/reversal_model.h"
#include "support/run_process.h"
#include "support/temp_dir.h"

namespace rt = rnnsearch::testing;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> temporaries(const fs::path& dir) {
  std::vector<std::string> found;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.find(".tmp.") != std::string::npos) found.push_back(name);
  }
  return found;
}

bool wait_for_temporary(const fs::path& dir, double seconds) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (temporaries(dir).empty()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

// Runs `tool args -i FIFO -o OUT` over an OUT holding "old\n", feeds it `lines` and
// never ends the input; sends `signal` once its temporary file exists.
void check_signal_leaves_no_temporary(const std::string& tool, std::vector<std::string> args, const std::string& lines,
                                      int signal) {
  rt::TempDir dir;
  const std::string fifo = (dir.path() / "input").string();
  BOOST_TEST_REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const std::string out = dir.write("out", "old\n");
  // Held open for reading and writing: the tool's open does not wait, and it never sees
  // the end of its input.
  const int feed = ::open(fifo.c_str(), O_RDWR);
  BOOST_TEST_REQUIRE(feed >= 0);
  BOOST_TEST_REQUIRE(::write(feed, lines.data(), lines.size()) == static_cast<ssize_t>(lines.size()));
  std::vector<std::string> argv = {rt::tool_path(tool)};
  argv.insert(argv.end(), args.begin(), args.end());
  argv.insert(argv.end(), {"-i", fifo, "-o", out});
  std::string call = tool;
  for (const auto& a : args) call += " " + a;

  rt::ChildProcess child(argv);
  const bool writing = wait_for_temporary(dir.path(), 30.0);
  child.send_signal(signal);
  const int code = child.wait();
  ::close(feed);
  BOOST_TEST_REQUIRE(writing, call << ": no temporary file appeared; stderr: " << child.err());
  BOOST_TEST(child.killed_by() == signal, call << " exited " << code << ": " << child.err());
  BOOST_TEST(temporaries(dir.path()).empty(), call << " left a temporary file");
  BOOST_TEST(rt::read_file(out) == "old\n", call);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(signal_cleanup)

BOOST_AUTO_TEST_CASE(line_tools_remove_their_temporary_file_on_sigterm_and_sigint) {
  rt::TempDir codes_dir;
  const std::string codes = codes_dir.write("codes", "#version: 0.2\nl o\nlo w</w>\n");
  for (const int signal : {SIGTERM, SIGINT}) {
    check_signal_leaves_no_temporary("nmt-tokenize", {}, "Hello, world.\n", signal);
    check_signal_leaves_no_temporary("nmt-detokenize", {}, "Hello , world .\n", signal);
    check_signal_leaves_no_temporary("nmt-bpe", {"apply", "-c", codes}, "low lower\n", signal);
    check_signal_leaves_no_temporary("nmt-bpe", {"undo"}, "lo@@ w\n", signal);
  }
}

BOOST_AUTO_TEST_CASE(nmt_decode_removes_its_temporary_file_on_sigterm) {
  const rt::ReversalModel m;
  check_signal_leaves_no_temporary("nmt-decode", {"-m", m.model, "-q"}, "w1 w2 w3\n", SIGTERM);
}

BOOST_AUTO_TEST_SUITE_END()
