// pipelines/filter.sh as users run it, with the reversal model as both the forward and
// the reverse model (reversing is its own inverse): the pairs whose target is not the
// reversal are the ones removed, the outputs stay line-aligned in corpus order, each
// score is the dual conditional cross-entropy of nmt-score's two per-piece scores, an
// empty side is never kept, and bad command lines fail with a message.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <set>
#include <sstream>

#include "support/golden_cases.h"
#include "support/reversal_model.h"
#include "support/run_process.h"
#include "support/shared_data.h"
#include "support/text_lines.h"
#include "util/rng.h"

namespace rt = rnnsearch::testing;
using rt::lines_of;

namespace {

rt::ProcessResult filter(const std::vector<std::string>& options) {
  std::vector<std::string> argv = {"/usr/bin/env", "NMT_BIN=" + rt::bin_dir(), "bash",
                                   rt::source_dir() + "/pipelines/filter.sh"};
  argv.insert(argv.end(), options.begin(), options.end());
  return rt::run_process(argv);
}

// 40 pairs over the model's words: every fourth target is random words (noise), line 38
// has an empty target, the others are reversals.
struct NoisyPairs {
  std::string source, target;
  std::set<int> noise;  // line numbers (from 1) of the random targets
};

NoisyPairs noisy_pairs() {
  rnnsearch::util::Rng rng(9);
  NoisyPairs pairs;
  for (int line = 1; line <= 40; ++line) {
    const int length = 3 + static_cast<int>(rng.below(4));
    std::vector<std::string> words, other;
    for (int k = 0; k < length; ++k) words.push_back("w" + std::to_string(rng.below(10)));
    for (int k = 0; k < length; ++k) other.push_back("w" + std::to_string(rng.below(10)));
    const bool noise = line % 4 == 0 && line != 40;
    if (noise) pairs.noise.insert(line);
    for (int k = 0; k < length; ++k) pairs.source += (k ? " " : "") + words[static_cast<std::size_t>(k)];
    for (int k = 0; k < length && line != 38; ++k) {
      pairs.target += (k ? " " : "") + (noise ? other : words)[static_cast<std::size_t>(noise ? k : length - 1 - k)];
    }
    pairs.source += '\n';
    pairs.target += '\n';
  }
  return pairs;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(filter_cli)

BOOST_AUTO_TEST_CASE(removes_the_pairs_the_models_disagree_with_and_keeps_lines_aligned) {
  const rt::ReversalModel model;
  const NoisyPairs pairs = noisy_pairs();
  const auto src = model.dir.write("noisy.src", pairs.source), tgt = model.dir.write("noisy.tgt", pairs.target);
  const std::string dir = model.dir.path().string();
  // 9 noise lines and an empty target among 40: keep 75% = 30 of the 30 good pairs.
  const auto r = filter({"--forward", model.model, "--reverse", model.model, "--keep", "75", "--scores", dir + "/scores",
                         "--kept-lines", dir + "/kept", "--threads", "2", src, tgt, dir + "/out.src", dir + "/out.tgt"});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  const auto kept = lines_of(rt::read_file(dir + "/kept"));
  BOOST_TEST(kept.size() == 30u);
  const auto sources = lines_of(pairs.source), targets = lines_of(pairs.target);
  const auto out_src = lines_of(rt::read_file(dir + "/out.src")), out_tgt = lines_of(rt::read_file(dir + "/out.tgt"));
  BOOST_TEST_REQUIRE(out_src.size() == kept.size());
  BOOST_TEST_REQUIRE(out_tgt.size() == kept.size());
  int previous = 0;
  for (std::size_t i = 0; i < kept.size(); ++i) {
    const int line = std::stoi(kept[i]);
    BOOST_TEST(line > previous);  // corpus order
    previous = line;
    BOOST_TEST(pairs.noise.count(line) == 0u, "noise line " << line << " kept");
    BOOST_TEST(line != 38);
    BOOST_TEST(out_src[i] == sources[static_cast<std::size_t>(line - 1)]);
    BOOST_TEST(out_tgt[i] == targets[static_cast<std::size_t>(line - 1)]);
  }
  // Scores: one line per pair, score = |H_f - H_r| + (H_f + H_r) / 2 with H = -nmt-score --normalize.
  const auto scores = lines_of(rt::read_file(dir + "/scores"));
  BOOST_TEST_REQUIRE(scores.size() == 40u);
  BOOST_TEST(scores[37] == "inf\tinf\tinf");
  const auto forward = rt::run_process({rt::tool_path("nmt-score"), "-m", model.model, "-s", src, "-t", tgt,
                                        "--normalize", "-q"});
  BOOST_TEST_REQUIRE(forward.exit_code == 0, forward.err);
  const auto forward_lines = lines_of(forward.out);
  for (int line : {1, 4, 17}) {
    double score, h_fwd, h_rev;
    std::istringstream(scores[static_cast<std::size_t>(line - 1)]) >> score >> h_fwd >> h_rev;
    BOOST_TEST(h_fwd == -std::stod(forward_lines[static_cast<std::size_t>(line - 1)]), boost::test_tools::tolerance(1e-6));
    BOOST_TEST(score == std::fabs(h_fwd - h_rev) + (h_fwd + h_rev) / 2, boost::test_tools::tolerance(1e-5));
  }
  // --threshold keeps exactly the pairs scoring at most it.
  const auto t = filter({"--forward", model.model, "--reverse", model.model, "--threshold", "1", "--kept-lines",
                         dir + "/kept1", src, tgt, dir + "/t.src", dir + "/t.tgt"});
  BOOST_TEST_REQUIRE(t.exit_code == 0, t.err);
  std::set<int> expected;
  for (std::size_t i = 0; i < scores.size(); ++i) {
    if (scores[i] != "inf\tinf\tinf" && std::stod(scores[i]) <= 1.0) expected.insert(static_cast<int>(i + 1));
  }
  std::set<int> got;
  for (const auto& line : lines_of(rt::read_file(dir + "/kept1"))) got.insert(std::stoi(line));
  BOOST_TEST((got == expected));
}

BOOST_AUTO_TEST_CASE(bad_command_lines_and_files_fail_with_a_message) {
  const rt::ReversalModel model;
  const auto src = model.dir.write("a.src", "w1 w2\nw3\n"), tgt = model.dir.write("a.tgt", "w2 w1\n");
  const std::string out = model.dir.path().string() + "/out";
  const auto mismatched = filter({"--forward", model.model, "--reverse", model.model, "--keep", "50", src, tgt,
                                  out + ".src", out + ".tgt"});
  BOOST_TEST(mismatched.exit_code == 1);
  BOOST_TEST(mismatched.err.find("a.src has 2 lines") != std::string::npos, mismatched.err);
  const auto neither = filter({"--forward", model.model, "--reverse", model.model, src, src, out + ".a", out + ".b"});
  BOOST_TEST(neither.exit_code == 2);
  BOOST_TEST(neither.err.find("give one of --keep and --threshold") != std::string::npos, neither.err);
  const auto percent = filter({"--forward", model.model, "--reverse", model.model, "--keep", "120", src, src,
                               out + ".a", out + ".b"});
  BOOST_TEST(percent.exit_code == 2);
  BOOST_TEST(percent.err.find("--keep must be a percentage") != std::string::npos, percent.err);
  const auto missing = filter({"--forward", out + ".none", "--reverse", model.model, "--keep", "50", src, src,
                               out + ".a", out + ".b"});
  BOOST_TEST(missing.exit_code == 1);
  BOOST_TEST(missing.err.find("cannot be read") != std::string::npos, missing.err);
}

BOOST_AUTO_TEST_SUITE_END()
