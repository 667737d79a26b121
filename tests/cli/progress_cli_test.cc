// Long-running tools show a live progress line when stderr is a terminal, erase it when
// done, and print none with -q or when stderr is a pipe (a log file, a pipeline).
#include <boost/test/unit_test.hpp>

#include <functional>
#include <regex>

#include "support/golden_cases.h"
#include "support/reversal_model.h"
#include "support/run_process.h"
#include "support/temp_dir.h"
#include "support/terminal_process.h"

namespace rt = rnnsearch::testing;

namespace {

const std::string kRedraw = "\r\033[K";  // the start of every live line, and the erasure

struct Case {
  std::string tool;  // the name the live line starts with
  std::string unit;
  std::vector<std::string> argv;
};

// Every text tool and both model tools on the reversal model's 2,000 training pairs.
std::vector<Case> cases(const rt::ReversalModel& m) {
  const auto file = [&m](const std::string& name) { return (m.dir.path() / name).string(); };
  const auto bin = [](const std::string& tool) { return rt::tool_path(tool); };
  m.dir.write("corpus.src", rt::read_file(file("train.src")));
  m.dir.write("corpus.tgt", rt::read_file(file("train.tgt")));
  m.dir.write("codes", "#version: 0.2\nw 0</w>\n");
  return {
      {"nmt-tokenize", "lines", {bin("nmt-tokenize"), "-i", file("train.src"), "-o", file("out")}},
      {"nmt-detokenize", "lines", {bin("nmt-detokenize"), "-i", file("train.src"), "-o", file("out")}},
      {"nmt-bpe learn", "lines", {bin("nmt-bpe"), "learn", "-i", file("train.src"), "-o", file("out"), "-s", "5"}},
      {"nmt-bpe apply", "lines", {bin("nmt-bpe"), "apply", "-c", file("codes"), "-i", file("train.src"), "-o", file("out")}},
      {"nmt-bpe undo", "lines", {bin("nmt-bpe"), "undo", "-i", file("train.src"), "-o", file("out")}},
      {"nmt-vocab", "lines", {bin("nmt-vocab"), "-i", file("train.src"), "-o", file("out")}},
      {"nmt-clean", "lines", {bin("nmt-clean"), file("corpus"), "src", "tgt", file("clean"), "1", "80"}},
      {"nmt-decode", "sentences", {bin("nmt-decode"), "-m", m.model, "-i", file("train.src"), "-o", file("out")}},
      {"nmt-align", "pairs", {bin("nmt-align"), "-m", m.model, "-s", file("train.src"), "-t", file("train.tgt"), "-o",
                              file("out")}},
      {"nmt-align ibm2", "pairs", {bin("nmt-align"), "ibm2", "-s", file("train.src"), "-t", file("train.tgt"), "-o",
                                   file("out")}},
  };
}

}  // namespace

BOOST_AUTO_TEST_SUITE(progress_cli)

BOOST_AUTO_TEST_CASE(a_terminal_gets_a_live_line_that_is_erased_at_the_end) {
  const rt::ReversalModel m;
  for (const auto& c : cases(m)) {
    const auto r = rt::run_with_terminal_stderr(c.argv);
    BOOST_TEST_REQUIRE(r.exit_code == 0, c.tool << ": " << r.err);
    BOOST_TEST(r.err.find(kRedraw + c.tool + ": ") != std::string::npos, c.tool << ": " << r.err);
    BOOST_TEST(r.err.find(" " + c.unit) != std::string::npos, c.tool << ": " << r.err);
    // The last live line is erased: after the last redraw comes no live line, only the
    // summaries some tools print on lines of their own.
    const std::string after = r.err.substr(r.err.rfind(kRedraw) + kRedraw.size());
    const std::regex live_line("^" + c.tool + ": [0-9,]+(/[0-9,]+)? " + c.unit);
    BOOST_TEST(!std::regex_search(after, live_line), c.tool << ": " << r.err);
  }
}

BOOST_AUTO_TEST_CASE(quiet_or_a_pipe_gets_no_live_line) {
  const rt::ReversalModel m;
  for (const auto& c : cases(m)) {
    auto quiet = c.argv;
    quiet.push_back("-q");
    const auto on_terminal = rt::run_with_terminal_stderr(quiet);
    BOOST_TEST_REQUIRE(on_terminal.exit_code == 0, c.tool << ": " << on_terminal.err);
    BOOST_TEST(on_terminal.err.find('\r') == std::string::npos, c.tool << ": " << on_terminal.err);
    const auto in_pipe = rt::run_process(c.argv);
    BOOST_TEST_REQUIRE(in_pipe.exit_code == 0, c.tool << ": " << in_pipe.err);
    BOOST_TEST(in_pipe.err.find('\r') == std::string::npos, c.tool << ": " << in_pipe.err);
  }
}

BOOST_AUTO_TEST_SUITE_END()
