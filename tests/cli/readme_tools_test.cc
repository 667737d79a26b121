// README.md's tool table names every tool (tools/nmt-*.cc) and every installed recipe
// (rnnsearch-translate, ...). A table row is a line beginning with "| "; it names a tool
// when it holds the name between backticks, as in
//   | [`nmt-decode`](man/man1/nmt-decode.1) | translate ... |
//   | `rnnsearch-translate` | ... |
#include <boost/test/unit_test.hpp>

#include <sstream>

#include "cli/project_tools.h"
#include "support/golden_cases.h"
#include "support/shared_data.h"

namespace rt = rnnsearch::testing;

namespace {

// The lines of README.md that are table rows.
std::vector<std::string> readme_table_rows() {
  std::istringstream text(rt::read_file(rt::source_dir() + "/README.md"));
  std::vector<std::string> rows;
  for (std::string line; std::getline(text, line);) {
    if (line.rfind("| ", 0) == 0) rows.push_back(line);
  }
  return rows;
}

bool in_a_row(const std::vector<std::string>& rows, const std::string& name) {
  const std::string quoted = "`" + name + "`";
  for (const auto& row : rows) {
    if (row.find(quoted) != std::string::npos) return true;
  }
  return false;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(readme_tools)

BOOST_AUTO_TEST_CASE(every_tool_and_installed_recipe_has_a_row_in_the_readme) {
  const auto rows = readme_table_rows();
  std::vector<std::string> names = rt::project_tools();
  BOOST_TEST_REQUIRE(!names.empty(), "no tools/nmt-*.cc under " << rt::source_dir());
  for (const auto& recipe : rt::installed_recipes()) names.push_back(recipe.command);
  for (const auto& name : names) {
    BOOST_CHECK_MESSAGE(in_a_row(rows, name), "README.md has no table row (a line beginning with \"| \") naming `"
                                                  << name << "` between backticks: add it to the tool table");
  }
}

BOOST_AUTO_TEST_SUITE_END()
