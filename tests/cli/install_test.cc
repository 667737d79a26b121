// `cmake --install` of the build tree into a fresh prefix puts
//   - every tool (tools/nmt-*.cc) in PREFIX/bin, where it runs;
//   - every man page (man/man<N>/*) in PREFIX/share/man/man<N>, the source page with the
//     date of the commit and the project's version in its .TH line;
//   - every recipe marked "# Installed as rnnsearch-NAME" in PREFIX/share/rnnsearch, byte for
//     byte, with common.sh and the version file beside it and the command
//     PREFIX/bin/rnnsearch-NAME, which answers -h, --help and --version (the project's) and
//     finds the installed tools with no help from PATH or $NMT_BIN;
//   - every file of data/systemd/ (nmt-serve's example unit and configuration) in
//     PREFIX/share/doc/rnnsearch/examples, byte for byte;
// and nothing else (no static library, no headers).
#include <boost/test/unit_test.hpp>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "cli/project_tools.h"
#include "rnnsearch/version.h"
#include "support/golden_cases.h"
#include "support/reversal_model.h"
#include "support/run_process.h"
#include "support/shared_data.h"
#include "support/temp_dir.h"

namespace rt = rnnsearch::testing;
namespace fs = std::filesystem;

namespace {

// The build tree installed into a fresh prefix; a failed install fails the test.
struct Installed {
  rt::TempDir prefix;
  Installed() {
    const auto r = rt::run_process({rt::cmake_command(), "--install", rt::build_dir(), "--prefix", prefix.path().string()});
    BOOST_TEST_REQUIRE(r.exit_code == 0, rt::cmake_command() << " --install " << rt::build_dir() << " --prefix "
                                                             << prefix.path().string() << " exits with status "
                                                             << r.exit_code << ":\n" << r.out << r.err);
  }
  std::string path(const std::string& relative) const { return (prefix.path() / relative).string(); }
};

// The installed file `relative` exists and, when `executable`, may be run; else an error.
bool check_installed(const Installed& installed, const std::string& relative, const std::string& what,
                     bool executable) {
  if (!fs::exists(installed.path(relative))) {
    BOOST_ERROR(what << " is not installed as " << relative);
    return false;
  }
  BOOST_CHECK_MESSAGE(!executable || access(installed.path(relative).c_str(), X_OK) == 0,
                      relative << " is installed but not executable");
  return true;
}

// A recipe run the way an installed one is found: by its path, with PATH holding no tools
// and $NMT_BIN unset.
rt::ProcessResult run_installed(const std::string& command, const std::vector<std::string>& args,
                                const std::string& input = "") {
  std::vector<std::string> argv = {"/usr/bin/env", "-u", "NMT_BIN", "PATH=/usr/bin:/bin", command};
  argv.insert(argv.end(), args.begin(), args.end());
  return rt::run_process(argv, "", input);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(install)

BOOST_AUTO_TEST_CASE(cmake_install_puts_every_tool_page_recipe_and_example_under_the_prefix) {
  const Installed installed;
  std::set<std::string> expected;  // paths relative to the prefix
  for (const auto& tool : rt::project_tools()) {
    expected.insert("bin/" + tool);
    if (!check_installed(installed, "bin/" + tool, "tools/" + tool + ".cc", true)) continue;
    const auto version = rt::run_process({installed.path("bin/" + tool), "--version"});
    BOOST_CHECK_MESSAGE(version.exit_code == 0 && version.out.find(tool + " (rnnsearch) ") == 0u,
                        "the installed bin/" << tool << " --version exits with status " << version.exit_code
                                             << ": " << version.out << version.err);
  }
  for (const auto& page : rt::project_man_pages()) {
    const std::string relative = "share/man/" + page;
    expected.insert(relative);
    if (!check_installed(installed, relative, "man/" + page, false)) continue;
    BOOST_CHECK_MESSAGE(rt::read_file(installed.path(relative)) == rt::man_page_as_built(page),
                        relative << " is not man/" << page << " with its .TH line dated " << rt::manual_date()
                                 << " and versioned " << rnnsearch::kVersion);
  }
  expected.insert({"share/rnnsearch/common.sh", "share/rnnsearch/version"});
  BOOST_CHECK_MESSAGE(fs::exists(installed.path("share/rnnsearch/version")) &&
                          rt::read_file(installed.path("share/rnnsearch/version")) == std::string(rnnsearch::kVersion) + "\n",
                      "share/rnnsearch/version, which the recipes' --version reads, should hold " << rnnsearch::kVersion);
  for (const auto& recipe : rt::installed_recipes()) {
    const std::string copy = "share/rnnsearch/" + recipe.file, command = "bin/" + recipe.command;
    expected.insert({copy, command});
    if (!check_installed(installed, copy, "pipelines/" + recipe.file, true)) continue;
    check_installed(installed, command, "pipelines/" + recipe.file, true);
    BOOST_CHECK_MESSAGE(rt::read_file(installed.path(copy)) == rt::read_file(rt::source_dir() + "/pipelines/" + recipe.file),
                        copy << " differs from pipelines/" << recipe.file);
  }
  BOOST_CHECK_MESSAGE(rt::read_file(installed.path("share/rnnsearch/common.sh")) ==
                          rt::read_file(rt::source_dir() + "/pipelines/common.sh"),
                      "share/rnnsearch/common.sh differs from pipelines/common.sh");
  const fs::path examples = fs::path(rt::source_dir()) / "data" / "systemd";
  BOOST_CHECK_MESSAGE(fs::exists(examples / "nmt-serve.service") && fs::exists(examples / "nmt-serve.conf"),
                      "data/systemd/ lacks nmt-serve.service or nmt-serve.conf, which nmt-serve(1) names");
  for (const auto& entry : fs::directory_iterator(examples)) {
    const std::string file = entry.path().filename().string(), copy = "share/doc/rnnsearch/examples/" + file;
    expected.insert(copy);
    if (!check_installed(installed, copy, "data/systemd/" + file, false)) continue;
    BOOST_CHECK_MESSAGE(rt::read_file(installed.path(copy)) == rt::read_file(entry.path().string()),
                        copy << " differs from data/systemd/" << file);
  }
  for (const auto& entry : fs::recursive_directory_iterator(installed.prefix.path())) {
    if (entry.is_directory()) continue;
    const std::string relative = fs::relative(entry.path(), installed.prefix.path()).string();
    BOOST_CHECK_MESSAGE(expected.count(relative), "cmake --install also installs " << relative
                                                  << ", which is neither a tool, a man page, a recipe nor an example");
  }
}

BOOST_AUTO_TEST_CASE(the_user_facing_recipes_are_installed) {
  std::set<std::string> commands;
  for (const auto& recipe : rt::installed_recipes()) commands.insert(recipe.command);
  for (const std::string name : {"translate", "evaluate", "align-both-ways", "filter", "sharded"}) {
    BOOST_CHECK_MESSAGE(commands.count("rnnsearch-" + name),
                        "pipelines/" << name << ".sh has no line \"# Installed as rnnsearch-" << name << "\"");
  }
}

BOOST_AUTO_TEST_CASE(every_installed_recipe_answers_help_and_version_and_refuses_unknown_options) {
  const Installed installed;
  for (const auto& recipe : rt::installed_recipes()) {
    const std::string command = installed.path("bin/" + recipe.command);
    for (const std::string help : {"-h", "--help"}) {
      const auto r = run_installed(command, {help});
      BOOST_CHECK_MESSAGE(r.exit_code == 0 && r.err.empty() && r.out.rfind("usage: " + recipe.command + " ", 0) == 0,
                          recipe.command << " " << help << " exits with status " << r.exit_code
                                         << " (want 0, \"usage: " << recipe.command << " ...\" on stdout):\n"
                                         << r.out << r.err);
    }
    const auto version = run_installed(command, {"--version"});
    const std::string wanted = recipe.command + " (rnnsearch) " + rnnsearch::kVersion + "\n";
    BOOST_CHECK_MESSAGE(version.exit_code == 0 && version.err.empty() && version.out == wanted,
                        recipe.command << " --version exits with status " << version.exit_code << " (want 0 and "
                                       << wanted << "):\n" << version.out << version.err);
    const auto r = run_installed(command, {"--no-such-option"});
    BOOST_CHECK_MESSAGE(r.exit_code == 2 && r.err.find(recipe.command + ": unknown option --no-such-option") == 0u,
                        recipe.command << " --no-such-option exits with status " << r.exit_code
                                       << " (want 2 and the option named on stderr):\n" << r.err);
  }
}

// rnnsearch-translate and rnnsearch-evaluate (which runs translate.sh from share/rnnsearch)
// find nmt-tokenize, nmt-bpe, nmt-decode, ... beside the command in PREFIX/bin, and give
// what the checkout's recipe gives with the built tools.
BOOST_AUTO_TEST_CASE(installed_recipes_run_the_installed_tools) {
  const Installed installed;
  const rt::ReversalModel model;
  const rt::TempDir dir;
  const std::string codes = dir.write("codes", "#version: 0.2\n");  // no merges: words stay whole
  const std::string input = "w1 w2 w3\nw4 w5 w6 w7\n";
  const std::vector<std::string> options = {"-m", model.model, "-c", codes, "-s", "en", "-t", "en"};
  std::vector<std::string> checkout = {"/usr/bin/env", "NMT_BIN=" + rt::bin_dir(), rt::source_dir() + "/pipelines/translate.sh"};
  checkout.insert(checkout.end(), options.begin(), options.end());
  const auto expected = rt::run_process(checkout, "", input);
  BOOST_TEST_REQUIRE(expected.exit_code == 0, "pipelines/translate.sh: " << expected.err);
  BOOST_TEST_REQUIRE(std::count(expected.out.begin(), expected.out.end(), '\n') == 2);

  const auto translated = run_installed(installed.path("bin/rnnsearch-translate"), options, input);
  BOOST_CHECK_MESSAGE(translated.exit_code == 0 && translated.out == expected.out,
                      "rnnsearch-translate exits with status " << translated.exit_code << ", output:\n"
                                                               << translated.out << "want:\n" << expected.out << translated.err);
  const std::string source = dir.write("test.src", input), reference = dir.write("test.ref", expected.out);
  std::vector<std::string> evaluate = options;
  evaluate.insert(evaluate.end(), {"-i", source, "-r", reference});
  const auto scores = run_installed(installed.path("bin/rnnsearch-evaluate"), evaluate);
  BOOST_CHECK_MESSAGE(scores.exit_code == 0 && scores.out.find("BLEU") != std::string::npos &&
                          scores.out.find("100.0") != std::string::npos,
                      "rnnsearch-evaluate against its own translations exits with status "
                          << scores.exit_code << ", want BLEU 100.0:\n" << scores.out << scores.err);
}

BOOST_AUTO_TEST_SUITE_END()
