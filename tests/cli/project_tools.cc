#include "cli/project_tools.h"

#include <algorithm>
#include <filesystem>
#include <regex>

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

}  // namespace

std::vector<std::string> project_tools() {
  return names_in(source_dir() + "/tools", std::regex("nmt-[a-z0-9-]+\\.cc"), 3);
}

std::vector<std::string> project_man_pages() {
  return names_in(source_dir() + "/man/man1", std::regex(".+\\.[1-9]"), 0);
}

std::string man_page_path(const std::string& tool) { return source_dir() + "/man/man1/" + tool + ".1"; }

}  // namespace rnnsearch::testing
