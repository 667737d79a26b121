// map_lines: one output line per input line, in order, whatever the thread count;
// errors name the line and leave no partial output; invalid UTF-8 replaced on request.
#include <boost/test/unit_test.hpp>
#include <filesystem>

#include "support/golden_cases.h"
#include "support/temp_dir.h"
#include "util/error.h"
#include "util/line_pipeline.h"
#include "util/utf8.h"

using namespace rnnsearch::util;
using rnnsearch::testing::read_file;
using rnnsearch::testing::TempDir;

BOOST_AUTO_TEST_SUITE(line_pipeline)

BOOST_AUTO_TEST_CASE(keeps_order_and_line_count_on_several_threads) {
  TempDir dir;
  std::string input;
  for (int i = 0; i < 10000; ++i) input += (i % 7 == 0 ? std::string() : "line " + std::to_string(i)) + "\n";
  const auto in = dir.write("in", input);
  const auto out = (dir.path() / "out").string();
  LinePipelineOptions options;
  options.threads = 3;
  options.batch_lines = 100;
  const auto upper = [](std::string_view s) {
    std::string r(s);
    for (char& c : r) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return r;
  };
  BOOST_TEST(map_lines(in, out, options, upper) == 10000u);
  std::string expected;
  for (int i = 0; i < 10000; ++i) expected += (i % 7 == 0 ? std::string() : "LINE " + std::to_string(i)) + "\n";
  BOOST_TEST(read_file(out) == expected);
}

BOOST_AUTO_TEST_CASE(options_validate_the_batch_size_before_any_output) {
  TempDir dir;
  const auto in = dir.write("in", "a\n");
  const auto out = (dir.path() / "out").string();
  LinePipelineOptions options;
  options.batch_lines = 0;
  try {
    map_lines(in, out, options, [](std::string_view s) { return std::string(s); });
    BOOST_FAIL("no error");
  } catch (const UsageError& e) {
    BOOST_TEST(std::string(e.what()) == "--batch-lines must be in [1, 1000000], got 0");
  }
  BOOST_TEST(!std::filesystem::exists(out));
}

BOOST_AUTO_TEST_CASE(a_failing_line_is_named_and_no_output_appears) {
  TempDir dir;
  const auto in = dir.write("in", "a\nb\nbad\nc\n");
  const auto out = (dir.path() / "out").string();
  try {
    map_lines(in, out, {}, [](std::string_view s) -> std::string {
      if (s == "bad") throw std::runtime_error("cannot handle this");
      return std::string(s);
    });
    BOOST_FAIL("no error");
  } catch (const Error& e) {
    BOOST_TEST(std::string(e.what()) == in + ":3: cannot handle this");
  }
  BOOST_TEST(!std::filesystem::exists(out));
}

BOOST_AUTO_TEST_CASE(invalid_utf8_fails_or_is_replaced) {
  TempDir dir;
  const auto in = dir.write("in", "ok\nbad \xFF here\n");
  const auto out = (dir.path() / "out").string();
  const auto same = [](std::string_view s) { return std::string(s); };
  BOOST_CHECK_THROW(map_lines(in, out, {}, same), Error);
  LinePipelineOptions options;
  options.replace_invalid = true;
  map_lines(in, out, options, same);
  BOOST_TEST(read_file(out) == "ok\nbad \xEF\xBF\xBD here\n");
}

BOOST_AUTO_TEST_CASE(replacement_follows_pythons_maximal_subparts) {
  BOOST_TEST(replace_invalid_utf8("a\xE2\x80z") == "a\xEF\xBF\xBDz");               // truncated: one U+FFFD
  BOOST_TEST(replace_invalid_utf8("\xC0\xAF") == "\xEF\xBF\xBD\xEF\xBF\xBD");       // overlong: two
  BOOST_TEST(replace_invalid_utf8("\xED\xA0\x80") == "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // surrogate
  BOOST_TEST(replace_invalid_utf8("ok \xC3\xA9") == "ok \xC3\xA9");
}

BOOST_AUTO_TEST_SUITE_END()
