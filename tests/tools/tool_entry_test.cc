// The tools' entry (tools/support/): run_tool's exit codes and messages, the answers to
// --help and --version printed on stdout (the library only returns them), the library's
// messages and progress handed to stderr.
#include <boost/test/unit_test.hpp>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "math/cpu_isa.h"
#include "tools/support/tool_entry.h"
#include "util/error.h"
#include "util/progress_meter.h"
#include "util/progress_output.h"

namespace po = boost::program_options;
namespace tools = rnnsearch::tools;
namespace util = rnnsearch::util;

namespace {

// What `stream` receives while `run` runs.
template <class Run>
std::string captured(std::ostream& stream, Run run) {
  std::ostringstream text;
  std::streambuf* const old = stream.rdbuf(text.rdbuf());
  try {
    run();
  } catch (...) {
    stream.rdbuf(old);
    throw;
  }
  stream.rdbuf(old);
  return text.str();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(tool_entry)

BOOST_AUTO_TEST_CASE(run_tool_maps_errors_to_exit_codes) {
  BOOST_TEST(tools::run_tool("t", [] { return 0; }) == util::kExitOk);
  BOOST_TEST(tools::run_tool("t", []() -> int { throw util::Error("f.txt", 2, "bad line"); }) == util::kExitFailure);
  BOOST_TEST(tools::run_tool("t", []() -> int { throw util::UsageError("--beam-size must be in [1, 1000], got 0"); }) ==
             util::kExitUsage);
  BOOST_TEST(tools::run_tool("t", []() -> int { throw po::unknown_option("--nope"); }) == util::kExitUsage);
  BOOST_TEST(tools::run_tool("t", []() -> int { throw std::runtime_error("boom"); }) == util::kExitFailure);
}

BOOST_AUTO_TEST_CASE(run_tool_names_the_tool_and_the_place_in_one_line) {
  int code = -1;
  const std::string error = captured(std::cerr, [&] {
    code = tools::run_tool("nmt-x", []() -> int { throw util::Error("f.txt", 2, "bad line"); });
  });
  BOOST_TEST(code == util::kExitFailure);
  BOOST_TEST(error == "nmt-x: f.txt:2: bad line\n");
  const std::string usage = captured(std::cerr, [&] {
    code = tools::run_tool("nmt-x", []() -> int { throw util::UsageError("--beam-size must be positive"); });
  });
  BOOST_TEST(code == util::kExitUsage);
  BOOST_TEST(usage == "nmt-x: --beam-size must be positive\nTry 'nmt-x --help' for more information.\n");
}

BOOST_AUTO_TEST_CASE(the_library_returns_the_version_answer_and_the_entry_prints_it) {
  util::CommonOptions common;
  po::options_description options;
  util::add_common_options(options, common);
  const util::ToolInfo tool{"nmt-x", "Usage: nmt-x\n", " (a note)"};
  std::optional<std::string> answer;
  BOOST_TEST(captured(std::cout, [&] { answer = util::read_command_line(tool, {"--version"}, options, common); })
                 .empty());
  BOOST_REQUIRE(answer.has_value());
  BOOST_TEST(*answer == util::version_line("nmt-x") + " (a note)\n");

  util::CommonOptions again;
  po::options_description options_again;
  util::add_common_options(options_again, again);
  bool answered = false;
  const std::string printed =
      captured(std::cout, [&] { answered = tools::parse_command_line(tool, {"--version"}, options_again, again); });
  BOOST_TEST(answered);
  BOOST_TEST(printed == *answer + tools::kernels_line());
  BOOST_TEST(tools::kernels_line().rfind(std::string("kernels: ") + rnnsearch::math::cpu_isa_name(rnnsearch::math::cpu_isa()), 0) ==
             0u);
}

BOOST_AUTO_TEST_CASE(warnings_survive_quiet_and_notes_do_not) {
  util::CommonOptions quiet;
  quiet.quiet = true;
  const std::string error = captured(std::cerr, [&] {
    const util::Messages messages = tools::stderr_messages(quiet, "nmt-x");
    messages.note("a note");
    messages.warn("3 lines truncated");
  });
  BOOST_TEST(error == "nmt-x: warning: 3 lines truncated\n");
}

BOOST_AUTO_TEST_CASE(progress_goes_where_the_entry_says_and_nowhere_without_it) {
  const util::ProgressOutput saved = util::progress_output();
  std::string written;
  util::set_progress_output({true, [&written](const std::string& text) { written += text; }});
  {
    util::ProgressMeter meter("nmt-x", "lines", true, 10);
    meter.set_done(4);
  }
  BOOST_TEST(written.rfind("\r\033[Knmt-x: 4/10 lines", 0) == 0);
  BOOST_TEST(written.substr(written.size() - 4) == "\r\033[K");  // erased at the end

  util::set_progress_output({});
  {
    util::ProgressMeter meter("nmt-x", "lines", true, 10);
    meter.set_done(4);  // nowhere to go: dropped
  }
  util::set_progress_output({false, [&written](const std::string& text) { written += text; }});
  written.clear();
  {
    util::ProgressMeter meter("nmt-x", "lines", true, 10);
    meter.set_done(4);  // not a terminal: no live line
  }
  BOOST_TEST(written.empty());
  util::set_progress_output(saved);
}

BOOST_AUTO_TEST_SUITE_END()
