#include "support/end_warnings.h"

#include <boost/test/unit_test.hpp>

#include "support/text_lines.h"

namespace rnnsearch::testing {

std::size_t count_lines_equal(const std::string& err, const std::string& line) {
  std::size_t n = 0;
  for (const auto& each : lines_of(err)) n += each == line ? 1 : 0;
  return n;
}

WarnedRuns check_end_warning(const std::vector<std::string>& argv, const std::string& input,
                             const std::string& warning, const std::vector<std::string>& warned,
                             const std::vector<std::string>& silent) {
  const auto with = [&](const std::vector<std::string>& options, const std::vector<std::string>& extra) {
    std::vector<std::string> args = argv;
    args.insert(args.end(), options.begin(), options.end());
    args.insert(args.end(), extra.begin(), extra.end());
    return run_process(args, "", input);
  };
  const ProcessResult plain = with(warned, {});
  BOOST_TEST_REQUIRE(plain.exit_code == 0, plain.err);
  BOOST_TEST(count_lines_equal(plain.err, warning) == 1u, plain.err);
  const std::vector<std::vector<std::string>> variants = {{"-q"}, {"--mini-batch", "1"},
                                                          {"--mini-batch", "64", "--threads", "2"}};
  for (const auto& extra : variants) {
    const ProcessResult r = with(warned, extra);
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    BOOST_TEST(r.out == plain.out, extra.front());
    BOOST_TEST(count_lines_equal(r.err, warning) == 1u, extra.front() << ": " << r.err);
  }
  const ProcessResult quiet = with(silent, {});
  BOOST_TEST_REQUIRE(quiet.exit_code == 0, quiet.err);
  BOOST_TEST(count_lines_equal(quiet.err, warning) == 0u, quiet.err);
  return {plain, quiet};
}

}  // namespace rnnsearch::testing
