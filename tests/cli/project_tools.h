#pragma once
// The tools and man pages the source tree defines, for the CLI tests that check them all:
// a tool is a tools/nmt-*.cc file, a page a man/man1/*.1 file.
#include <string>
#include <vector>

namespace rnnsearch::testing {

// "nmt-bleu", ... : the stems of tools/nmt-*.cc, sorted.
std::vector<std::string> project_tools();
// "nmt-bleu.1", ... : the file names in man/man1 ending in .1 to .9, sorted.
std::vector<std::string> project_man_pages();
// source_dir() + "/man/man1/" + tool + ".1".
std::string man_page_path(const std::string& tool);

}  // namespace rnnsearch::testing
