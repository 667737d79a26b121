// nmt-decode as users run it: a model trained by nmt-train on a reversal task, one output
// line per input line (empty lines kept), Moses n-best lines whose scores rank, hard
// alignments, an answer while stdin stays open, every attention form through its model
// file, and clear errors (alignments of a model without attention among them).
#include <boost/test/unit_test.hpp>

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <sstream>

#include "math/cpu_isa.h"
#include "math/precision.h"
#include "model/model_file.h"
#include "support/end_warnings.h"
#include "support/reversal_model.h"
#include "support/run_process.h"
#include "support/text_lines.h"
#include "support/temp_dir.h"
#include "util/rng.h"

namespace rt = rnnsearch::testing;
using rt::lines_of;

namespace {

}  // namespace

BOOST_AUTO_TEST_SUITE(decode_cli)

BOOST_AUTO_TEST_CASE(translates_one_line_per_line_and_keeps_empty_lines) {
  rt::ReversalModel m;
  const auto r = m.decode({}, "w1 w2 w3\n\nw4 w5 w6 w7\n");
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  BOOST_TEST((lines_of(r.out) == std::vector<std::string>{"w3 w2 w1", "", "w7 w6 w5 w4"}));
  // Greedy, one sentence at a time, and two threads give the same lines.
  BOOST_TEST(m.decode({"-b", "1"}, "w1 w2 w3\n\nw4 w5 w6 w7\n").out == r.out);
  BOOST_TEST(m.decode({"--mini-batch", "1", "--threads", "2"}, "w1 w2 w3\n\nw4 w5 w6 w7\n").out == r.out);
}

BOOST_AUTO_TEST_CASE(n_best_lines_follow_moses_format_best_first) {
  rt::ReversalModel m;
  const auto r = m.decode({"-b", "4", "--n-best", "3"}, "w1 w2 w3\nw8 w9 w0 w1\n");
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  const auto lines = lines_of(r.out);
  BOOST_TEST_REQUIRE(lines.size() == 6u);
  double previous = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::istringstream fields(lines[i]);
    std::string id, bar;
    fields >> id >> bar;
    BOOST_TEST(id == std::to_string(i / 3));
    const auto f0 = lines[i].find(" ||| F0= ");
    BOOST_TEST_REQUIRE(f0 != std::string::npos);
    const double score = std::stod(lines[i].substr(lines[i].rfind(" ||| ") + 5));
    if (i % 3 != 0) BOOST_TEST(score <= previous);
    previous = score;
  }
  BOOST_TEST(lines[0] .find("0 ||| w3 w2 w1 ||| F0= ") == 0u);
}

BOOST_AUTO_TEST_CASE(hard_alignments_link_mirrored_positions) {
  rt::ReversalModel m;
  const auto r = m.decode({"--alignment", "hard"}, "w1 w2 w3 w4\n");
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  BOOST_TEST(r.out == "w4 w3 w2 w1 ||| 0-3 1-2 2-1 3-0\n");
  const auto soft = m.decode({"--alignment", "soft"}, "w1 w2\n");
  BOOST_TEST(soft.out.find(" ||| ") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(answers_while_stdin_stays_open) {
  rt::ReversalModel m;
  int in_pipe[2], out_pipe[2];
  BOOST_TEST_REQUIRE(pipe(in_pipe) == 0);
  BOOST_TEST_REQUIRE(pipe(out_pipe) == 0);
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(in_pipe[0], 0);
    dup2(out_pipe[1], 1);
    for (int fd : {in_pipe[0], in_pipe[1], out_pipe[0], out_pipe[1]}) close(fd);
    rt::exec_child({rt::tool_path("nmt-decode"), "-m", m.model});
  }
  close(in_pipe[0]);
  close(out_pipe[1]);
  const std::string line = "w5 w6 w7\n";
  BOOST_TEST_REQUIRE(write(in_pipe[1], line.data(), line.size()) == static_cast<ssize_t>(line.size()));
  // stdin stays open: the answer must come anyway.
  std::string answer;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (answer.find('\n') == std::string::npos && std::chrono::steady_clock::now() < deadline) {
    pollfd fd{out_pipe[0], POLLIN, 0};
    if (poll(&fd, 1, 100) <= 0) continue;
    char buffer[256];
    const ssize_t n = read(out_pipe[0], buffer, sizeof(buffer));
    if (n <= 0) break;
    answer.append(buffer, static_cast<std::size_t>(n));
  }
  BOOST_TEST(answer == "w7 w6 w5\n");
  close(in_pipe[1]);
  int status = 0;
  waitpid(pid, &status, 0);
  BOOST_TEST(WIFEXITED(status));
  BOOST_TEST(WEXITSTATUS(status) == 0);
  close(out_pipe[0]);
}

BOOST_AUTO_TEST_CASE(long_lines_are_truncated_with_a_warning_naming_the_line) {
  rt::ReversalModel m;
  const auto r = m.decode({"--max-length", "3"}, "w1 w2\nw1 w2 w3 w4 w5\n");
  BOOST_TEST(r.exit_code == 0);
  BOOST_TEST(lines_of(r.out).size() == 2u);
  BOOST_TEST(r.err.find("nmt-decode: warning: <stdin>:2: 5 tokens, translated after truncation to the first 3") == 0u,
             r.err);
}

BOOST_AUTO_TEST_CASE(truncated_sources_are_counted_in_one_warning_that_quiet_keeps) {
  rt::ReversalModel m;
  const std::string input = "w1 w2\nw1 w2 w3 w4 w5\nw6 w7 w8 w9\n";
  const std::string warning =
      "nmt-decode: warning: 2 of 3 source lines in <stdin> had more than --max-length 3 tokens and were translated "
      "truncated to their first 3 (the first: line 2); --max-length 0 translates whole lines";
  const auto r = rt::check_end_warning({rt::tool_path("nmt-decode"), "-m", m.model}, input, warning,
                                       {"--max-length", "3"}, {"--max-length", "0"}).plain;
  BOOST_TEST(r.err.find("<stdin>:3: 4 tokens") != std::string::npos, r.err);  // the notes come first
  BOOST_TEST(r.err.rfind(warning) > r.err.find("<stdin>:3: 4 tokens"));
  const auto quiet = m.decode({"--max-length", "3", "-q"}, input);
  BOOST_TEST(quiet.err == warning + "\n");  // -q drops the notes, not the warning
}

// Long sources and a limit of 10 tokens (ratio 0.01): the warning counts the translations
// that reached it before </s>, those whose word scores (--word-scores) have no score for </s>.
// The model has had two updates: it has not learnt to end a sentence, so most of its
// translations reach the limit (a trained one may end every one in time).
BOOST_AUTO_TEST_CASE(translations_cut_at_the_length_limit_are_counted_in_one_warning) {
  rt::TempDir dir;
  const rt::ReversalModel reversal;
  const std::string train = reversal.dir.path().string() + "/train.", model = dir.path().string() + "/two.bin";
  const auto trained =
      rt::run_process({rt::tool_path("nmt-train"), "-t", train + "src", train + "tgt", "-m", model, "--dim-emb", "8",
                       "--dim-enc", "8", "--dim-dec", "8", "--dim-att", "8", "--dim-maxout", "8", "--max-updates", "2",
                       "--quiet"});
  BOOST_TEST_REQUIRE(trained.exit_code == 0, trained.err);
  rnnsearch::util::Rng rng(11);
  std::string input;
  for (int i = 0; i < 20; ++i) {
    const int length = 20 + static_cast<int>(rng.below(40));
    for (int k = 0; k < length; ++k) input += (k ? " w" : "w") + std::to_string(rng.below(10));
    input += '\n';
  }
  const auto scored = rt::run_process({rt::tool_path("nmt-decode"), "-m", model, "--n-best", "1", "--word-scores",
                                       "--max-length-ratio", "0.01"},
                                      "", input);
  BOOST_TEST_REQUIRE(scored.exit_code == 0, scored.err);
  std::size_t cut = 0;
  for (const auto& line : lines_of(scored.out)) {
    std::vector<std::string> fields;  // N, translation, features, score
    for (std::size_t from = 0, bar; from != std::string::npos; from = bar == std::string::npos ? bar : bar + 5) {
      bar = line.find(" ||| ", from);
      fields.push_back(line.substr(from, bar - from));
    }
    BOOST_TEST_REQUIRE(fields.size() == 4u, line);
    const auto words = std::count(fields[1].begin(), fields[1].end(), ' ') + 1;
    const auto scores = std::count(fields[2].begin(), fields[2].end(), ' ') - 2;  // after "F0= x WordScores="
    cut += scores == words ? 1 : 0;
  }
  BOOST_TEST_REQUIRE(cut > 0u);
  const std::string warning = "nmt-decode: warning: " + std::to_string(cut) +
                              " of 20 translations of <stdin> stopped at the length limit, --max-length-ratio 0.01 x "
                              "source length + 10 tokens, before </s>; a larger --max-length-ratio lets them finish";
  rt::check_end_warning({rt::tool_path("nmt-decode"), "-m", model}, input, warning, {"--max-length-ratio", "0.01"},
                        {"--max-length-ratio", "100"});
}

BOOST_AUTO_TEST_CASE(a_share_of_unknown_tokens_over_the_threshold_is_one_warning_at_the_end) {
  rt::ReversalModel m;
  // 3 of 6 source tokens are not in the model's vocabulary (w0..w9).
  const std::string input = "w1 w2 Hello\n\nworld w3 !\n";
  const std::string warning =
      "nmt-decode: warning: 3 of 6 source tokens (50.0%) in <stdin> are unknown to the model; is the text tokenized, "
      "BPE'd with the model's codes, and in the model's source language?";
  const auto r = rt::check_end_warning({rt::tool_path("nmt-decode"), "-m", m.model}, input, warning, {},
                                       {"--unknown-warning", "1"});
  BOOST_TEST(r.silent.out == r.plain.out);
  BOOST_TEST(r.silent.err.empty(), r.silent.err);
  BOOST_TEST(rt::count_lines_equal(m.decode({"--unknown-warning", "0.49"}, input).err, warning) == 1u);
  BOOST_TEST(m.decode({"--unknown-warning", "0.5"}, input).err.empty());  // more than the share, not as much
  // Clean input, and 1 unknown token in 10 (not more than the default 10%): no word.
  const auto clean = m.decode({}, "w1 w2 w3\nw4 w5 w6 w7 w8 w9 w0\n");
  BOOST_TEST(clean.err.empty(), clean.err);
  BOOST_TEST(m.decode({}, "w1 w2 w3\nw4 w5 w6 w7 w8 w9 x\n").err.empty());
  const auto bad = m.decode({"--unknown-warning", "1.5"}, input);
  BOOST_TEST(bad.exit_code == 2);
  BOOST_TEST(bad.err.find("nmt-decode: --unknown-warning must be in [0, 1], got 1.5") == 0u, bad.err);
}

BOOST_AUTO_TEST_CASE(an_ensemble_of_a_model_with_itself_translates_as_the_model) {
  rt::ReversalModel m;
  const std::string input = "w1 w2 w3\nw9 w8 w0 w4 w4\n\n";
  const auto alone = m.decode({"--n-best", "2"}, input);
  const auto ensemble = m.decode({"-m", m.model, "--n-best", "2"}, input);  // -m MODEL -m MODEL
  BOOST_TEST_REQUIRE(ensemble.exit_code == 0, ensemble.err);
  BOOST_TEST(ensemble.out == alone.out);
}

BOOST_AUTO_TEST_CASE(an_ensemble_needs_one_target_vocabulary) {
  rt::ReversalModel m;
  const auto src = m.dir.write("other.src", "w1 w2\nw3 w4\n"), tgt = m.dir.write("other.tgt", "x1 x2\nx3 x4\n");
  const auto other = (m.dir.path() / "other.bin").string();
  BOOST_TEST_REQUIRE(rt::run_process({rt::tool_path("nmt-train"), "-t", src, tgt, "-m", other, "--dim-emb", "8",
                                      "--dim-enc", "8", "--dim-dec", "8", "--dim-att", "8", "--dim-maxout", "8",
                                      "--max-updates", "1", "--quiet"})
                         .exit_code == 0);
  const auto r = m.decode({"-m", other}, "w1 w2\n");
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(r.err.find("nmt-decode: " + other + ": its target vocabulary") == 0u, r.err);
  BOOST_TEST(r.out.empty());
}

BOOST_AUTO_TEST_CASE(each_attention_form_trains_saves_loads_and_decodes) {
  // nmt-train --attention F writes F into the model file; nmt-decode builds the model from
  // the file with no option, and translates 50 held-out reversals.
  const auto held_out = rt::held_out_reversals(50, 99);
  const std::string& input = held_out.source;
  const std::string& expected = held_out.reversed;
  for (const std::string form : {"additive", "general", "dot", "none"}) {
    BOOST_TEST_CONTEXT(form) {
      rt::ReversalModel m(form);
      BOOST_TEST(m.log.find(", att " + form) != std::string::npos, m.log);  // the log's "model:" line
      const auto loaded = rnnsearch::model::read_model_file(m.model);
      BOOST_TEST(rnnsearch::nn::attention_form_name(loaded.model->config().attention_form) == form);
      const auto r = m.decode({}, input);
      BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
      const auto got = lines_of(r.out), want = lines_of(expected);
      BOOST_TEST_REQUIRE(got.size() == want.size());
      std::size_t right = 0;
      for (std::size_t i = 0; i < got.size(); ++i) right += got[i] == want[i] ? 1 : 0;
      BOOST_TEST_MESSAGE(form << ": " << right << " of 50 reversed exactly");
      // With attention the task is solved; the fixed context of none gets most of these short ones.
      BOOST_TEST(right >= (form == "none" ? 25u : 48u), right << " of 50");
    }
  }
}

BOOST_AUTO_TEST_CASE(a_model_without_attention_refuses_alignment_and_replace_unk) {
  rt::ReversalModel m("none");
  const std::string prefix =
      "nmt-decode: " + m.model + ": trained with --attention none, the model has no attention weights for ";
  auto r = m.decode({"--alignment", "hard"}, "w1 w2 w3\n");
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(r.out.empty());
  BOOST_TEST(r.err == prefix + "--alignment\n");
  r = m.decode({"--replace-unk"}, "w1 w2 w3\n");
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(r.err == prefix + "--replace-unk\n");
  // In an ensemble too, whichever member lacks it.
  rt::ReversalModel additive;
  r = additive.decode({"-m", m.model, "--alignment", "soft"}, "w1 w2 w3\n");
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(r.err == prefix + "--alignment\n");
  // Without those options, it translates, alone or in an ensemble.
  BOOST_TEST(m.decode({}, "w1 w2 w3\n").exit_code == 0);
  BOOST_TEST(additive.decode({"-m", m.model}, "w1 w2 w3\n").exit_code == 0);
}

BOOST_AUTO_TEST_CASE(precision_int8_translates_the_same_in_any_batch_or_thread_and_bf16_needs_its_cpu) {
  rt::ReversalModel m;
  const std::string input = "w1 w2 w3\n\nw4 w5 w6 w7\nw2 w2 w9\n";
  const auto r = m.decode({"--precision", "int8", "--n-best", "2", "-b", "2"}, input);
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  BOOST_TEST(lines_of(r.out).size() >= 6u);
  BOOST_TEST(m.decode({"--precision", "int8", "--n-best", "2", "-b", "2", "--mini-batch", "1", "--threads", "2"}, input)
                 .out == r.out);
  const auto bf16 = m.decode({"--precision", "bf16"}, input);
  if (rnnsearch::math::precision_supported(rnnsearch::math::Precision::kBf16)) {
    BOOST_TEST(bf16.exit_code == 0, bf16.err);
  } else {
    BOOST_TEST(bf16.exit_code == 2);
    BOOST_TEST(bf16.err.find("nmt-decode: --precision bf16: this CPU has no bf16 instructions (avx512_bf16)") == 0u,
               bf16.err);
  }
  const auto bad = m.decode({"--precision", "fp16"}, input);
  BOOST_TEST(bad.exit_code == 2);
  BOOST_TEST(bad.err.find("--precision must be fp32, int8, bf16 or auto, got 'fp16'") != std::string::npos, bad.err);
}

// --help says what -q keeps: the warnings (unknown words, lines cut at the length limit).
BOOST_AUTO_TEST_CASE(help_says_quiet_keeps_the_warnings) {
  const auto help = rt::run_process({rt::tool_path("nmt-decode"), "--help"});
  BOOST_TEST(help.exit_code == 0);
  const auto quiet = help.out.find("print no progress lines or notes on stderr");  // then wrapped
  BOOST_TEST_REQUIRE(quiet != std::string::npos, help.out);
  BOOST_TEST(help.out.find("(warnings and errors still)", quiet) < help.out.find("--config", quiet), help.out);
}

// bf16 where the kernels are held below it: nmt-decode and nmt-train both exit 2, and say
// that RNNSEARCH_CPU_ISA holds them (when the CPU has AVX512_BF16) or that it has none.
BOOST_AUTO_TEST_CASE(bf16_below_its_level_is_the_same_usage_error_in_decode_and_train) {
  rt::ReversalModel m;
  const std::string reason = rnnsearch::math::detected_cpu_isa() >= rnnsearch::math::CpuIsa::kAvx512Bf16
                                 ? "RNNSEARCH_CPU_ISA holds the kernels at avx2, below avx512-bf16, which this CPU has"
                                 : "this CPU has no bf16 instructions (avx512_bf16)";
  const std::string text = m.dir.write("text", "w1 w2 w3\nw4 w5 w6\n");
  const auto decode = rt::run_process({"/usr/bin/env", "RNNSEARCH_CPU_ISA=avx2", rt::tool_path("nmt-decode"), "-m",
                                       m.model, "--precision", "bf16", "-i", text});
  BOOST_TEST(decode.exit_code == 2);
  BOOST_TEST(decode.err.find("nmt-decode: --precision bf16: " + reason + "\n") == 0u, decode.err);
  const auto train = rt::run_process({"/usr/bin/env", "RNNSEARCH_CPU_ISA=avx2", rt::tool_path("nmt-train"), "-t", text,
                                      text, "-m", (m.dir.path() / "bf16.bin").string(), "--precision", "bf16",
                                      "--max-updates", "1"});
  BOOST_TEST(train.exit_code == 2);
  BOOST_TEST(train.err.find("nmt-train: --precision bf16: " + reason + "; use fp32\n") == 0u, train.err);
}

BOOST_AUTO_TEST_CASE(bad_models_and_options_are_clear_errors) {
  rt::ReversalModel m;
  const auto not_model = m.dir.write("not-a-model", "hello\n");
  const auto r = rt::run_process({rt::tool_path("nmt-decode"), "-m", not_model}, "", "w1\n");
  BOOST_TEST(r.exit_code == 1);
  BOOST_TEST(r.err.find("nmt-decode: " + not_model + ": not an rnnsearch model file") == 0u, r.err);
  BOOST_TEST(m.decode({"-b", "2", "--n-best", "3"}, "w1\n").exit_code == 2);
  BOOST_TEST(m.decode({"--alignment", "fuzzy"}, "w1\n").exit_code == 2);
  BOOST_TEST(rt::run_process({rt::tool_path("nmt-decode")}, "", "w1\n").exit_code == 2);
}

BOOST_AUTO_TEST_SUITE_END()
