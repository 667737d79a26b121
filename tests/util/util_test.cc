// The helpers every tool stands on: errors with locations, the UTF-8 line reader, the
// atomic writer, the common command-line options, Python-compatible number formatting.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "util/atomic_file.h"
#include "util/cli.h"
#include "util/error.h"
#include "util/line_reader.h"
#include "util/number_format.h"
#include "util/python_format.h"
#include "util/utf8.h"
#include "support/temp_dir.h"

namespace fs = std::filesystem;
using namespace rnnsearch::util;
using rnnsearch::testing::TempDir;

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(error)

BOOST_AUTO_TEST_CASE(message_names_file_and_line) {
  BOOST_TEST(std::string(Error("test.de", 17, "invalid UTF-8").what()) == "test.de:17: invalid UTF-8");
  BOOST_TEST(std::string(Error("test.de", "cannot open").what()) == "test.de: cannot open");
  const Error e("a.txt", 3, "bad");
  BOOST_TEST(e.file() == "a.txt");
  BOOST_TEST(e.line() == 3u);
  BOOST_TEST(e.detail() == "bad");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(line_reader)

BOOST_AUTO_TEST_CASE(reads_lf_and_crlf_lines_and_a_last_line_without_newline) {
  TempDir dir;
  const auto path = dir.write("in.txt", "one\r\ntwo\n\nfour");
  BOOST_TEST(read_lines(path) == (std::vector<std::string>{"one", "two", "", "four"}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(empty_file_has_no_lines) {
  TempDir dir;
  BOOST_TEST(read_lines(dir.write("empty.txt", "")).empty());
}

BOOST_AUTO_TEST_CASE(lines_longer_than_the_buffer_survive) {
  TempDir dir;
  const std::string long_line(200000, 'x');
  const auto lines = read_lines(dir.write("long.txt", "a\n" + long_line + "\nb\n"));
  BOOST_REQUIRE_EQUAL(lines.size(), 3u);
  BOOST_TEST(lines[1] == long_line);
  BOOST_TEST(lines[2] == "b");
}

BOOST_AUTO_TEST_CASE(invalid_utf8_is_reported_with_its_line_and_byte) {
  TempDir dir;
  const auto path = dir.write("bad.txt", "fine\nalso fine\nbro\xC3(ken\n");
  try {
    read_lines(path);
    BOOST_FAIL("no error for invalid UTF-8");
  } catch (const Error& e) {
    BOOST_TEST(e.line() == 3u);
    BOOST_TEST(std::string(e.what()) == path + ":3: invalid UTF-8 at byte 4");
  }
}

BOOST_AUTO_TEST_CASE(missing_file_is_an_error_naming_it) {
  try {
    LineReader reader("/nonexistent/rnnsearch.txt");
    BOOST_FAIL("opened a missing file");
  } catch (const Error& e) {
    BOOST_TEST(std::string(e.what()).find("/nonexistent/rnnsearch.txt: cannot open") == 0u);
  }
}

BOOST_AUTO_TEST_CASE(utf8_validation_follows_python_strictness) {
  BOOST_TEST(find_invalid_utf8("plain ascii") == std::string_view::npos);
  BOOST_TEST(find_invalid_utf8("Gr\xC3\xBC\xC3\x9F" "e \xE2\x80\x9C\xF0\x9F\x98\x80") == std::string_view::npos);
  BOOST_TEST(find_invalid_utf8("\xC0\xAF") == 0u);          // overlong '/'
  BOOST_TEST(find_invalid_utf8("ab\xED\xA0\x80") == 2u);    // surrogate U+D800
  BOOST_TEST(find_invalid_utf8("\xF4\x90\x80\x80") == 0u);  // above U+10FFFF
  BOOST_TEST(find_invalid_utf8("x\xE2\x80") == 1u);         // truncated
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(atomic_file)

BOOST_AUTO_TEST_CASE(commit_replaces_the_target_whole) {
  TempDir dir;
  const auto path = dir.write("out.txt", "old\n");
  {
    AtomicFileWriter writer(path);
    writer.write_line("new");
    BOOST_TEST(slurp(path) == "old\n");  // invisible until commit
    writer.commit();
  }
  BOOST_TEST(slurp(path) == "new\n");
  BOOST_TEST(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()) == 1);
}

BOOST_AUTO_TEST_CASE(abandoned_writer_leaves_the_old_file_and_no_temporary) {
  TempDir dir;
  const auto path = dir.write("out.txt", "old\n");
  try {
    AtomicFileWriter writer(path);
    writer.write_line("partial");
    throw std::runtime_error("failure mid-way");
  } catch (const std::runtime_error&) {
  }
  BOOST_TEST(slurp(path) == "old\n");
  BOOST_TEST(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()) == 1);
}

BOOST_AUTO_TEST_CASE(unwritable_directory_is_an_error_naming_the_file) {
  BOOST_CHECK_THROW(AtomicFileWriter("/nonexistent-dir/out.txt"), Error);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(cli)

BOOST_AUTO_TEST_CASE(common_options_parse_and_validate) {
  namespace po = boost::program_options;
  CommonOptions common;
  po::options_description desc;
  add_common_options(desc, common);
  const char* argv[] = {"tool", "--threads", "3", "-q"};
  po::variables_map vm;
  po::store(po::parse_command_line(4, argv, desc), vm);
  po::notify(vm);
  BOOST_TEST(common.threads == 3);
  BOOST_TEST(common.quiet);
  BOOST_TEST(common.resolved_threads() == 3);
  common.threads = 0;
  BOOST_TEST(common.resolved_threads() >= 1);
  common.threads = -1;
  BOOST_CHECK_THROW(common.validate(), UsageError);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(python_format)

BOOST_AUTO_TEST_CASE(float_repr_matches_python) {
  BOOST_TEST(python_float_repr(28.3) == "28.3");
  BOOST_TEST(python_float_repr(100.0) == "100.0");
  BOOST_TEST(python_float_repr(0.0) == "0.0");
  // At a power of two the rounding interval is lopsided: Python's repr finds the shorter
  // digits (repr(2.0 ** -1017)), which "%.{p}e" with growing p did not.
  BOOST_TEST(python_float_repr(std::ldexp(1.0, -1017)) == "7.120236347223045e-307");
  BOOST_TEST(python_float_repr(0.1 + 0.2) == "0.30000000000000004");
  BOOST_TEST(python_float_repr(0.0001) == "0.0001");
  BOOST_TEST(python_float_repr(0.00001) == "1e-05");
  BOOST_TEST(python_float_repr(1.5e16) == "1.5e+16");
  BOOST_TEST(python_float_repr(1e15) == "1000000000000000.0");
  BOOST_TEST(python_float_repr(-2.5) == "-2.5");
  BOOST_TEST(python_float_repr(123456.789) == "123456.789");
}

BOOST_AUTO_TEST_CASE(fixed_rounds_like_python) {
  BOOST_TEST(fixed(2.675, 2) == "2.67");  // binary value is below 2.675
  BOOST_TEST(fixed(0.125, 2) == "0.12");  // ties to even, as Python
  BOOST_TEST(fixed(28.30117, 1) == "28.3");
}

BOOST_AUTO_TEST_SUITE_END()
