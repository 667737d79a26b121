#include "cli/project_tools.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>

#include "rnnsearch/version.h"
#include "support/golden_cases.h"
#include "support/run_process.h"
#include "support/shared_data.h"

namespace rnnsearch::testing {
namespace {

// The names in `dir` that match `pattern`, with `suffix` cut off, sorted.
std::vector<std::string> names_in(const std::string& dir, const std::regex& pattern, std::size_t suffix) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file() && std::regex_match(name, pattern)) names.push_back(name.substr(0, name.size() - suffix));
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::string env_or(const char* name, const std::string& fallback) {
  const char* value = std::getenv(name);
  return value && *value ? std::string(value) : fallback;
}

}  // namespace

std::vector<std::string> project_tools() {
  return names_in(source_dir() + "/tools", std::regex("nmt-[a-z0-9-]+\\.cc"), 3);
}

std::vector<std::string> project_man_pages() {
  std::vector<std::string> pages;
  for (char section = '1'; section <= '9'; ++section) {
    const std::string folder = std::string("man") + section;
    if (!std::filesystem::is_directory(source_dir() + "/man/" + folder)) continue;
    for (const auto& page : names_in(source_dir() + "/man/" + folder, std::regex(".+\\." + std::string(1, section)), 0)) {
      pages.push_back(folder + "/" + page);
    }
  }
  return pages;
}

std::string man_page_path(const std::string& tool) { return source_dir() + "/man/man1/" + tool + ".1"; }

std::string manual_date() {
  if (std::filesystem::exists(source_dir() + "/.git")) {
    const auto git = run_process({"/bin/sh", "-c", "git -C \"$0\" log -1 --format=%cs HEAD", source_dir()});
    if (git.exit_code == 0 && std::regex_match(git.out, std::regex(R"(\d{4}-\d\d-\d\d\n)"))) return git.out.substr(0, 10);
  }
  std::smatch m;
  const std::string cmake_lists = read_file(source_dir() + "/CMakeLists.txt");
  return std::regex_search(cmake_lists, m, std::regex(R"(set\(RNNSEARCH_MANUAL_DATE (\d{4}-\d\d-\d\d)\))")) ? m[1].str()
                                                                                                      : "";
}

std::string man_page_as_built(const std::string& page) {
  return std::regex_replace(read_file(source_dir() + "/man/" + page), std::regex(R"(^(\.TH \S+ [1-9]) "" "rnnsearch")"),
                            "$1 \"" + manual_date() + "\" \"rnnsearch " + kVersion + "\"",
                            std::regex_constants::format_first_only);
}

std::vector<Recipe> installed_recipes() {
  const std::regex marker("^# Installed as (rnnsearch-[a-z0-9-]+)");
  std::vector<Recipe> recipes;
  for (const auto& file : names_in(source_dir() + "/pipelines", std::regex(".+\\.sh"), 0)) {
    std::ifstream in(source_dir() + "/pipelines/" + file);
    std::smatch m;
    for (std::string line; std::getline(in, line);) {
      if (!std::regex_search(line, m, marker)) continue;
      recipes.push_back({file, m[1]});
      break;
    }
  }
  return recipes;
}

std::string build_dir() { return env_or("NMT_BUILD_DIR", RNNSEARCH_BUILD_DIR); }
std::string cmake_command() { return env_or("NMT_CMAKE", RNNSEARCH_CMAKE_COMMAND); }

}  // namespace rnnsearch::testing
