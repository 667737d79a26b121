// A tool whose stdout cannot be written (`> /dev/full`: every write fails with ENOSPC)
// fails: exit 1 and one line on stderr naming <stdout>, never exit 0 with the output
// lost. Every tool's --help and --version (each subcommand's too), and the reports
// printed rather than written through -o: nmt-align eval, nmt-bleu.
#include <boost/test/unit_test.hpp>

#include <algorithm>

#include "cli/project_tools.h"
#include "support/run_process.h"
#include "support/temp_dir.h"

namespace rt = rnnsearch::testing;

namespace {

// `tool args > /dev/full`, through the shell that does the redirection.
rt::ProcessResult run_to_full_disk(const std::string& tool, const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"/bin/sh", "-c", "exec \"$0\" \"$@\" > /dev/full", rt::tool_path(tool)};
  argv.insert(argv.end(), args.begin(), args.end());
  return rt::run_process(argv);
}

void check_write_failure(const std::string& tool, const std::vector<std::string>& args) {
  std::string call = tool;
  for (const auto& a : args) call += " " + a;
  const auto r = run_to_full_disk(tool, args);
  BOOST_TEST(r.exit_code == 1, call << " > /dev/full exited " << r.exit_code << ": " << r.err);
  BOOST_TEST(r.err.rfind(tool + ": <stdout>: write failed", 0) == 0u, call << ": " << r.err);
  BOOST_TEST(std::count(r.err.begin(), r.err.end(), '\n') == 1, call << ": " << r.err);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(full_stdout)

BOOST_AUTO_TEST_CASE(help_and_version_of_every_tool_fail_on_a_full_stdout) {
  const auto tools = rt::project_tools();
  BOOST_TEST_REQUIRE(tools.size() >= 10u);
  for (const auto& tool : tools) {
    check_write_failure(tool, {"--help"});
    check_write_failure(tool, {"--version"});
  }
  for (const std::string command : {"learn", "apply", "undo"}) check_write_failure("nmt-bpe", {command, "--help"});
  for (const std::string command : {"match", "extract"}) check_write_failure("nmt-glossary", {command, "--help"});
  for (const std::string command : {"symmetrize", "combine", "ibm2", "hmm", "eval", "heatmap"}) {
    check_write_failure("nmt-align", {command, "--help"});
  }
}

BOOST_AUTO_TEST_CASE(reports_on_stdout_fail_on_a_full_stdout) {
  rt::TempDir dir;
  const auto gold = dir.write("gold", "0-0 1?1\n0-0\n");
  const auto links = dir.write("links", "0-0 1-1\n0-0\n");
  check_write_failure("nmt-align", {"eval", "-g", gold, "-a", links});
  const auto ref = dir.write("ref", "the cat sat\n");
  check_write_failure("nmt-bleu", {ref, "-i", ref});
  // Lines written through stdout ("-o -", the default) as well.
  const auto text = dir.write("text", "Hello, world.\n");
  check_write_failure("nmt-tokenize", {"-i", text});
  check_write_failure("nmt-vocab", {"-i", text});
  check_write_failure("nmt-align", {"symmetrize", "-i", links, "-j", links});
}

// Output larger than stdout's buffer fails while it is written, not at the final flush:
// the message still names <stdout>, never "-" (the -o value that means it).
BOOST_AUTO_TEST_CASE(long_outputs_on_stdout_name_stdout_when_they_fail) {
  rt::TempDir dir;
  std::string words, sources, targets, vocab;
  for (int i = 0; i < 20000; ++i) words += "w" + std::to_string(i) + " x.\n";
  for (int i = 0; i < 5000; ++i) {
    sources += "s" + std::to_string(i) + "\n";
    targets += "t" + std::to_string(i) + "\n";
    vocab += "t" + std::to_string(i) + " 1\n";
  }
  const auto text = dir.write("text", words);
  const auto table = (dir.path() / "table").string();
  const auto trained = rt::run_process({rt::tool_path("nmt-align"), "ibm2", "-s", dir.write("s", sources), "-t",
                                        dir.write("t", targets), "--save-table", table, "-o", "/dev/null", "-q"});
  BOOST_TEST_REQUIRE(trained.exit_code == 0, trained.err);
  check_write_failure("nmt-shortlist", {"--table", table, "--target-vocab", dir.write("vocab", vocab)});
  check_write_failure("nmt-tokenize", {"-i", text});
  check_write_failure("nmt-detokenize", {"-i", text});
  check_write_failure("nmt-vocab", {"-i", text});
  check_write_failure("nmt-bpe", {"undo", "-i", text});
  check_write_failure("nmt-bleu", {text, "-i", text, "-sl"});
}

BOOST_AUTO_TEST_SUITE_END()
