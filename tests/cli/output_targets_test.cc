// `-o PATH` replaces PATH only when it is a regular file: -o /dev/stdout writes to the
// tool's stdout, -o /dev/null discards and leaves the device, a symlink stays a link to
// the replaced file, and a 0600 file stays 0600 (util::AtomicFileWriter, through a tool).
#include <boost/test/unit_test.hpp>

#include <sys/stat.h>

#include <filesystem>

#include "support/golden_cases.h"
#include "support/run_process.h"
#include "support/temp_dir.h"

namespace rt = rnnsearch::testing;
namespace fs = std::filesystem;

namespace {

rt::ProcessResult tokenize_to(const std::string& output) {
  return rt::run_process({rt::tool_path("nmt-tokenize"), "-o", output}, "", "Hello, world.\n");
}

}  // namespace

BOOST_AUTO_TEST_SUITE(output_targets)

BOOST_AUTO_TEST_CASE(dev_stdout_and_dev_null_are_written_in_place) {
  const auto to_stdout = tokenize_to("/dev/stdout");
  BOOST_TEST(to_stdout.exit_code == 0, to_stdout.err);
  BOOST_TEST(to_stdout.out == "Hello , world .\n");
  const auto to_null = tokenize_to("/dev/null");
  BOOST_TEST(to_null.exit_code == 0, to_null.err);
  BOOST_TEST(fs::is_character_file("/dev/null"));
  BOOST_TEST(fs::is_symlink("/dev/stdout"));
}

BOOST_AUTO_TEST_CASE(a_symlink_and_a_private_file_keep_what_they_are) {
  rt::TempDir dir;
  const std::string secret = dir.write("secret.txt", "old\n");
  BOOST_TEST_REQUIRE(::chmod(secret.c_str(), 0600) == 0);
  const std::string link = (dir.path() / "link.txt").string();
  fs::create_symlink("secret.txt", link);
  const auto r = tokenize_to(link);
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  BOOST_TEST(fs::is_symlink(link));
  BOOST_TEST(rt::read_file(secret) == "Hello , world .\n");
  const auto mode = fs::status(secret).permissions() & fs::perms::all;
  BOOST_TEST((mode == (fs::perms::owner_read | fs::perms::owner_write)), "mode " << static_cast<int>(mode));
}

BOOST_AUTO_TEST_SUITE_END()
