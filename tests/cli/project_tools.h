#pragma once
// The tools, man pages and installed recipes the source tree defines, for the CLI tests
// that check them all: a tool is a tools/nmt-*.cc file, a page a man/man<N>/*.<N> file, an
// installed recipe a pipelines/*.sh file with the line "# Installed as rnnsearch-NAME".
#include <string>
#include <vector>

namespace rnnsearch::testing {

// "nmt-bleu", ... : the stems of tools/nmt-*.cc, sorted.
std::vector<std::string> project_tools();
// "man1/nmt-bleu.1", ..., "man5/rnnsearch-formats.5", ...: every page under man/, as a path
// relative to man/ (its section folder, then its name), sorted.
std::vector<std::string> project_man_pages();
// source_dir() + "/man/man1/" + tool + ".1".
std::string man_page_path(const std::string& tool);
// The day the build dates the man pages with: the date of the source tree's last commit
// (git), else RNNSEARCH_MANUAL_DATE of CMakeLists.txt (a tarball); "YYYY-MM-DD".
std::string manual_date();
// The text the build makes of man/`page` ("man1/nmt-bleu.1"), which cmake --install
// installs: the source page with its .TH line's empty date and bare "rnnsearch" filled in
// with manual_date() and "rnnsearch VERSION".
std::string man_page_as_built(const std::string& page);

// One pipelines/ recipe that cmake --install installs.
struct Recipe {
  std::string file;     // "translate.sh", in pipelines/
  std::string command;  // "rnnsearch-translate", in PREFIX/bin
};
// The recipes whose header says "# Installed as rnnsearch-NAME", sorted by file.
std::vector<Recipe> installed_recipes();

// The build tree the tests run from ($NMT_BUILD_DIR under CTest), and the cmake that
// configured it ($NMT_CMAKE).
std::string build_dir();
std::string cmake_command();

}  // namespace rnnsearch::testing
