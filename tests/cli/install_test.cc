// `cmake --install` of the build tree into a fresh prefix puts every tool (tools/nmt-*.cc)
// in PREFIX/bin, where it runs, and every man page in PREFIX/share/man/man1, byte for byte
// the source page, and nothing else (no static library, no headers).
#include <boost/test/unit_test.hpp>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <set>

#include "cli/project_tools.h"
#include "support/golden_cases.h"
#include "support/run_process.h"
#include "support/shared_data.h"
#include "support/temp_dir.h"

namespace rt = rnnsearch::testing;
namespace fs = std::filesystem;

namespace {

std::string env_or(const char* name, const std::string& fallback) {
  const char* value = std::getenv(name);
  return value && *value ? std::string(value) : fallback;
}

// The build tree and the cmake that configured it ($NMT_BUILD_DIR, $NMT_CMAKE under CTest).
std::string build_dir() { return env_or("NMT_BUILD_DIR", RNNSEARCH_BUILD_DIR); }
std::string cmake_command() { return env_or("NMT_CMAKE", RNNSEARCH_CMAKE_COMMAND); }

}  // namespace

BOOST_AUTO_TEST_SUITE(install)

BOOST_AUTO_TEST_CASE(cmake_install_puts_every_tool_and_man_page_under_the_prefix) {
  rt::TempDir prefix;
  const auto r = rt::run_process({cmake_command(), "--install", build_dir(), "--prefix", prefix.path().string()});
  BOOST_TEST_REQUIRE(r.exit_code == 0, cmake_command() << " --install " << build_dir() << " --prefix "
                                                       << prefix.path().string() << " exits with status "
                                                       << r.exit_code << ":\n" << r.out << r.err);

  std::set<std::string> expected;  // paths relative to the prefix
  for (const auto& tool : rt::project_tools()) {
    const fs::path installed = prefix.path() / "bin" / tool;
    expected.insert("bin/" + tool);
    if (!fs::exists(installed)) {
      BOOST_ERROR("tools/" << tool << ".cc is not installed as bin/" << tool << ": add_tool() installs it");
      continue;
    }
    BOOST_CHECK_MESSAGE(access(installed.c_str(), X_OK) == 0, "bin/" << tool << " is installed but not executable");
    const auto version = rt::run_process({installed.string(), "--version"});
    BOOST_CHECK_MESSAGE(version.exit_code == 0 && version.out.find(tool + " (rnnsearch) ") == 0u,
                        "the installed bin/" << tool << " --version exits with status " << version.exit_code
                                             << ": " << version.out << version.err);
  }
  for (const auto& page : rt::project_man_pages()) {
    const fs::path installed = prefix.path() / "share/man/man1" / page;
    expected.insert("share/man/man1/" + page);
    if (!fs::exists(installed)) {
      BOOST_ERROR("man/man1/" << page << " is not installed as share/man/man1/" << page);
      continue;
    }
    BOOST_CHECK_MESSAGE(rt::read_file(installed.string()) == rt::read_file(rt::source_dir() + "/man/man1/" + page),
                        "share/man/man1/" << page << " differs from man/man1/" << page);
  }
  for (const auto& entry : fs::recursive_directory_iterator(prefix.path())) {
    if (entry.is_directory()) continue;
    const std::string relative = fs::relative(entry.path(), prefix.path()).string();
    BOOST_CHECK_MESSAGE(expected.count(relative), "cmake --install also installs " << relative
                                                                                   << ", which is neither a tool nor a man page");
  }
}

BOOST_AUTO_TEST_SUITE_END()
