// Outputs of one run that are one file are refused, by the names that give them.
#include <boost/test/unit_test.hpp>

#include <unistd.h>

#include <filesystem>

#include "support/error_message.h"
#include "support/temp_dir.h"
#include "util/distinct_outputs.h"

namespace rt = rnnsearch::testing;
namespace util = rnnsearch::util;

BOOST_AUTO_TEST_SUITE(distinct_outputs)

BOOST_AUTO_TEST_CASE(two_outputs_naming_one_file_are_refused) {
  const rt::TempDir dir;
  const std::string a = (dir.path() / "a").string(), b = (dir.path() / "b").string();
  BOOST_TEST(rt::usage_message([&] { util::check_distinct_outputs({{"-o", a}, {"--svg", b}}); }) == "no error");
  BOOST_TEST(rt::usage_message([&] { util::check_distinct_outputs({{"-o", a}, {"--svg", a}}); }) ==
             "-o and --svg are the same file: " + a);
  // Another spelling of a file not yet written, and a link to one that is.
  const std::string dotted = (dir.path() / "sub" / ".." / "a").string();
  BOOST_TEST(rt::usage_message([&] { util::check_distinct_outputs({{"-o", a}, {"--save-table", dotted}}); }) ==
             "-o and --save-table are the same file: " + a);
  const auto existing = dir.write("c", "x\n");
  std::filesystem::create_symlink(existing, dir.path() / "link");
  BOOST_TEST(rt::usage_message([&] {
               util::check_distinct_outputs({{"-o", existing}, {"--svg", (dir.path() / "link").string()}});
             }) == "-o and --svg are the same file: " + existing);
}

BOOST_AUTO_TEST_CASE(a_link_to_an_output_not_written_yet_is_that_output) {
  const rt::TempDir dir;
  const std::string target = (dir.path() / "same2.p").string(), link = (dir.path() / "link.p").string();
  std::filesystem::create_symlink("same2.p", link);  // relative, dangling until the target is written
  BOOST_TEST(rt::usage_message([&] { util::check_distinct_outputs({{"-o", link}, {"--save-params", target}}); }) ==
             "-o and --save-params are the same file: " + link);
  // Through a linked folder too.
  std::filesystem::create_directory(dir.path() / "real");
  std::filesystem::create_directory_symlink(dir.path() / "real", dir.path() / "alias");
  BOOST_TEST(rt::usage_message([&] {
               util::check_distinct_outputs(
                   {{"-o", (dir.path() / "alias" / "x").string()}, {"--svg", (dir.path() / "real" / "x").string()}});
             }) == "-o and --svg are the same file: " + (dir.path() / "alias" / "x").string());
}

BOOST_AUTO_TEST_CASE(standard_output_and_unused_outputs) {
  const rt::TempDir dir;
  BOOST_TEST(rt::usage_message([] { util::check_distinct_outputs({{"-o", "-"}, {"--svg", ""}, {"--x", ""}}); }) ==
             "no error");
  BOOST_TEST(rt::usage_message([] { util::check_distinct_outputs({{"-o", "-"}, {"--svg", "-"}}); }) ==
             "-o and --svg are both standard output (-)");
  // A file named "-" in the working directory is not standard output.
  const auto cwd = std::filesystem::current_path();
  std::filesystem::current_path(dir.path());
  dir.write("-", "x\n");
  const auto message = rt::usage_message([] { util::check_distinct_outputs({{"-o", "-"}, {"--svg", "./-"}}); });
  std::filesystem::current_path(cwd);
  BOOST_TEST(message == "no error");
}

BOOST_AUTO_TEST_SUITE_END()
