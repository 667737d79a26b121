// nmt-align ibm2 --save-table, nmt-shortlist and nmt-decode --shortlist as users run them,
// on the reversal model: a shortlist of every piece decodes as none, a real one gives the
// same lines in any mini-batch, and bad table and shortlist lines are one-line errors
// naming the file and line.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <sstream>

#include "support/reversal_model.h"
#include "support/run_process.h"
#include "support/temp_dir.h"

namespace rt = rnnsearch::testing;

namespace {

// Runs `tool args...`; a failure fails the test with its stderr.
void run_ok(const std::string& tool, const std::vector<std::string>& args) {
  std::vector<std::string> argv{rt::tool_path(tool)};
  argv.insert(argv.end(), args.begin(), args.end());
  const auto r = rt::run_process(argv);
  BOOST_TEST_REQUIRE(r.exit_code == 0, tool << ": " << r.err);
}

// The one line of stderr of a run expected to fail with status 1.
std::string error_line(const std::vector<std::string>& argv, const std::string& stdin_data = "") {
  const auto r = rt::run_process(argv, "", stdin_data);
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(std::count(r.err.begin(), r.err.end(), '\n') == 1, r.err);
  return r.err;
}

const std::string kInput = "w1 w2 w3\nw8 w9 w0 w1\n\nw4 w4 w5 w6 w7\nw2 w3 w5\n";

}  // namespace

BOOST_AUTO_TEST_SUITE(shortlist_cli)

BOOST_AUTO_TEST_CASE(shortlists_decode_as_documented) {
  rt::ReversalModel m;
  const std::string dir = m.dir.path().string() + "/";
  run_ok("nmt-align", {"ibm2", "-s", dir + "train.src", "-t", dir + "train.tgt", "--save-table", dir + "table", "-o",
                       dir + "links", "-q"});
  run_ok("nmt-vocab", {"-i", dir + "train.tgt", "-o", dir + "vocab", "-q"});
  run_ok("nmt-shortlist", {"--table", dir + "table", "--target-vocab", dir + "vocab", "--first", "1000", "--best", "0",
                           "-o", dir + "every"});
  run_ok("nmt-shortlist", {"--table", dir + "table", "--target-vocab", dir + "vocab", "--first", "0", "--best", "2",
                           "-o", dir + "small"});
  const std::vector<std::string> nbest{"-b", "3", "--n-best", "3"};
  const auto full = m.decode(nbest, kInput);
  BOOST_TEST_REQUIRE(full.exit_code == 0, full.err);
  std::vector<std::string> with_every = nbest;
  with_every.insert(with_every.end(), {"--shortlist", dir + "every"});
  BOOST_TEST(m.decode(with_every, kInput).out == full.out);
  const auto small = m.decode({"--shortlist", dir + "small"}, kInput);
  BOOST_TEST_REQUIRE(small.exit_code == 0, small.err);
  BOOST_TEST(m.decode({"--shortlist", dir + "small", "--mini-batch", "1", "--threads", "2"}, kInput).out == small.out);
  BOOST_TEST(m.decode({"--shortlist", dir + "small", "-b", "1"}, kInput).exit_code == 0);
}

BOOST_AUTO_TEST_CASE(bad_lines_name_file_and_line) {
  rt::ReversalModel m;
  const std::string bad_table = m.dir.write("bad.table", "nmt-ibm2-table 1 direction=forward p-null=0.08 tension=4\n"
                                                         "w1\tw1\t0.5\nw1 w1 0.5\n");
  const std::string vocab = m.dir.write("vocab", "w1 3\n");
  BOOST_TEST(error_line({rt::tool_path("nmt-shortlist"), "--table", bad_table, "--target-vocab", vocab}) ==
             "nmt-shortlist: " + bad_table +
                 ":3: expected 'SOURCE<TAB>TARGET<TAB>PROBABILITY' (SOURCE empty for NULL)\n");
  const std::string src = m.dir.path().string() + "/train.src", tgt = m.dir.path().string() + "/train.tgt";
  BOOST_TEST(error_line({rt::tool_path("nmt-align"), "ibm2", "-s", src, "-t", tgt, "--load-table", bad_table, "-q"})
                 .find("nmt-align: " + bad_table + ":3: expected") == 0u);
  const std::string bad_list = m.dir.write("bad.shortlist", "nmt-shortlist 1 first=0 best=2 threshold=0\nw2 w1\n");
  BOOST_TEST(error_line({rt::tool_path("nmt-decode"), "-m", m.model, "--shortlist", bad_list}, "w1 w2\n") ==
             "nmt-decode: " + bad_list + ":2: expected 'SOURCE_PIECE<TAB>TARGET_PIECE TARGET_PIECE ...' (single spaces)\n");
}

BOOST_AUTO_TEST_SUITE_END()
