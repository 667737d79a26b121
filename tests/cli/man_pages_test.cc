// Every tool has a man page and the two agree. The tools are the source tree's
// tools/nmt-*.cc; each has man/man1/<tool>.1 and a built binary, and each page
//   - has an OPTIONS entry (a .TP item whose tag names the option) for every long option
//     its tool's --help lists (every subcommand's --help for nmt-bpe, nmt-align and
//     nmt-glossary), and the
//     entry gives the default --help shows;
//   - documents no option that no --help of its tool lists (a removed or misspelt one);
//   - has the sections NAME, SYNOPSIS, DESCRIPTION, OPTIONS, EXIT STATUS, FILES or FILE
//     FORMATS, EXAMPLES and SEE ALSO.
// Every page of every section (man/man<N>/*.<N>) begins with .TH naming itself and its
// section, has NAME, DESCRIPTION and SEE ALSO, takes its date and version from the build
// (the source leaves them empty, the build tree's copy has the commit's date and the
// project's version) and renders without groff warnings.
#include <boost/test/unit_test.hpp>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "cli/project_tools.h"
#include "rnnsearch/version.h"
#include "support/golden_cases.h"
#include "support/run_process.h"
#include "support/shared_data.h"

namespace rt = rnnsearch::testing;
namespace fs = std::filesystem;

namespace {

// The arguments before --help that show a tool's options, one list per help; a tool not
// named here has one help, its plain --help.
const std::map<std::string, std::vector<std::vector<std::string>>> kSubcommandHelps = {
    {"nmt-bpe", {{"learn"}, {"apply"}, {"undo"}}},
    {"nmt-align", {{}, {"symmetrize"}, {"combine"}, {"ibm2"}, {"hmm"}, {"eval"}, {"heatmap"}}},
    {"nmt-glossary", {{"match"}, {"extract"}}},
};

std::vector<std::vector<std::string>> help_calls(const std::string& tool) {
  const auto it = kSubcommandHelps.find(tool);
  return it == kSubcommandHelps.end() ? std::vector<std::vector<std::string>>{{}} : it->second;
}

// One option row of a --help, such as "  -i [ --input ] arg (=-)    input file".
struct HelpOption {
  std::string name;  // "input"
  bool has_default = false;
  std::string default_value;  // "-"
  std::string call;           // "nmt-bpe apply --help", for messages
};

// The long options of all the tool's helps; false (with a failure recorded) when a help fails.
bool read_help_options(const std::string& tool, std::vector<HelpOption>& options) {
  // Option rows are indented by two spaces; a description's continuation lines by more.
  const std::regex row(R"(^  (?:-[A-Za-z0-9] \[ )?--([a-z0-9][a-z0-9-]*)(?: \])?(?: arg)?(?: \(=([^)]*)\))?)");
  for (const auto& args : help_calls(tool)) {
    std::vector<std::string> argv = {rt::tool_path(tool)};
    argv.insert(argv.end(), args.begin(), args.end());
    argv.push_back("--help");
    std::string call = tool;
    for (const auto& a : args) call += " " + a;
    call += " --help";
    const auto help = rt::run_process(argv);
    if (help.exit_code != 0) {
      BOOST_ERROR(call << " exits with status " << help.exit_code << " instead of 0: " << help.err);
      return false;
    }
    std::istringstream lines(help.out);
    std::size_t count = 0;
    for (std::string line; std::getline(lines, line);) {
      std::smatch m;
      if (!std::regex_search(line, m, row)) continue;
      options.push_back({m[1], m[2].matched, m[2], call});
      ++count;
    }
    // --help, --version, --threads and --quiet at least: fewer means the rows were not recognised.
    BOOST_CHECK_MESSAGE(count >= 4u, call << " lists " << count << " long options; is its layout still parsed?\n"
                                          << help.out);
  }
  return true;
}

// The text of a roff line with the escapes the pages use resolved: \- \e \& and font changes.
std::string plain(const std::string& roff) {
  std::string s = std::regex_replace(roff, std::regex(R"(\\f[BIRP])"), "");
  s = std::regex_replace(s, std::regex(R"(\\-)"), "-");
  s = std::regex_replace(s, std::regex(R"(\\&)"), "");
  return std::regex_replace(s, std::regex(R"(\\e)"), "\\");
}

std::set<std::string> long_options_in(const std::string& text) {
  const std::regex option(R"((?:^|[^A-Za-z0-9-])--([a-z0-9][a-z0-9-]*))");
  std::set<std::string> options;
  for (std::sregex_iterator it(text.begin(), text.end(), option), end; it != end; ++it) options.insert((*it)[1]);
  return options;
}

// One .TP item of an OPTIONS section: the tag line names the options, the body describes them.
struct ManEntry {
  int line = 0;  // of the tag
  std::string tag;
  std::set<std::string> options;
  std::string body;  // up to the next .TP, .SS or .SH
};

struct ManPage {
  std::string path;
  std::vector<std::string> lines;
  std::vector<std::string> sections;  // the .SH titles, in order
  std::vector<ManEntry> entries;      // of every section whose title contains OPTIONS
};

bool is_request(const std::string& line, const std::string& request) {
  return line.compare(0, request.size(), request) == 0 && (line.size() == request.size() || line[request.size()] == ' ');
}

std::string section_title(const std::string& line) {
  std::string title = line.substr(3);
  title.erase(0, title.find_first_not_of(" \""));
  title.erase(title.find_last_not_of(" \"") + 1);
  return title;
}

ManPage read_man_page(const std::string& path) {
  ManPage page;
  page.path = path;
  std::istringstream text(rt::read_file(path));
  for (std::string line; std::getline(text, line);) page.lines.push_back(line);
  bool in_options = false, tag_next = false, in_entry = false;
  for (std::size_t i = 0; i < page.lines.size(); ++i) {
    const std::string& line = page.lines[i];
    if (is_request(line, ".SH")) {
      page.sections.push_back(section_title(line));
      in_options = page.sections.back().find("OPTIONS") != std::string::npos;
      tag_next = in_entry = false;
    } else if (is_request(line, ".SS")) {
      tag_next = in_entry = false;
    } else if (in_options && is_request(line, ".TP")) {
      tag_next = true;
      in_entry = false;
    } else if (tag_next) {
      const std::string tag = plain(line);
      page.entries.push_back({static_cast<int>(i + 1), tag, long_options_in(tag), ""});
      tag_next = false;
      in_entry = true;
    } else if (in_entry) {
      page.entries.back().body += plain(line) + "\n";
    }
  }
  return page;
}

// Whether `text` holds `token` as a word of its own ("1" is not in "-1", "0.1" or "10").
bool has_token(const std::string& text, const std::string& token) {
  const auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_'; };
  for (std::size_t at = text.find(token); at != std::string::npos; at = text.find(token, at + 1)) {
    const std::size_t end = at + token.size();
    const char before = at > 0 ? text[at - 1] : ' ';
    const char after = end < text.size() ? text[end] : ' ';
    const char after_next = end + 1 < text.size() ? text[end + 1] : ' ';
    if (word(before) || before == '.') continue;
    if (word(after) || (after == '.' && std::isdigit(static_cast<unsigned char>(after_next)))) continue;
    return true;
  }
  return false;
}

std::string lowercase(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Whether an entry's text states `value` as the default: the word "default" and the value
// ("-" may be spelt "standard input" or "standard output").
bool states_default(const std::string& body, const std::string& value) {
  const std::string text = lowercase(body);
  if (text.find("default") == std::string::npos) return false;
  if (value == "-" && (text.find("standard input") != std::string::npos ||
                       text.find("standard output") != std::string::npos)) {
    return true;
  }
  return has_token(text, lowercase(value));
}

// Calls check(tool, page) for every tool with a page (a missing page is the failure of
// every_tool_has_a_man_page_and_a_binary, not repeated here).
void for_each_page(const std::function<void(const std::string&, const ManPage&)>& check) {
  const auto tools = rt::project_tools();
  BOOST_TEST_REQUIRE(!tools.empty(), "no tools/nmt-*.cc under " << rt::source_dir());
  for (const auto& tool : tools) {
    if (!fs::exists(rt::man_page_path(tool))) continue;
    check(tool, read_man_page(rt::man_page_path(tool)));  // messages name the tool
  }
}

// argv[0] for execv: `program` found in $PATH, or "" when it is not there.
std::string find_in_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    const fs::path candidate = fs::path(dir.empty() ? "." : dir) / program;
    if (fs::exists(candidate) && access(candidate.c_str(), X_OK) == 0) return candidate.string();
  }
  return "";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(man_pages)

BOOST_AUTO_TEST_CASE(every_tool_has_a_man_page_and_a_binary) {
  const auto tools = rt::project_tools();
  BOOST_TEST_REQUIRE(!tools.empty(), "no tools/nmt-*.cc under " << rt::source_dir());
  for (const auto& tool : tools) {
    BOOST_CHECK_MESSAGE(fs::exists(rt::man_page_path(tool)),
                        "tools/" << tool << ".cc has no man page: write man/man1/" << tool << ".1");
    BOOST_CHECK_MESSAGE(fs::exists(rt::tool_path(tool)),
                        "tools/" << tool << ".cc has no binary " << rt::tool_path(tool)
                                 << ": add_tool() it in tools/CMakeLists.txt and build it");
  }
}

BOOST_AUTO_TEST_CASE(every_man_page_belongs_to_a_tool_or_an_installed_recipe) {
  auto commands = rt::project_tools();
  for (const auto& recipe : rt::installed_recipes()) commands.push_back(recipe.command);
  for (const auto& page : rt::project_man_pages()) {
    if (page.rfind("man1/", 0) != 0) continue;
    const std::string stem = page.substr(5, page.rfind('.') - 5);
    BOOST_CHECK_MESSAGE(std::find(commands.begin(), commands.end(), stem) != commands.end(),
                        "man/" << page << " documents no tool and no installed recipe: there is no tools/" << stem
                               << ".cc and no pipelines/*.sh marked \"# Installed as " << stem << "\"");
  }
}

BOOST_AUTO_TEST_CASE(every_option_in_help_has_an_entry_in_the_man_page) {
  for_each_page([](const std::string& tool, const ManPage& page) {
    std::vector<HelpOption> help;
    if (!read_help_options(tool, help)) return;
    std::set<std::string> documented;
    for (const auto& entry : page.entries) documented.insert(entry.options.begin(), entry.options.end());
    BOOST_CHECK_MESSAGE(!page.entries.empty(), tool << ".1 has no .TP entries in a section titled OPTIONS");
    for (const auto& option : help) {
      BOOST_CHECK_MESSAGE(documented.count(option.name),
                          tool << ".1: --" << option.name << " (in " << option.call
                               << ") has no entry in the page's OPTIONS: add a .TP item naming it");
    }
  });
}

BOOST_AUTO_TEST_CASE(every_option_in_the_man_page_is_in_help) {
  for_each_page([](const std::string& tool, const ManPage& page) {
    std::vector<HelpOption> help;
    if (!read_help_options(tool, help)) return;
    std::set<std::string> listed;
    std::set<std::string> calls;
    for (const auto& option : help) {
      listed.insert(option.name);
      calls.insert(option.call);
    }
    std::string call_list;
    for (const auto& call : calls) call_list += (call_list.empty() ? "" : ", ") + call;
    for (const auto& entry : page.entries) {
      BOOST_CHECK_MESSAGE(std::regex_search(entry.tag, std::regex(R"((^|[\s"])--?[A-Za-z0-9])")),
                          tool << ".1:" << entry.line << ": an OPTIONS entry whose tag names no option: " << entry.tag);
      for (const auto& name : entry.options) {
        BOOST_CHECK_MESSAGE(listed.count(name), tool << ".1:" << entry.line << " documents --" << name
                                                     << ", which no help of the tool lists (" << call_list
                                                     << "): remove the entry or the option's name from its tag");
      }
    }
  });
}

BOOST_AUTO_TEST_CASE(every_default_in_help_is_in_the_man_page) {
  for_each_page([](const std::string& tool, const ManPage& page) {
    std::vector<HelpOption> help;
    if (!read_help_options(tool, help)) return;
    for (const auto& option : help) {
      if (!option.has_default) continue;
      std::string bodies;
      for (const auto& entry : page.entries) {
        if (entry.options.count(option.name)) bodies += entry.body;
      }
      if (bodies.empty()) continue;  // no entry: every_option_in_help_has_an_entry_in_the_man_page says so
      BOOST_CHECK_MESSAGE(states_default(bodies, option.default_value),
                          tool << ".1: the entry of --" << option.name << " does not state its default "
                               << option.default_value << " (" << option.call << " shows (=" << option.default_value
                               << ")): say \"default " << option.default_value << "\" in it");
    }
  });
}

BOOST_AUTO_TEST_CASE(every_man_page_has_the_required_sections) {
  // Each requirement is met by a title among its alternatives; OPTIONS also by a title
  // containing it ("OPTIONS OF LEARN", "COMMON OPTIONS").
  const std::vector<std::vector<std::string>> required = {
      {"NAME"}, {"SYNOPSIS"}, {"DESCRIPTION"}, {"OPTIONS"}, {"EXIT STATUS"},
      {"FILES", "FILE FORMATS"}, {"EXAMPLES"}, {"SEE ALSO"}};
  for_each_page([&required](const std::string& tool, const ManPage& page) {
    for (const auto& alternatives : required) {
      bool found = false;
      for (const auto& title : page.sections) {
        for (const auto& wanted : alternatives) {
          found = found || title == wanted || (wanted == "OPTIONS" && title.find(wanted) != std::string::npos);
        }
      }
      std::string names;
      for (const auto& wanted : alternatives) names += (names.empty() ? "" : " or ") + (".SH " + wanted);
      BOOST_CHECK_MESSAGE(found, tool << ".1 has no section " << names);
    }
    const auto name = std::find(page.lines.begin(), page.lines.end(), ".SH NAME");
    BOOST_CHECK_MESSAGE(name != page.lines.end() && name + 1 != page.lines.end() &&
                            name[1].rfind(tool + " \\- ", 0) == 0,
                        tool << ".1: the NAME section should read \"" << tool << " \\- what it does\"");
  });
}

BOOST_AUTO_TEST_CASE(every_page_of_every_section_names_itself_and_has_the_common_sections) {
  const auto pages = rt::project_man_pages();
  for (const std::string section : {"1", "5", "7"}) {
    BOOST_CHECK_MESSAGE(std::any_of(pages.begin(), pages.end(), [&](const std::string& p) { return p[3] == section[0]; }),
                        "man/man" << section << " has no page");
  }
  for (const auto& relative : pages) {
    const ManPage page = read_man_page(rt::source_dir() + "/man/" + relative);
    const std::string name = relative.substr(5, relative.rfind('.') - 5), section = relative.substr(relative.rfind('.') + 1);
    std::string upper = name;
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    BOOST_CHECK_MESSAGE(!page.lines.empty() && is_request(page.lines[0], ".TH " + upper + " " + section),
                        "man/" << relative << " should begin with \".TH " << upper << " " << section << " ...\"");
    for (const std::string wanted : {"NAME", "DESCRIPTION", "SEE ALSO"}) {
      BOOST_CHECK_MESSAGE(std::find(page.sections.begin(), page.sections.end(), wanted) != page.sections.end(),
                          "man/" << relative << " has no section .SH " << wanted);
    }
  }
}

// The version is typed once, in CMakeLists.txt's project(), and the date is the commit's:
// a page that types either in its .TH line goes stale, and a placeholder would show in the
// checkout. The source leaves both empty; the build tree's copy has them.
BOOST_AUTO_TEST_CASE(every_man_page_takes_its_version_and_date_from_the_build) {
  const std::regex th(R"(^\.TH \S+ [1-9] "" "rnnsearch" "rnnsearch manual"$)");
  const std::string date = rt::manual_date();
  BOOST_TEST_REQUIRE(std::regex_match(date, std::regex(R"(\d{4}-\d\d-\d\d)")),
                     "no date for the man pages: no git history and no RNNSEARCH_MANUAL_DATE in CMakeLists.txt");
  for (const auto& page : rt::project_man_pages()) {
    const ManPage source = read_man_page(rt::source_dir() + "/man/" + page);
    BOOST_CHECK_MESSAGE(!source.lines.empty() && std::regex_match(source.lines[0], th),
                        "man/" << page << ": the .TH line should read .TH NAME SECTION \"\" "
                               << "\"rnnsearch\" \"rnnsearch manual\" (the build puts the date and version in), not "
                               << (source.lines.empty() ? "" : source.lines[0]));
    const std::string built = rt::build_dir() + "/man/" + page;
    const std::string name = page.substr(5, page.rfind('.') - 5), section = page.substr(page.rfind('.') + 1);
    std::string upper = name;
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    const std::string wanted = ".TH " + upper + " " + section + " \"" + date + "\" \"rnnsearch " + rnnsearch::kVersion +
                               "\" \"rnnsearch manual\"";
    const ManPage copy = fs::exists(built) ? read_man_page(built) : ManPage{};
    BOOST_CHECK_MESSAGE(!copy.lines.empty() && copy.lines[0] == wanted,
                        built << " should begin with " << wanted << " (cmake/ManPagesWrite.cmake), not "
                              << (copy.lines.empty() ? "nothing" : copy.lines[0]));
    BOOST_CHECK_MESSAGE(fs::exists(built) && rt::read_file(built) == rt::man_page_as_built(page),
                        built << " should be man/" << page << " with only its .TH line filled in");
  }
}

// The pages as installed (the build tree's copies, version in place).
BOOST_AUTO_TEST_CASE(every_man_page_renders_without_groff_warnings) {
  const std::string groff = find_in_path("groff");
  if (groff.empty()) {
    BOOST_TEST_MESSAGE("skipping: groff is not installed");
    return;
  }
  for (const auto& page : rt::project_man_pages()) {
    const std::string built = rt::build_dir() + "/man/" + page;
    if (!fs::exists(built)) continue;  // every_man_page_takes_its_version_from_the_build says so
    const auto r = rt::run_process({groff, "-man", "-ww", "-z", "-K", "utf8", built});
    BOOST_CHECK_MESSAGE(r.exit_code == 0 && r.err.empty(),
                        "groff -man -ww -z -K utf8 " << built << " (man/" << page << ", status " << r.exit_code << "):\n" << r.err);
  }
}

BOOST_AUTO_TEST_CASE(version_names_each_tool) {
  for (const auto& tool : rt::project_tools()) {
    if (!fs::exists(rt::tool_path(tool))) continue;  // every_tool_has_a_man_page_and_a_binary says so
    const auto r = rt::run_process({rt::tool_path(tool), "--version"});
    BOOST_CHECK_MESSAGE(r.exit_code == 0, tool << " --version exits with status " << r.exit_code << ": " << r.err);
    BOOST_CHECK_MESSAGE(r.out.find(tool + " (rnnsearch) ") == 0u,
                        tool << " --version should begin with \"" << tool << " (rnnsearch) \", got: " << r.out);
  }
}

BOOST_AUTO_TEST_SUITE_END()
