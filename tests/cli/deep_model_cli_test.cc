// A model with every later option (--layer-normalization --enc-cell-depth 2
// --dec-cell-depth 3) through every tool that reads models, with the guarantees of the
// paper's model: nmt-train stores the options and the log names them; nmt-decode solves the
// task and prints the same bytes for any batch and thread count in fp32 and int8, with a
// shortlist too, and as an ensemble of itself; nmt-align links the mirrored positions, the
// same for any batch and thread count; nmt-score's scores do not depend on the batch.
#include <boost/test/unit_test.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "support/reversal_model.h"
#include "support/run_process.h"
#include "support/temp_dir.h"

namespace rt = rnnsearch::testing;

namespace {

const std::vector<std::string> kDeep = {"--layer-normalization", "--enc-cell-depth", "2", "--dec-cell-depth", "3"};

rt::ProcessResult run_tool(const std::string& tool, const std::vector<std::string>& args, const std::string& input = "") {
  std::vector<std::string> argv{rt::tool_path(tool)};
  argv.insert(argv.end(), args.begin(), args.end());
  return rt::run_process(argv, "", input);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(deep_model_cli)

BOOST_AUTO_TEST_CASE(a_deep_layer_normalised_model_works_with_every_tool) {
  const rt::ReversalModel m("", kDeep);
  BOOST_TEST(m.log.find("enc 32x2 depth 2, dec 64 conditional depth 3, layer norm") != std::string::npos, m.log);
  const auto config = run_tool("nmt-train", {"--dump-config", "-m", m.model});
  BOOST_TEST_REQUIRE(config.exit_code == 0, config.err);
  for (const std::string line : {"layer-normalization = true", "enc-cell-depth = 2", "dec-cell-depth = 3"}) {
    BOOST_TEST(config.out.find(line + "\n") != std::string::npos, line);
  }

  const auto held_out = rt::held_out_reversals(50, 99);
  const auto best = m.decode({}, held_out.source);
  BOOST_TEST_REQUIRE(best.exit_code == 0, best.err);
  const auto got = lines_of(best.out), want = lines_of(held_out.reversed);
  BOOST_TEST_REQUIRE(got.size() == want.size());
  std::size_t right = 0;
  for (std::size_t i = 0; i < got.size(); ++i) right += got[i] == want[i] ? 1 : 0;
  BOOST_TEST(right >= 48u, right << " of 50 reversed exactly");

  const std::string dir = m.dir.path().string() + "/";
  BOOST_TEST_REQUIRE(run_tool("nmt-align", {"ibm2", "-s", dir + "train.src", "-t", dir + "train.tgt", "--save-table",
                                            dir + "table", "-o", dir + "ibm2.links", "-q"}).exit_code == 0);
  BOOST_TEST_REQUIRE(run_tool("nmt-vocab", {"-i", dir + "train.tgt", "-o", dir + "vocab", "-q"}).exit_code == 0);
  BOOST_TEST_REQUIRE(run_tool("nmt-shortlist", {"--table", dir + "table", "--target-vocab", dir + "vocab", "--first",
                                                "2", "--best", "3", "-o", dir + "shortlist"}).exit_code == 0);
  for (const std::vector<std::string>& search :
       std::vector<std::vector<std::string>>{{"--precision", "fp32"}, {"--precision", "int8"},
                                             {"--precision", "int8", "--shortlist", dir + "shortlist"}}) {
    std::vector<std::string> options = search;
    options.insert(options.end(), {"-b", "3", "--n-best", "2"});
    const auto whole = m.decode(options, held_out.source);
    BOOST_TEST_REQUIRE(whole.exit_code == 0, whole.err);
    options.insert(options.end(), {"--mini-batch", "3", "--threads", "2"});
    BOOST_TEST(m.decode(options, held_out.source).out == whole.out, search[1]);
    options.insert(options.end(), {"-m", m.model});  // an ensemble of the model with itself
    BOOST_TEST(m.decode(options, held_out.source).out == whole.out, search[1] << " ensemble");
  }

  const auto target = m.dir.write("held.tgt", held_out.reversed), source = m.dir.write("held.src", held_out.source);
  const auto links = run_tool("nmt-align", {"-m", m.model, "-s", source, "-t", target});
  BOOST_TEST_REQUIRE(links.exit_code == 0, links.err);
  const auto link_lines = lines_of(links.out);
  std::size_t mirrored = 0, total = 0;
  for (std::size_t i = 0; i < link_lines.size(); ++i) {
    const std::size_t length = lines_of(held_out.source)[i].size() / 3 + 1;  // "wN" and a space per word
    std::istringstream in(link_lines[i]);
    for (std::string link; in >> link; ++total) {
      const auto dash = link.find('-');
      mirrored += std::stoul(link.substr(0, dash)) + std::stoul(link.substr(dash + 1)) + 1 == length ? 1 : 0;
    }
  }
  BOOST_TEST(mirrored >= total * 9 / 10, mirrored << " of " << total << " links mirrored");
  BOOST_TEST(run_tool("nmt-align", {"-m", m.model, "-s", source, "-t", target, "--mini-batch", "7", "--threads", "2"})
                 .out == links.out);

  const auto scores = run_tool("nmt-score", {"-m", m.model, "-s", source, "-t", target});
  BOOST_TEST_REQUIRE(scores.exit_code == 0, scores.err);
  BOOST_TEST(lines_of(scores.out).size() == 50u);
  BOOST_TEST(run_tool("nmt-score", {"-m", m.model, "-s", source, "-t", target, "--mini-batch", "1", "--threads", "2"})
                 .out == scores.out);
}

BOOST_AUTO_TEST_CASE(depths_out_of_range_are_refused_naming_the_option) {
  const rt::TempDir dir;
  const auto src = dir.write("a.src", "w1 w2\n"), tgt = dir.write("a.tgt", "w2 w1\n");
  const auto model = (dir.path() / "m.bin").string();
  for (const std::string& option : {std::string("--enc-cell-depth"), std::string("--dec-cell-depth")}) {
    for (const std::string value : {"0", "9"}) {
      const auto r = run_tool("nmt-train", {"-t", src, tgt, "-m", model, option, value, "--max-updates", "1"});
      BOOST_TEST(r.exit_code == 2, option << " " << value);
      BOOST_TEST(r.err.find(option + " must be in [1, 8], got " + value) != std::string::npos, r.err);
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
