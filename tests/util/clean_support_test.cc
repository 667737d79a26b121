// The util pieces nmt-clean added: LineReader on a descriptor with bytes kept as they are,
// GunzipPipe, fixed_arity_value and "ALIAS=VALUE" in expand_aliases.
#include <boost/test/unit_test.hpp>

#include <fcntl.h>
#include <unistd.h>

#include "support/error_message.h"
#include "support/run_process.h"
#include "support/temp_dir.h"
#include "util/cli.h"
#include "util/gunzip_pipe.h"
#include "util/line_reader.h"

namespace rt = rnnsearch::testing;
namespace util = rnnsearch::util;
namespace po = boost::program_options;

BOOST_AUTO_TEST_SUITE(clean_support)

BOOST_AUTO_TEST_CASE(a_reader_can_keep_invalid_bytes_and_carriage_returns) {
  const rt::TempDir dir;
  const auto path = dir.write("raw", "a\xFF\r\nb\r\n");
  const int fd = ::open(path.c_str(), O_RDONLY);
  util::LineReader reader(fd, "raw.txt", util::InvalidUtf8::kKeep);
  reader.keep_carriage_returns();
  std::string line;
  BOOST_TEST(reader.next(line));
  BOOST_TEST(line == "a\xFF\r");
  BOOST_TEST(reader.next(line));
  BOOST_TEST(line == "b\r");
  BOOST_TEST(!reader.next(line));
  BOOST_TEST(reader.name() == "raw.txt");
  ::close(fd);  // the reader does not own it
}

BOOST_AUTO_TEST_CASE(gunzip_pipe_decompresses_and_reports_bad_data) {
  const rt::TempDir dir;
  const auto text = dir.write("t", "one\ntwo\n");
  BOOST_TEST_REQUIRE(rt::run_process({"/bin/sh", "-c", "gzip \"$0\"", text}).exit_code == 0);
  {
    util::GunzipPipe pipe(text + ".gz");
    util::LineReader reader(pipe.fd(), text + ".gz");
    std::string line;
    BOOST_TEST((reader.next(line) && line == "one"));
    BOOST_TEST((reader.next(line) && line == "two"));
    BOOST_TEST(!reader.next(line));
    pipe.finish();
  }
  const auto bad = dir.write("bad.gz", "not gzip data\n");
  BOOST_TEST(rt::error_message([&] {
               util::GunzipPipe pipe(bad);
               util::LineReader reader(pipe.fd(), bad);
               std::string line;
               while (reader.next(line)) {
               }
               pipe.finish();
             }) == bad + ": gzip -dc failed (exit status 1): not gzip data, or truncated");
  BOOST_TEST(rt::error_message([&] { util::GunzipPipe pipe(bad + ".none"); }) ==
             bad + ".none: cannot open: No such file or directory");
  // Left unfinished: the destructor stops and reaps gzip.
  util::GunzipPipe unfinished(text + ".gz");
}

BOOST_AUTO_TEST_CASE(aliases_keep_their_values_and_pairs_take_two_arguments) {
  const char* argv[] = {"tool", "-ratio=1.5", "-ratio", "2", "-ratiox=3", "--aligned", "a", "b", "--aligned", "c", "d"};
  const auto args = util::expand_aliases(11, const_cast<char**>(argv), {{"-ratio", "--ratio"}});
  BOOST_TEST(args == (std::vector<std::string>{"--ratio=1.5", "--ratio", "2", "-ratiox=3", "--aligned", "a", "b",
                                              "--aligned", "c", "d"}),
             boost::test_tools::per_element());
  std::vector<std::string> pairs;
  po::options_description options;
  options.add_options()("aligned", util::fixed_arity_value(&pairs, 2), "");
  po::variables_map vm;
  po::store(po::command_line_parser(std::vector<std::string>(args.begin() + 4, args.end())).options(options).run(), vm);
  po::notify(vm);
  BOOST_TEST(pairs == (std::vector<std::string>{"a", "b", "c", "d"}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_SUITE_END()
