// nmt-align hmm as users run it: a model trained once with --save-params aligns the same
// pairs again with --load-params (any --links); usage errors exit 2, bad input (an empty
// line, an ibm2 table given as parameters) exits 1 naming the file and line; and no output
// file is left behind by a run that fails.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <filesystem>

#include "support/golden_cases.h"
#include "support/run_process.h"
#include "support/temp_dir.h"

namespace rt = rnnsearch::testing;
namespace fs = std::filesystem;

namespace {

rt::ProcessResult hmm(std::vector<std::string> args) {
  args.insert(args.begin(), {rt::tool_path("nmt-align"), "hmm"});
  return rt::run_process(args);
}

// 60 pairs of three phrases "the aK nK" / "le NK AK": adjective and noun swapped.
struct Corpus {
  rt::TempDir dir;
  std::string source, target;
  Corpus() {
    std::string s, t;
    for (int k = 0; k < 60; ++k) {
      s += "the a" + std::to_string(k % 5) + " n" + std::to_string(k % 7) + "\n";
      t += "le N" + std::to_string(k % 7) + " A" + std::to_string(k % 5) + "\n";
    }
    source = dir.write("s", s);
    target = dir.write("t", t);
  }
  std::string path(const std::string& name) const { return (dir.path() / name).string(); }
};

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

}  // namespace

BOOST_AUTO_TEST_SUITE(align_hmm_cli)

BOOST_AUTO_TEST_CASE(saved_params_give_the_trained_links_in_every_direction) {
  const Corpus c;
  const std::string params = c.path("params");
  for (const std::string links : {"forward", "reverse", "agreed"}) {
    const auto trained = hmm({"-s", c.source, "-t", c.target, "--links", links, "-q"});
    BOOST_TEST_REQUIRE(trained.exit_code == 0, trained.err);
    BOOST_TEST(first_line(trained.out) == "0-0 1-2 2-1", links);
    if (links == "forward") {
      const auto saved = hmm({"-s", c.source, "-t", c.target, "--save-params", params, "-o", c.path("fwd"), "-q"});
      BOOST_TEST_REQUIRE(saved.exit_code == 0, saved.err);
      BOOST_TEST(fs::exists(params));
    }
    for (const std::string decode : {"posterior", "viterbi"}) {
      const auto again = hmm({"-s", c.source, "-t", c.target, "--links", links, "--decode", decode, "-q"});
      const auto loaded =
          hmm({"-s", c.source, "-t", c.target, "--links", links, "--decode", decode, "--load-params", params, "-q"});
      BOOST_TEST_REQUIRE(loaded.exit_code == 0, loaded.err);
      BOOST_TEST((loaded.out == again.out), links << " " << decode);
    }
  }
  // Without -q, one note per EM iteration on stderr.
  const auto noted = hmm({"-s", c.source, "-t", c.target, "--model1-iterations", "2", "--hmm-iterations", "1"});
  BOOST_TEST_REQUIRE(noted.exit_code == 0, noted.err);
  BOOST_TEST(noted.err.find("nmt-align hmm: model1 iteration 2: log-likelihood forward ") != std::string::npos, noted.err);
  BOOST_TEST(noted.err.find("nmt-align hmm: hmm iteration 3: log-likelihood forward ") != std::string::npos, noted.err);
  BOOST_TEST(noted.err.find("iteration 4") == std::string::npos, noted.err);
}

// Rare long words are trained as their stems: the saved parameters keep the rule (version 4)
// and name the stems, not the words; loaded, they read the training pairs as training did
// (the same links) and an unseen word as its stem (the links of the word it stands in for).
// --stem-below at most the words' counts, or --stem-length 0, keeps the words whole.
BOOST_AUTO_TEST_CASE(rare_words_align_by_their_stems_and_saved_params_replay_the_rule) {
  rt::TempDir dir;
  std::string s, t;
  for (int k = 0; k < 60; ++k) {  // nouns nKxxL and NKyyL, each seen 4 or 5 times
    const std::string noun = std::to_string(k % 7), ending = std::to_string(k % 2);
    s += "the a" + std::to_string(k % 5) + " n" + noun + "xx" + ending + "\n";
    t += "le N" + noun + "yy" + ending + " A" + std::to_string(k % 5) + "\n";
  }
  const std::string source = dir.write("s", s), target = dir.write("t", t);
  const std::string params = (dir.path() / "params").string();
  const std::string whole = (dir.path() / "whole").string();
  for (const auto& [options, path] : {std::pair{std::vector<std::string>{}, params},
                                      {std::vector<std::string>{"--stem-below", "4"}, whole}}) {
    std::vector<std::string> args = {"-s", source, "-t", target, "--links", "agreed", "--save-params", path, "-q"};
    args.insert(args.end(), options.begin(), options.end());
    const auto trained = hmm(args);
    BOOST_TEST_REQUIRE(trained.exit_code == 0, trained.err);
    BOOST_TEST(first_line(trained.out) == "0-0 1-2 2-1");
    const auto loaded = hmm({"-s", source, "-t", target, "--links", "agreed", "--load-params", path, "-q"});
    BOOST_TEST_REQUIRE(loaded.exit_code == 0, loaded.err);
    BOOST_TEST((loaded.out == trained.out), path);
  }
  const std::string saved = rt::read_file(params);
  BOOST_TEST(first_line(saved) == "nmt-hmm-params 4 model=hmm jump-width=7 boundary-jumps stem-length=4 stem-below=50");
  BOOST_TEST(saved.find("\tn3xx\tN3yy\t") != std::string::npos);
  BOOST_TEST(saved.find("n3xx1") == std::string::npos);
  const std::string kept = rt::read_file(whole);
  BOOST_TEST(first_line(kept) == "nmt-hmm-params 4 model=hmm jump-width=7 boundary-jumps stem-length=4 stem-below=4");
  BOOST_TEST(kept.find("\tn3xx1\tN3yy1\t") != std::string::npos);
  BOOST_TEST(kept.find("\tn3xx\t") == std::string::npos);
  const auto off = hmm({"-s", source, "-t", target, "--stem-length", "0", "--save-params", whole, "-q"});
  BOOST_TEST_REQUIRE(off.exit_code == 0, off.err);
  BOOST_TEST(first_line(rt::read_file(whole)) == "nmt-hmm-params 3 model=hmm jump-width=7 boundary-jumps");
  // New text: n3xx9 and N3yy9 were never seen; read as n3xx and N3yy, they align as the
  // training's n3xxL and N3yyL did, and are not unknown words.
  const std::string new_source = dir.write("ns", "the a1 n3xx9\n"), new_target = dir.write("nt", "le N3yy9 A1\n");
  const auto unseen = hmm({"-s", new_source, "-t", new_target, "--links", "agreed", "--load-params", params,
                           "--unknown-warning", "0"});
  BOOST_TEST_REQUIRE(unseen.exit_code == 0, unseen.err);
  BOOST_TEST(unseen.out == "0-0 1-2 2-1\n");
  BOOST_TEST(unseen.err.find("never names") == std::string::npos, unseen.err);
}

BOOST_AUTO_TEST_CASE(usage_errors_exit_2) {
  const Corpus c;
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"-s", c.source, "-t", c.target, "--save-params", c.path("p"), "--load-params", c.path("q")},
       "--save-params and --load-params exclude each other"},
      {{"-t", c.target}, "-s SOURCE and -t TARGET are required"},
      {{"-s", c.source}, "-s SOURCE and -t TARGET are required"},
      {{"-s", c.source, "-t", c.target, "--links", "both"}, "--links must be forward, reverse, agreed or average, got 'both'"},
      {{"-s", c.source, "-t", c.target, "--decode", "best"}, "--decode must be posterior or viterbi, got 'best'"},
      {{"-s", c.source, "-t", c.target, "--model1-iterations", "0", "--hmm-iterations", "0"},
       "--model1-iterations and --hmm-iterations are both 0"},
      {{"-s", c.source, "-t", c.target, "--params-threshold", "2"}, "--params-threshold must be in [0, 1], got 2"},
      {{"-s", c.source, "-t", c.target, "--links", ""}, "--links must be forward, reverse, agreed or average, got ''"},
      {{"-s", c.source, "-t", c.target, "--unknown-warning", "2"}, "--unknown-warning must be in [0, 1], got 2"},
      {{"-s", c.source, "-t", c.target, "--agreement-empty", "none"},
       "--agreement-empty must be product or own, got 'none'"},
      {{"-s", c.source, "-t", c.target, "--p-empty-mode", "auto"},
       "--p-empty-mode must be learned, fixed or by-length, got 'auto'"},
      {{"-s", c.source, "-t", c.target, "--alpha", "-1"}, "--alpha must be in [0, 100], got -1"},
      {{"-s", c.source, "-t", c.target, "--stem-length", "101"}, "--stem-length must be in [0, 100], got 101"},
      {{"-s", c.source, "-t", c.target, "--stem-below", "-1"}, "--stem-below must be in [0, 2147483648], got -1"},
      // -o through a link to the parameters file, which does not exist yet.
      {{"-s", c.source, "-t", c.target, "--save-params", c.path("p"), "-o", c.path("link-to-p")},
       "-o and --save-params are the same file"},
  };
  fs::create_symlink("p", c.path("link-to-p"));
  for (const auto& [args, message] : cases) {
    auto with_output = args;
    if (std::find(args.begin(), args.end(), "-o") == args.end()) with_output.insert(with_output.end(), {"-o", c.path("out")});
    const auto r = hmm(with_output);
    BOOST_TEST(r.exit_code == 2, message);
    BOOST_TEST(r.err.find(message) != std::string::npos, r.err);
    BOOST_TEST(!fs::exists(c.path("out")), message);
    BOOST_TEST(!fs::exists(c.path("p")), message);
  }
}

// Bad input: exit 1, one message naming the file and line; the output (-o) is not created,
// and an output file that was there keeps its contents.
BOOST_AUTO_TEST_CASE(bad_input_names_the_file_and_line_and_leaves_no_output) {
  const Corpus c;
  const std::string empty = c.dir.write("empty", "le N0 A0\n\nle N2 A2\n");
  const std::string three = c.dir.write("three", "the a0 n0\nthe a1 n1\nthe a2 n2\n");
  const std::string table = c.path("table");
  const auto ibm2 = rt::run_process({rt::tool_path("nmt-align"), "ibm2", "-s", c.source, "-t", c.target, "--save-table",
                                     table, "-o", c.path("ibm2.align"), "-q"});
  BOOST_TEST_REQUIRE(ibm2.exit_code == 0, ibm2.err);
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"-s", three, "-t", empty}, empty + ":2: is empty"},
      {{"-s", c.source, "-t", c.target, "--load-params", table}, table + ":1: not the parameters of nmt-align hmm"},
      {{"-s", c.source, "-t", c.target, "--load-params", c.path("absent")}, c.path("absent")},
      // --save-params cannot be written: the links are not committed either.
      {{"-s", c.source, "-t", c.target, "--save-params", c.path("no/such/dir/params")}, c.path("no/such/dir/params")},
  };
  for (const auto& [args, message] : cases) {
    for (const bool existing : {false, true}) {
      const std::string out = c.path("out");
      if (existing) c.dir.write("out", "old links\n");
      auto with_output = args;
      with_output.insert(with_output.end(), {"-o", out, "-q"});
      const auto r = hmm(with_output);
      BOOST_TEST(r.exit_code == 1, message);
      BOOST_TEST(r.err.find(message) != std::string::npos, r.err);
      BOOST_TEST(std::count(r.err.begin(), r.err.end(), '\n') == 1, r.err);
      BOOST_TEST(fs::exists(out) == existing, message);
      if (existing) {
        BOOST_TEST(rt::read_file(out) == "old links\n");
        fs::remove(out);
      }
      std::size_t files = 0;
      for ([[maybe_unused]] const auto& entry : fs::directory_iterator(c.dir.path())) ++files;
      BOOST_TEST(files == 6u, message << ": a temporary file left behind?");  // s t empty three table ibm2.align
    }
  }
}

// Parameters that cannot be the ones for these pairs: the sides swapped, or the file of
// other pairs, warn once per side (under -q too) with the share of words the file never
// names; a copy cut short is bad input naming the file and its last line.
BOOST_AUTO_TEST_CASE(parameters_that_do_not_fit_warn_and_a_cut_copy_is_refused) {
  const Corpus c;
  const auto trained = hmm({"-s", c.source, "-t", c.target, "--save-params", c.path("p"), "-o", c.path("out"), "-q"});
  BOOST_TEST_REQUIRE(trained.exit_code == 0, trained.err);
  const auto fitting = hmm({"-s", c.source, "-t", c.target, "--load-params", c.path("p"), "-o", c.path("out"), "-q"});
  BOOST_TEST(fitting.exit_code == 0);
  BOOST_TEST(fitting.err == "");
  const auto swapped = hmm({"-s", c.target, "-t", c.source, "--load-params", c.path("p"), "-o", c.path("out"), "-q"});
  BOOST_TEST(swapped.exit_code == 0, swapped.err);
  BOOST_TEST(swapped.err ==
             "nmt-align hmm: warning: 180 of 180 source tokens (100.0%) in " + c.target + " are words " + c.path("p") +
                 " never names; were the parameters trained on text like it, with -s and -t the same way round?\n"
                 "nmt-align hmm: warning: 180 of 180 target tokens (100.0%) in " + c.source + " are words " +
                 c.path("p") + " never names; were the parameters trained on text like it, with -s and -t the same "
                 "way round?\n");
  const std::string other = c.dir.write("other", "the b0 m0\nthe a1 m1\n"), other_target = c.dir.write("ot", "le N0 A0\nle N1 A1\n");
  const auto unknown = hmm({"-s", other, "-t", other_target, "--load-params", c.path("p"), "-o", c.path("out"),
                            "--unknown-warning", "0.3"});
  BOOST_TEST(unknown.err.find("3 of 6 source tokens (50.0%) in " + other) != std::string::npos, unknown.err);
  BOOST_TEST(unknown.err.find("target tokens") == std::string::npos, unknown.err);
  const auto quiet = hmm({"-s", other, "-t", other_target, "--load-params", c.path("p"), "-o", c.path("out"),
                          "--unknown-warning", "1"});
  BOOST_TEST(quiet.err.find("warning") == std::string::npos, quiet.err);

  // The file cut at the end of a line, a third of the way in: reverse's table is gone.
  const std::string text = rt::read_file(c.path("p"));
  std::size_t cut = text.find('\n', text.size() / 3) + 1;
  const std::string cut_file = c.dir.write("cut", text.substr(0, cut));
  const auto lines = std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(cut), '\n');
  for (const std::string links : {"forward", "reverse"}) {
    const auto r = hmm({"-s", c.source, "-t", c.target, "--load-params", cut_file, "--links", links, "-o",
                        c.path("cut.out"), "-q"});
    BOOST_TEST(r.exit_code == 1, r.err);
    BOOST_TEST(r.err == "nmt-align: " + cut_file + ":" + std::to_string(lines) +
                            ": the file ends before its end line: it was cut short (copy it whole)\n");
    BOOST_TEST(!fs::exists(c.path("cut.out")));
  }
}

BOOST_AUTO_TEST_SUITE_END()
