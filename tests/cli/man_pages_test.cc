// Every tool's --help and its man page agree: each long option --help lists appears in
// man/man1/<tool>.1, and --version names the tool.
#include <boost/test/unit_test.hpp>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "support/run_process.h"
#include "support/shared_data.h"

namespace rt = rnnsearch::testing;

namespace {

// Each tool with the arguments that show its options (nmt-bpe: one help per command).
const std::vector<std::vector<std::string>> kHelps = {
    {"nmt-bleu"},           {"nmt-tokenize"},        {"nmt-detokenize"}, {"nmt-vocab"},
    {"nmt-bpe", "learn"},   {"nmt-bpe", "apply"},    {"nmt-bpe", "undo"},   {"nmt-decode"}, {"nmt-align"}, {"nmt-align", "symmetrize"}, {"nmt-align", "eval"}, {"nmt-align", "heatmap"},       {"nmt-train"}};
const std::vector<std::string> kTools = {"nmt-bleu", "nmt-tokenize", "nmt-detokenize", "nmt-bpe", "nmt-vocab",
                                         "nmt-train", "nmt-decode", "nmt-align"};

std::set<std::string> long_options(const std::string& text) {
  const std::regex option("--([a-z][a-z0-9-]+)");
  std::set<std::string> options;
  for (std::sregex_iterator it(text.begin(), text.end(), option), end; it != end; ++it) options.insert((*it)[1]);
  return options;
}

}  // namespace

BOOST_AUTO_TEST_CASE(every_option_in_help_is_in_the_man_page) {
  for (const auto& call : kHelps) {
    const std::string& tool = call.front();
    std::vector<std::string> argv = {rt::tool_path(tool)};
    argv.insert(argv.end(), call.begin() + 1, call.end());
    argv.push_back("--help");
    const auto help = rt::run_process(argv);
    BOOST_TEST_REQUIRE(help.exit_code == 0, tool);
    std::ifstream man_file(rt::source_dir() + "/man/man1/" + tool + ".1");
    BOOST_TEST_REQUIRE(static_cast<bool>(man_file), tool << ".1 is missing");
    std::stringstream man;
    man << man_file.rdbuf();
    const std::string page = std::regex_replace(man.str(), std::regex("\\\\-"), "-");  // roff escapes
    const auto options = long_options(help.out);
    BOOST_TEST(options.size() >= 5u, tool);
    for (const auto& o : options) {
      BOOST_CHECK_MESSAGE(page.find("--" + o) != std::string::npos, "--" << o << " missing from " << tool << ".1");
    }
  }
}

BOOST_AUTO_TEST_CASE(version_names_each_tool) {
  for (const auto& tool : kTools) {
    const auto r = rt::run_process({rt::tool_path(tool), "--version"});
    BOOST_TEST(r.exit_code == 0);
    BOOST_TEST(r.out.find(tool + " (rnnsearch) ") == 0u, r.out);
  }
}
