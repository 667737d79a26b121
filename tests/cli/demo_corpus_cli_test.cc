// nmt-demo-corpus on the command line: the committed sample in data/demo-sample is what
// the tool makes today (byte for byte), --tokenized is nmt-tokenize's output, and bad
// command lines or unwritable directories fail with one clear line.
#include <boost/test/unit_test.hpp>

#include "support/golden_cases.h"
#include "support/run_process.h"
#include "support/shared_data.h"
#include "support/temp_dir.h"

namespace rt = rnnsearch::testing;

BOOST_AUTO_TEST_SUITE(demo_corpus_cli)

BOOST_AUTO_TEST_CASE(the_committed_sample_is_reproduced_byte_for_byte) {
  const rt::TempDir dir;
  const auto r = rt::run_process({rt::tool_path("nmt-demo-corpus"), "-o", dir.path().string(), "--train", "12",
                                  "--valid", "0", "--test", "0", "--seed", "1", "-q"});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  BOOST_TEST(r.err.empty());
  for (const char* file : {"train.xa", "train.xb", "train.align"}) {
    BOOST_TEST(rt::read_file((dir.path() / file).string()) ==
                   rt::read_file(rt::source_dir() + "/data/demo-sample/" + file),
               file);
  }
}

BOOST_AUTO_TEST_CASE(tokenized_output_is_what_nmt_tokenize_makes_of_the_raw_text) {
  const rt::TempDir raw, tokenized;
  for (const auto& [dir, extra] : {std::pair{&raw, ""}, {&tokenized, "--tokenized"}}) {
    std::vector<std::string> argv = {rt::tool_path("nmt-demo-corpus"), "-o", dir->path().string(), "--train", "300",
                                     "--valid", "20", "--test", "20", "--seed", "3"};
    if (*extra) argv.push_back(extra);
    const auto r = rt::run_process(argv);
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    BOOST_TEST(r.err.find("train: 300 pairs") != std::string::npos, r.err);
  }
  for (const char* split : {"train", "valid", "test"}) {
    for (const char* language : {"xa", "xb"}) {
      const std::string name = std::string(split) + "." + language;
      const auto tok = rt::run_process({rt::tool_path("nmt-tokenize"), "-l", language, "--no-escape", "-i",
                                        (raw.path() / name).string()});
      BOOST_TEST_REQUIRE(tok.exit_code == 0, tok.err);
      BOOST_TEST(tok.out == rt::read_file((tokenized.path() / name).string()), name);
    }
    const std::string links = std::string(split) + ".align";
    BOOST_TEST(rt::read_file((raw.path() / links).string()) == rt::read_file((tokenized.path() / links).string()));
  }
}

BOOST_AUTO_TEST_CASE(bad_command_lines_and_unwritable_directories_fail_clearly) {
  const rt::TempDir dir;
  const auto tool = rt::tool_path("nmt-demo-corpus");
  auto r = rt::run_process({tool});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err.find("--output-dir is required") != std::string::npos, r.err);
  r = rt::run_process({tool, "-o", dir.path().string(), "--train", "-5"});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err.find("--train must be in [0, 10000000], got -5") != std::string::npos, r.err);
  r = rt::run_process({tool, "-o", dir.path().string(), "--source-language", "xb"});
  BOOST_TEST(r.exit_code == 2);
  const std::string blocker = dir.write("a-file", "not a directory\n");
  r = rt::run_process({tool, "-o", blocker + "/corpus", "--train", "5"});
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(r.err.find("nmt-demo-corpus: ") == 0u, r.err);
  BOOST_TEST(r.err.find("a-file") != std::string::npos, r.err);
  BOOST_TEST(std::count(r.err.begin(), r.err.end(), '\n') == 1, r.err);
}

BOOST_AUTO_TEST_SUITE_END()
