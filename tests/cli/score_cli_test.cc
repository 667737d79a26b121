// nmt-score as users run it, over models trained by nmt-train on a reversal task: a score
// is nmt-decode's F0 for the same translation (alone and in a weighted ensemble, through
// an n-best round trip that changes nothing else), the same bytes whatever the batches and
// threads, per-word scores that add up, nmt-decode --weights with equal weights as without,
// rerank's choice per sentence, and errors that name the file and line.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <sstream>

#include "support/end_warnings.h"
#include "support/reversal_model.h"
#include "support/run_process.h"
#include "support/text_lines.h"
#include "util/rng.h"

namespace rt = rnnsearch::testing;
using rt::lines_of;

namespace {

std::vector<double> numbers_of(const std::string& line) {
  std::vector<double> values;
  std::istringstream in(line);
  for (std::string word; in >> word;) values.push_back(std::stod(word));
  return values;
}

rt::ProcessResult score(const std::vector<std::string>& options, const std::string& input = "") {
  std::vector<std::string> argv = {rt::tool_path("nmt-score")};
  argv.insert(argv.end(), options.begin(), options.end());
  return rt::run_process(argv, "", input);
}

std::size_t word_count(const std::string& line) {
  std::istringstream in(line);
  std::size_t count = 0;
  for (std::string word; in >> word;) ++count;
  return count;
}

// The first line of stderr.
std::string error_of(const rt::ProcessResult& r) { return r.err.substr(0, r.err.find('\n')); }

// `count` sentences of 1-8 words and, for each, a target: the reversal or other words.
std::string random_lines(int count, std::uint64_t seed) {
  rnnsearch::util::Rng rng(seed);
  std::string text;
  for (int i = 0; i < count; ++i) {
    const int length = 1 + static_cast<int>(rng.below(8));
    for (int k = 0; k < length; ++k) text += (k ? " w" : "w") + std::to_string(rng.below(10));
    text += '\n';
  }
  return text;
}

const std::string kSource = "w1 w2 w3\nw4 w5 w6 w7\nw8 w9 w0 w1 w2\n";

}  // namespace

BOOST_AUTO_TEST_SUITE(score_cli)

BOOST_AUTO_TEST_CASE(n_best_round_trip_adds_f0_and_keeps_every_other_byte) {
  rt::ReversalModel m;
  const auto decoded = m.decode({"-b", "4", "--n-best", "4"}, kSource);
  BOOST_TEST_REQUIRE(decoded.exit_code == 0, decoded.err);
  const std::string source = m.dir.write("src", kSource), nbest = m.dir.write("nbest", decoded.out);
  const auto r = score({"-m", m.model, "-s", source, "--n-best", nbest, "--feature-name", "Again"});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  const auto in = lines_of(decoded.out), out = lines_of(r.out);
  BOOST_TEST_REQUIRE(in.size() == 12u);
  BOOST_TEST_REQUIRE(out.size() == in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    const auto f0 = in[i].find(" F0= ") + 5, end = in[i].rfind(" ||| ");
    const std::string value = in[i].substr(f0, end - f0);
    BOOST_TEST(out[i] == in[i].substr(0, end) + " Again= " + value + in[i].substr(end));
  }
  // A second model's feature goes after the first.
  const std::string scored = m.dir.write("nbest2", r.out);
  const auto again = score({"-m", m.model, "-s", source, "--n-best", scored, "--feature-name", "Third"});
  BOOST_TEST(lines_of(again.out)[0].find(" Again= ") < lines_of(again.out)[0].find(" Third= "));
}

BOOST_AUTO_TEST_CASE(scores_equal_decode_f0_in_every_input_form) {
  rt::ReversalModel m;
  const auto decoded = m.decode({"-b", "3", "--n-best", "1"}, kSource);
  BOOST_TEST_REQUIRE(decoded.exit_code == 0, decoded.err);
  std::string targets, pairs, expected;
  const auto sources = lines_of(kSource);
  const auto best = lines_of(decoded.out);
  for (std::size_t i = 0; i < best.size(); ++i) {
    const auto t0 = best[i].find(" ||| ") + 5, t1 = best[i].find(" ||| F0= ");
    targets += best[i].substr(t0, t1 - t0) + "\n";
    pairs += sources[i] + "\t" + best[i].substr(t0, t1 - t0) + "\n";
    expected += best[i].substr(t1 + 9, best[i].rfind(" ||| ") - t1 - 9) + "\n";
  }
  const std::string source = m.dir.write("src", kSource), target = m.dir.write("tgt", targets);
  const auto files = score({"-m", m.model, "-s", source, "-t", target});
  BOOST_TEST_REQUIRE(files.exit_code == 0, files.err);
  BOOST_TEST(files.out == expected);
  BOOST_TEST(score({"-m", m.model}, pairs).out == expected);
  // --normalize divides by (pieces + 1)^alpha; --word-scores adds per word and </s>.
  const auto normalized = score({"-m", m.model, "-s", source, "-t", target, "--normalize"});
  const auto words = score({"-m", m.model, "-s", source, "-t", target, "--word-scores"});
  const auto raw = lines_of(files.out), per_piece = lines_of(normalized.out), per_word = lines_of(words.out);
  for (std::size_t i = 0; i < raw.size(); ++i) {
    const double pieces = static_cast<double>(word_count(sources[i]) + 1);  // a reversal: as many pieces
    BOOST_TEST(std::stod(per_piece[i]) == std::stod(raw[i]) / pieces, boost::test_tools::tolerance(1e-4));
    const auto values = numbers_of(per_word[i]);
    BOOST_TEST_REQUIRE(values.size() == 1 + static_cast<std::size_t>(pieces));
    BOOST_TEST(values[0] == std::stod(raw[i]));
    double sum = 0;
    for (std::size_t k = 1; k < values.size(); ++k) sum += values[k];
    BOOST_TEST(sum == values[0], boost::test_tools::tolerance(1e-4));
  }
}

BOOST_AUTO_TEST_CASE(weighted_ensembles_score_their_decoding_and_equal_weights_change_nothing) {
  rt::ReversalModel a, b("", {"--seed", "7"});
  const auto plain = a.decode({"-m", b.model, "-b", "3", "--n-best", "3"}, kSource);
  const auto equal = a.decode({"-m", b.model, "-b", "3", "--n-best", "3", "--weights", "0.5", "0.5"}, kSource);
  const auto weighted = a.decode({"-m", b.model, "-b", "3", "--n-best", "3", "--weights", "1", "3"}, kSource);
  BOOST_TEST_REQUIRE(plain.exit_code == 0, plain.err);
  BOOST_TEST(equal.out == plain.out);
  BOOST_TEST(weighted.out != plain.out);
  const std::string source = a.dir.write("src", kSource), nbest = a.dir.write("nbest", weighted.out);
  const auto r = score({"-m", a.model, b.model, "--weights", "1", "3", "-s", source, "--n-best", nbest,
                        "--feature-name", "E"});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  for (const auto& line : lines_of(r.out)) {
    const auto f0 = line.find(" F0= ") + 5, e = line.find(" E= ");
    BOOST_TEST(line.substr(f0, e - f0) == line.substr(e + 4, line.rfind(" ||| ") - e - 4), line);
  }
  BOOST_TEST(error_of(a.decode({"-m", b.model, "--weights", "1"}, kSource)).find("--weights: 1 value for 2 models") !=
             std::string::npos);
}

BOOST_AUTO_TEST_CASE(scores_are_the_same_bytes_whatever_the_batches_and_threads) {
  rt::ReversalModel m;
  const std::string source = m.dir.write("src", random_lines(150, 3)), target = m.dir.write("tgt", random_lines(150, 4));
  const auto reference = score({"-m", m.model, "-s", source, "-t", target, "--word-scores", "--mini-batch", "1",
                                "--maxi-batch", "1"});
  BOOST_TEST_REQUIRE(reference.exit_code == 0, reference.err);
  BOOST_TEST(lines_of(reference.out).size() == 150u);
  for (const auto& options : std::vector<std::vector<std::string>>{{"--mini-batch", "7"},
                                                                   {"--mini-batch", "64", "--maxi-batch", "3"},
                                                                   {"--mini-batch", "5", "--threads", "2"},
                                                                   {"--threads", "2"}}) {
    std::vector<std::string> argv = {"-m", m.model, "-s", source, "-t", target, "--word-scores"};
    argv.insert(argv.end(), options.begin(), options.end());
    BOOST_TEST(score(argv).out == reference.out, options[0] + " " + options[1]);
  }
}

// Each side has its own count: the source's 1 of 5 tokens (20%) and the target's 2 of 5
// unknown to the model (40%) warn over 0.1, only the target's over 0.3, neither at 1.
BOOST_AUTO_TEST_CASE(unknown_tokens_of_each_side_warn_once_at_the_end) {
  rt::ReversalModel m;
  const std::string source = m.dir.write("src", "w1 w2 w3\nw4 Hello\n"), target = m.dir.write("tgt", "w3 w2 w1\nx y\n");
  const std::string tail = " are unknown to the model; is the text tokenized, BPE'd with the model's codes, and in "
                           "the model's ";
  const std::string source_warning = "nmt-score: warning: 1 of 5 source tokens (20.0%) in " + source + tail +
                                     "source language?";
  const std::string target_warning = "nmt-score: warning: 2 of 5 target tokens (40.0%) in " + target + tail +
                                     "target language?";
  const std::vector<std::string> argv = {rt::tool_path("nmt-score"), "-m", m.model, "-s", source, "-t", target};
  const auto r = rt::check_end_warning(argv, "", target_warning, {}, {"--unknown-warning", "1"});
  BOOST_TEST(r.plain.err == source_warning + "\n" + target_warning + "\n");
  BOOST_TEST(r.silent.out == r.plain.out);
  BOOST_TEST(r.silent.err.empty(), r.silent.err);
  BOOST_TEST(score({"-m", m.model, "-s", source, "-t", target, "--unknown-warning", "0.3"}).err ==
             target_warning + "\n");
  // Pairs on stdin name it; clean pairs give no word.
  const auto piped = score({"-m", m.model, "-q"}, "w1 w2\tw2 w1\nw3 Hello\tw3\n");
  BOOST_TEST(piped.err.find("nmt-score: warning: 1 of 4 source tokens (25.0%) in <stdin> are unknown") == 0u,
             piped.err);
  BOOST_TEST(score({"-m", m.model}, "w1 w2\tw2 w1\n").err.empty());
}

BOOST_AUTO_TEST_CASE(empty_lines_follow_nmt_decode) {
  rt::ReversalModel m;
  const auto r = score({"-m", m.model}, "\t\n\tw1\nw1 w2\t\n");
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  const auto lines = lines_of(r.out);
  BOOST_TEST_REQUIRE(lines.size() == 3u);
  BOOST_TEST(lines[0] == "0");
  BOOST_TEST(lines[1] == "-inf");
  BOOST_TEST(std::stod(lines[2]) < 0.0);
}

BOOST_AUTO_TEST_CASE(rerank_writes_the_best_entry_per_sentence) {
  const std::string nbest =
      "0 ||| a b ||| F0= -1 R2L= -5 ||| -0.5\n"
      "0 ||| c d ||| F0= -2 R2L= -1 WordScores= -1 -1 ||| -1\n"
      "2 ||| e ||| F0= -1 R2L= -1 ||| -1 ||| 0-0\n";
  const auto both = score({"rerank", "--weights", "F0=1", "R2L=0.5"}, nbest);
  BOOST_TEST_REQUIRE(both.exit_code == 0, both.err);
  BOOST_TEST(both.out == "c d\n\ne\n");
  BOOST_TEST(score({"rerank", "--weights", "F0=1"}, nbest).out == "a b\n\ne\n");
  BOOST_TEST(error_of(score({"rerank", "--weights", "LM=1"}, nbest)) ==
             "nmt-score: <stdin>:1: has no feature LM= (named by --weights)");
  BOOST_TEST(error_of(score({"rerank", "--weights", "WordScores=1"}, nbest)).find("<stdin>:1: has no feature") !=
             std::string::npos);
  BOOST_TEST(error_of(score({"rerank", "--weights", "F0"}, nbest)).find("NAME=WEIGHT") != std::string::npos);
  BOOST_TEST(error_of(score({"rerank", "--weights", "F0=1"}, "1 ||| x ||| F0= -1 ||| 0\n0 ||| y ||| F0= -1 ||| 0\n")) ==
             "nmt-score: <stdin>:2: sentence 0 after a later one; an n-best list is in sentence order");
}

BOOST_AUTO_TEST_CASE(bad_input_names_the_file_and_line) {
  rt::ReversalModel m;
  const std::string source = m.dir.write("src", "w1\nw2\nw3\n"), target = m.dir.write("tgt", "w1\nw2\n");
  BOOST_TEST(error_of(score({"-m", m.model, "-s", source, "-t", target})) ==
             "nmt-score: " + target + ": has 2 lines, but " + source + " has 3; the files must be line-aligned");
  BOOST_TEST(error_of(score({"-m", m.model}, "w1\tw1\nw2 w3\n")) ==
             "nmt-score: <stdin>:2: expected 'source<TAB>target', found no tab");
  const std::string nbest = m.dir.write("nbest", "0 ||| w1 ||| F0= -1 ||| -1\n1 ||| w2 ||| F0= -1\n");
  BOOST_TEST(error_of(score({"-m", m.model, "-s", source, "--n-best", nbest})) ==
             "nmt-score: " + nbest + ":2: found 3 of 4 fields; expected 'N ||| translation ||| features ||| score' "
             "(a Moses n-best line)");
  const std::string beyond = m.dir.write("beyond", "3 ||| w1 ||| F0= -1 ||| -1\n");
  BOOST_TEST(error_of(score({"-m", m.model, "-s", source, "--n-best", beyond})) ==
             "nmt-score: " + beyond + ":1: sentence 3, but " + source + " has 3 lines");
  const std::string named = m.dir.write("named", "0 ||| w1 ||| F0= -1 Score= -2 ||| -1\n");
  BOOST_TEST(error_of(score({"-m", m.model, "-s", source, "--n-best", named})).find("--feature-name") != std::string::npos);
  BOOST_TEST(score({"-m", m.model, "-s", source}).exit_code == 2);
}

BOOST_AUTO_TEST_CASE(decode_word_scores_add_up_to_f0) {
  rt::ReversalModel m;
  const auto r = m.decode({"-b", "3", "--n-best", "2", "--word-scores"}, kSource);
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  for (const auto& line : lines_of(r.out)) {
    const auto t0 = line.find(" ||| ") + 5, f0 = line.find(" ||| F0= "), ws = line.find(" WordScores= ");
    BOOST_TEST_REQUIRE(ws != std::string::npos);
    const auto values = numbers_of(line.substr(ws + 13, line.rfind(" ||| ") - ws - 13));
    BOOST_TEST(values.size() == word_count(line.substr(t0, f0 - t0)) + 1);
    double sum = 0;
    for (const double v : values) sum += v;
    BOOST_TEST(sum == std::stod(line.substr(f0 + 9, ws - f0 - 9)), boost::test_tools::tolerance(1e-4));
  }
  BOOST_TEST(m.decode({"--word-scores"}, kSource).exit_code == 2);
}

BOOST_AUTO_TEST_SUITE_END()
