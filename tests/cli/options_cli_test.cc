// Options that no other test reached, each checked for what its help text promises:
// nmt-train's early stopping, --max-minutes, --warmup and --valid-translation-output;
// nmt-decode's --length-penalty, --max-length-ratio, --replace-unk and ensembles of
// different models; nmt-bleu's --paired-ar and the SACREBLEU_SEED variable.
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <cmath>
#include <regex>
#include <sstream>

#include "support/golden_cases.h"
#include "support/reversal_model.h"
#include "support/run_process.h"
#include "support/text_lines.h"
#include "support/temp_dir.h"

namespace rt = rnnsearch::testing;
using rt::lines_of;

namespace {

int words_in(const std::string& line) {
  std::istringstream in(line);
  int n = 0;
  for (std::string w; in >> w;) ++n;
  return n;
}

// A tiny copy task for nmt-train runs that only need to start, validate and stop.
struct TinyTask {
  rt::TempDir dir;
  std::string source = dir.write("train.src", "a b\nb c\nc a\na c\nb a\nc b\n");
  std::string target = dir.write("train.tgt", "a b\nb c\nc a\na c\nb a\nc b\n");
  std::string model = (dir.path() / "model.bin").string();

  rt::ProcessResult train(const std::vector<std::string>& args) const {
    std::vector<std::string> argv = {rt::tool_path("nmt-train"), "-t", source, target, "-m", model,
                                     "--dim-emb", "4", "--dim-enc", "4", "--dim-dec", "4", "--dim-att", "4",
                                     "--dim-maxout", "4", "--mini-batch", "2", "--overwrite"};
    argv.insert(argv.end(), args.begin(), args.end());
    return rt::run_process(argv, dir.path().string());
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(options_cli)

BOOST_AUTO_TEST_CASE(early_stopping_ends_training_after_patience_stalled_validations) {
  // A learning rate of 0 never improves the validation cross-entropy: validation 1 sets
  // the best, validations 2 and 3 stall, and --early-stopping 2 ends the run at update 3.
  TinyTask t;
  const auto r = t.train({"--valid-sets", t.source, t.target, "--valid-freq", "1", "--early-stopping", "2",
                          "--early-stopping-metric", "cross-entropy", "-l", "0", "--max-updates", "1000"});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  BOOST_TEST(r.err.find("early stopping: 2 validations without improvement") != std::string::npos, r.err);
  BOOST_TEST(std::regex_search(r.err, std::regex("after update 3\\b|update 3[^0-9]")), r.err);
}

BOOST_AUTO_TEST_CASE(max_minutes_ends_a_run_that_would_go_on) {
  TinyTask t;
  const auto start = std::chrono::steady_clock::now();
  const auto r = t.train({"--max-minutes", "0.02", "--max-updates", "100000000"});  // 1.2 s
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  BOOST_TEST(r.err.find("--max-minutes 0.0") != std::string::npos, r.err);
  BOOST_TEST(seconds < 60.0);  // a hundred million updates would take hours
}

BOOST_AUTO_TEST_CASE(warmup_raises_the_learning_rate_linearly) {
  // Progress lines (stderr is a pipe: one per --log-freq updates) print the rate used.
  TinyTask t;
  const auto r = t.train({"--warmup", "4", "-l", "0.01", "--max-updates", "6", "--log-freq", "1"});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  std::vector<double> rates;
  const std::regex lr("\\| lr ([0-9.e-]+) \\|");
  for (std::sregex_iterator it(r.err.begin(), r.err.end(), lr), end; it != end; ++it) rates.push_back(std::stod((*it)[1]));
  // The line after update u gives the rate of update u + 1: 0.01 (u + 1) / 4, then 0.01.
  BOOST_TEST((rates == std::vector<double>{0.005, 0.0075, 0.01, 0.01, 0.01, 0.01}), r.err);
}

BOOST_AUTO_TEST_CASE(progress_lines_give_the_eta_to_the_end_of_the_run) {
  // 6 pairs in batches of 2: 3 updates an epoch. With --max-epochs 4 the run ends at update
  // 12, so the run ETA falls to 0:00:00 by then, while the epoch ETA restarts every epoch;
  // the nearer limit wins (--max-updates 5 is before the end of epoch 4).
  TinyTask t;
  const std::regex eta("update (\\d+) .*\\| epoch ETA \\d+:\\d\\d:\\d\\d \\| run ETA (\\d+):(\\d\\d):(\\d\\d)");
  for (const std::string updates : {"0", "5"}) {
    const auto r = t.train({"--max-epochs", "4", "--max-updates", updates, "--log-freq", "1", "--no-shuffle"});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    long last_update = 0, lines = 0;
    double last_left = -1;
    for (const auto& line : lines_of(r.err)) {
      std::smatch m;
      if (!std::regex_search(line, m, eta)) continue;
      ++lines;
      last_update = std::stol(m[1]);
      last_left = std::stod(m[2]) * 3600 + std::stod(m[3]) * 60 + std::stod(m[4]);
    }
    BOOST_TEST(lines == (updates == "0" ? 12 : 5), r.err);
    BOOST_TEST(last_update == lines, r.err);
    BOOST_TEST(last_left == 0.0, r.err);  // the tiny run is over in well under a second
  }
  // Early stopping alone gives no end to estimate: the line has the epoch ETA only.
  const auto r = t.train({"--valid-sets", t.source, t.target, "--valid-freq", "1", "--early-stopping", "1",
                          "--early-stopping-metric", "cross-entropy", "-l", "0", "--log-freq", "1"});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  BOOST_TEST(r.err.find("epoch ETA") != std::string::npos, r.err);
  BOOST_TEST(r.err.find("run ETA") == std::string::npos, r.err);
}

BOOST_AUTO_TEST_CASE(the_last_line_counts_the_target_tokens_seen) {
  // Four whole epochs see the corpus's target tokens (</s> included, as the data line
  // counts them) four times; the figure the pipelines report as "target tokens seen".
  TinyTask t;
  const auto r = t.train({"--max-epochs", "4"});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  std::smatch data, ended;
  BOOST_TEST_REQUIRE(std::regex_search(r.err, data, std::regex("data: .* (\\d+) target tokens")), r.err);
  BOOST_TEST_REQUIRE(std::regex_search(r.err, ended, std::regex("training ended at update 12 .* minutes, (\\d+) target "
                                                                "tokens seen")), r.err);
  BOOST_TEST(std::stol(ended[1]) == 4 * std::stol(data[1]), r.err);
}

BOOST_AUTO_TEST_CASE(valid_translation_output_writes_one_line_per_validation_sentence) {
  TinyTask t;
  const std::string out = (t.dir.path() / "valid.out").string();
  const auto r = t.train({"--valid-sets", t.source, t.target, "--valid-freq", "2", "--max-updates", "4",
                          "--valid-translation-output", out, "--quiet"});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  const auto lines = lines_of(rt::read_file(out));
  BOOST_TEST(lines.size() == 6u);
  for (const auto& line : lines) BOOST_TEST(line.find("@@") == std::string::npos, line);
}

BOOST_AUTO_TEST_CASE(length_penalty_divides_the_log_probability_by_length_to_the_alpha) {
  // n-best lines: "N ||| words ||| F0= log p ||| score", score = log p / (words + 1)^alpha.
  rt::ReversalModel m;
  for (const std::string alpha : {"0", "0.5", "1", "2"}) {
    const auto r = m.decode({"-b", "4", "--n-best", "4", "--length-penalty", alpha}, "w1 w2 w3\nw4 w5 w6 w7 w8\n");
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    const std::regex line("^\\d+ \\|\\|\\| (.*) \\|\\|\\| F0= (\\S+) \\|\\|\\| (\\S+)$");
    int checked = 0;
    for (const auto& text : lines_of(r.out)) {
      std::smatch m_;
      BOOST_TEST_REQUIRE(std::regex_match(text, m_, line), text);
      const double log_p = std::stod(m_[2]), score = std::stod(m_[3]);
      const double expected = log_p / std::pow(words_in(m_[1]) + 1.0, std::stod(alpha));
      BOOST_TEST(std::fabs(score - expected) < 1e-3 * std::max(1.0, std::fabs(expected)), text << ", alpha " << alpha);
      ++checked;
    }
    BOOST_TEST(checked == 8);
  }
}

BOOST_AUTO_TEST_CASE(max_length_ratio_bounds_the_translation_length) {
  // At most ratio x source tokens + 10 target tokens. A model after one update hardly
  // ever ends a sentence, so its translations run to the bound: exactly there, never past.
  TinyTask t;
  const auto trained = rt::run_process({rt::tool_path("nmt-train"), "-t", t.source, t.target, "-m", t.model, "--dim-emb",
                                        "8", "--dim-enc", "8", "--dim-dec", "8", "--dim-att", "8", "--dim-maxout", "8",
                                        "--max-updates", "1", "--quiet"});
  BOOST_TEST_REQUIRE(trained.exit_code == 0, trained.err);
  const std::vector<int> lengths = {3, 8, 40};
  std::string input;
  for (const int n : lengths) {
    for (int k = 0; k < n; ++k) input += std::string(k ? " " : "") + "abc"[k % 3];
    input += "\n";
  }
  for (const double ratio : {2.0, 1.0, 0.1}) {
    const auto r = rt::run_process({rt::tool_path("nmt-decode"), "-m", t.model, "-q", "--max-length-ratio",
                                    std::to_string(ratio)}, "", input);
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    const auto lines = lines_of(r.out);
    BOOST_TEST_REQUIRE(lines.size() == lengths.size());
    int at_bound = 0;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      const int bound = static_cast<int>(ratio * lengths[i]) + 10;
      BOOST_TEST(words_in(lines[i]) <= bound, "ratio " << ratio << ": " << lines[i]);
      at_bound += words_in(lines[i]) == bound ? 1 : 0;
    }
    BOOST_TEST(at_bound >= 2, "ratio " << ratio << ": " << r.out);
  }
}

BOOST_AUTO_TEST_CASE(replace_unk_copies_the_most_attended_source_word) {
  // The target vocabulary lacks w9, so the model learns to write <unk> where a reversed
  // w9 belongs; --replace-unk puts back the source word its attention points at.
  rt::TempDir vocabs;
  std::string all, without_w9;
  for (int w = 0; w < 10; ++w) {
    all += "w" + std::to_string(w) + " 100\n";
    if (w != 9) without_w9 += "w" + std::to_string(w) + " 100\n";
  }
  const auto source_vocab = vocabs.write("vocab.src", all), target_vocab = vocabs.write("vocab.tgt", without_w9);
  rt::ReversalModel m("", {"-v", source_vocab, target_vocab, "--allow-unk"});
  const std::string input = "w1 w9 w3\nw9 w4 w5 w6\n";
  const auto plain = m.decode({}, input);
  BOOST_TEST_REQUIRE(plain.exit_code == 0, plain.err);
  BOOST_TEST((lines_of(plain.out) == std::vector<std::string>{"w3 <unk> w1", "w6 w5 w4 <unk>"}), plain.out);
  const auto replaced = m.decode({"--replace-unk"}, input);
  BOOST_TEST_REQUIRE(replaced.exit_code == 0, replaced.err);
  BOOST_TEST((lines_of(replaced.out) == std::vector<std::string>{"w3 w9 w1", "w6 w5 w4 w9"}), replaced.out);
}

BOOST_AUTO_TEST_CASE(an_ensemble_averages_its_members_not_uses_one) {
  // Two models trained from other seeds: their ensemble's n-best scores are neither
  // member's, and the same whichever member is named first (a mean is symmetric, to the bit).
  rt::ReversalModel a, b("", {"--seed", "9"});
  const std::string input = "w1 w2 w3\nw4 w5 w6 w7\nw8 w9 w0\n";
  const auto decode = [&](const std::vector<std::string>& models) {
    std::vector<std::string> argv = {rt::tool_path("nmt-decode")};
    for (const auto& m : models) argv.insert(argv.end(), {"-m", m});
    argv.insert(argv.end(), {"-b", "3", "--n-best", "3", "-q"});
    const auto r = rt::run_process(argv, "", input);
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
    return r.out;
  };
  const std::string ab = decode({a.model, b.model});
  BOOST_TEST(ab == decode({b.model, a.model}));
  BOOST_TEST(ab != decode({a.model}));
  BOOST_TEST(ab != decode({b.model}));
  BOOST_TEST(decode({a.model}) != decode({b.model}));
}

BOOST_AUTO_TEST_CASE(paired_ar_and_sacrebleu_seed) {
  rt::TempDir d;
  std::string ref, base, other;
  for (int i = 0; i < 60; ++i) {
    const std::string n = std::to_string(i);
    ref += "the cat " + n + " sat on the mat\n";
    base += (i % 3 ? "the cat " + n + " sat on the mat\n" : "a dog " + n + " sat on a mat\n");
    other += (i % 2 ? "the cat " + n + " sat on the mat\n" : "a dog " + n + " lay there\n");
  }
  const auto r = d.write("ref", ref), b = d.write("base", base), o = d.write("other", other);
  const auto bleu = [&](const std::vector<std::string>& args, const std::vector<std::string>& env) {
    std::vector<std::string> argv = {"/usr/bin/env"};  // sets `env` for nmt-bleu alone
    argv.insert(argv.end(), env.begin(), env.end());
    argv.insert(argv.end(), {rt::tool_path("nmt-bleu"), r, "-i", b, o, "-f", "text"});
    argv.insert(argv.end(), args.begin(), args.end());
    return rt::run_process(argv, "", "", {"SACREBLEU_FORMAT", "SACREBLEU_SEED"});
  };
  const auto ar = bleu({"--paired-ar", "--paired-ar-n", "200"}, {});
  BOOST_TEST_REQUIRE(ar.exit_code == 0, ar.err);
  BOOST_TEST(ar.out.find("ar:200|seed:12345|") != std::string::npos, ar.out);
  BOOST_TEST(std::regex_search(ar.out, std::regex("\\(p = 0\\.[0-9]+\\)")), ar.out);
  // SACREBLEU_SEED picks the seed (signature and resamples); --seed overrides it.
  const auto seeded = bleu({"--paired-bs", "--paired-bs-n", "100"}, {"SACREBLEU_SEED=7"});
  BOOST_TEST_REQUIRE(seeded.exit_code == 0, seeded.err);
  BOOST_TEST(seeded.out.find("|seed:7|") != std::string::npos, seeded.out);
  BOOST_TEST(bleu({"--paired-bs", "--paired-bs-n", "100", "--seed", "7"}, {}).out == seeded.out);
  BOOST_TEST(bleu({"--paired-bs", "--paired-bs-n", "100"}, {"SACREBLEU_SEED=8"}).out != seeded.out);
  const auto none = bleu({"--paired-bs", "--paired-bs-n", "100"}, {"SACREBLEU_SEED=none"});
  BOOST_TEST(none.exit_code == 0, none.err);
  BOOST_TEST(none.out.find("|seed:none|") != std::string::npos, none.out);
}

BOOST_AUTO_TEST_SUITE_END()
