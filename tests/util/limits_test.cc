// The shared guards of lib/util: range checks of option values, the refusal of a
// directory where a file is read, XML text without the characters XML forbids, and
// exceptions of worker threads reaching the caller.
#include <boost/program_options.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "support/temp_dir.h"
#include "util/error.h"
#include "util/line_reader.h"
#include "util/option_range.h"
#include "util/parallel.h"
#include "util/read_file.h"
#include "util/xml_escape.h"

using namespace rnnsearch;
namespace po = boost::program_options;
namespace rt = rnnsearch::testing;

namespace {

// The UsageError message of `check`, or "" when it passes.
template <class F>
std::string usage_message(F check) {
  try {
    check();
  } catch (const util::UsageError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

BOOST_AUTO_TEST_CASE(check_range_names_the_option_its_range_and_the_value) {
  BOOST_TEST(usage_message([] { util::check_range("beam-size", 1000000, 1, 1000); }) ==
             "--beam-size must be in [1, 1000], got 1000000");
  BOOST_TEST(usage_message([] { util::check_range("beam-size", 1000, 1, 1000); }).empty());
  BOOST_TEST(usage_message([] { util::check_range("length-penalty", std::nan(""), 0.0, 10.0); }) ==
             "--length-penalty must be in [0, 10], got nan");
  BOOST_TEST(usage_message([] {
               util::check_range("max-length-ratio", std::numeric_limits<double>::infinity(), 0.01, 100.0);
             }) == "--max-length-ratio must be in [0.01, 100], got inf");
  BOOST_TEST(usage_message([] { util::check_range("dropout", -0.5f, 0.0f, 0.99f); }) ==
             "--dropout must be in [0, 0.99], got -0.5");
}

BOOST_AUTO_TEST_CASE(unsigned_value_refuses_a_minus_sign) {
  std::uint64_t seed = 1;
  po::options_description options;
  options.add_options()("seed", util::unsigned_value(&seed, "seed")->default_value(seed), "seed");
  auto parse = [&](std::vector<std::string> args) {
    po::variables_map vm;
    po::store(po::command_line_parser(args).options(options).run(), vm);
    po::notify(vm);
  };
  BOOST_TEST(usage_message([&] { parse({"--seed=-1"}); }) ==
             "--seed must be in [0, 18446744073709551615], got -1");
  parse({"--seed=18446744073709551615"});
  BOOST_TEST(seed == std::numeric_limits<std::uint64_t>::max());
}

// An empty value is a value: refused by the check, never taken for "not given".
BOOST_AUTO_TEST_CASE(a_text_option_is_checked_as_it_is_read) {
  std::optional<std::string> seed;
  po::options_description options;
  options.add_options()("seed", util::checked_text(&seed, [](const std::string& text) {
                          if (text.empty()) throw util::UsageError("--seed must not be empty");
                        }), "seed");
  auto parse = [&](std::vector<std::string> args) {
    po::variables_map vm;
    po::store(po::command_line_parser(args).options(options).run(), vm);
    po::notify(vm);
  };
  parse({});
  BOOST_TEST(!seed.has_value());
  parse({"--seed", "7"});
  BOOST_TEST(*seed == "7");
  BOOST_TEST(usage_message([&] { parse({"--seed", ""}); }) == "--seed must not be empty");
}

BOOST_AUTO_TEST_CASE(a_directory_is_not_a_file) {
  rt::TempDir dir;
  const std::string path = dir.path().string();
  const auto refused = [&](auto read) {
    try {
      read();
    } catch (const util::Error& e) {
      return std::string(e.what()) == path + ": is a directory";
    }
    return false;
  };
  BOOST_TEST(refused([&] { util::read_file(path, "the codes file"); }));
  BOOST_TEST(refused([&] { util::read_lines(path); }));
  BOOST_TEST(util::read_file(dir.write("f", "a\nb"), "f") == "a\nb");
}

BOOST_AUTO_TEST_CASE(xml_escape_leaves_no_character_xml_forbids) {
  BOOST_TEST(util::xml_escape("a<b>&\"c\"") == "a&lt;b&gt;&amp;&quot;c&quot;");
  BOOST_TEST(util::xml_escape("tab\there\nnl\rcr") == "tab\there\nnl\rcr");  // allowed
  BOOST_TEST(util::xml_escape(std::string("a\x01" "b\x1f" "c\x7f", 6)) == "a\xEF\xBF\xBD" "b\xEF\xBF\xBD" "c\x7f");
  BOOST_TEST(util::xml_escape(std::string("\0", 1)) == "\xEF\xBF\xBD");
  BOOST_TEST(util::xml_escape("x\xEF\xBF\xBFy\xEF\xBF\xBE") == "x\xEF\xBF\xBDy\xEF\xBF\xBD");
  BOOST_TEST(util::xml_escape("\xEF\xBF\xBD\xC3\xA9") == "\xEF\xBF\xBD\xC3\xA9");  // U+FFFD, é stay
}

BOOST_AUTO_TEST_CASE(parallel_for_covers_every_index_once_in_contiguous_blocks) {
  for (const std::size_t count : {0, 1, 2, 7, 1000}) {
    for (const int blocks : {-1, 0, 1, 2, 3, 16}) {
      std::vector<int> seen(count, 0);
      std::mutex lock;
      std::vector<std::pair<std::size_t, std::size_t>> ranges;
      util::parallel_for(count, blocks, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) ++seen[i];
        const std::lock_guard<std::mutex> hold(lock);
        ranges.emplace_back(begin, end);
      });
      BOOST_TEST(std::count(seen.begin(), seen.end(), 1) == static_cast<long>(count));
      const std::size_t expected_blocks = std::max<std::size_t>(1, std::min<std::size_t>(std::max(blocks, 1), count));
      BOOST_TEST(ranges.size() == expected_blocks);
    }
  }
}

BOOST_AUTO_TEST_CASE(parallel_for_rethrows_the_first_blocks_exception_after_all_have_ended) {
  std::atomic<int> finished{0};
  try {
    util::parallel_for(40, 4, [&](std::size_t begin, std::size_t) {
      if (begin >= 10) {
        ++finished;
        throw std::runtime_error("block from " + std::to_string(begin));
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      ++finished;
    });
    BOOST_FAIL("no exception");
  } catch (const std::runtime_error& e) {
    BOOST_TEST(std::string(e.what()) == "block from 10");
  }
  BOOST_TEST(finished.load() == 4);
}

BOOST_AUTO_TEST_CASE(an_exception_in_a_worker_thread_reaches_the_caller) {
  BOOST_CHECK_THROW(util::run_on_threads(4, [](int k) {
                      if (k == 3) throw std::runtime_error("worker 3");
                    }),
                    std::runtime_error);
}
