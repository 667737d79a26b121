// --config FILE and --dump-config in every tool and subcommand: the dump reads back as
// the same dump, the command line wins over the file, a bad line is a usage error naming
// FILE:LINE; nmt-train stores its options in MODEL (and MODEL.ckpt), prints them under
// --dump-config -m MODEL, and a run from them trains the same model bit for bit; a model
// or checkpoint of format 3 (tests/model/tiny_format3.bin*, written by nmt-train before
// format 4: no options) still loads and resumes.
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <regex>
#include <sstream>

#include "cli/project_tools.h"
#include "model/model_file.h"
#include "support/run_process.h"
#include "support/shared_data.h"
#include "support/temp_dir.h"

namespace rt = rnnsearch::testing;
namespace fs = std::filesystem;

namespace {

// The argument lists that reach each tool's options (subcommands), as man_pages_test.
std::vector<std::vector<std::string>> calls_of(const std::string& tool) {
  if (tool == "nmt-bpe") return {{"learn"}, {"apply"}, {"undo"}};
  if (tool == "nmt-glossary") return {{"match"}, {"extract"}};
  if (tool == "nmt-align") return {{}, {"symmetrize"}, {"combine"}, {"ibm2"}, {"hmm"}, {"eval"}, {"heatmap"}};
  return {{}};
}

rt::ProcessResult run(const std::string& tool, std::vector<std::string> args, const std::string& dir = "",
                      const std::string& input = "") {
  args.insert(args.begin(), rt::tool_path(tool));
  return rt::run_process(args, dir, input);
}

// Runs `tool args --dump-config`, then again from a file holding that dump: both exit 0
// and print the same. Returns the dump.
std::string check_round_trip(const rt::TempDir& dir, const std::string& tool, std::vector<std::string> args) {
  const std::string call = tool + " " + (args.empty() ? "" : args.front());
  args.push_back("--dump-config");
  const auto first = run(tool, args, dir.path().string());
  BOOST_TEST_REQUIRE(first.exit_code == 0, call << ": " << first.err);
  BOOST_TEST(first.err == "", call);
  const std::string file = dir.write("dump.cfg", first.out);
  std::vector<std::string> again = {"--config", file, "--dump-config"};
  if (tool == "nmt-bpe" || tool == "nmt-glossary" || (tool == "nmt-align" && !args.empty() && args.front()[0] != '-')) {
    again.insert(again.begin(), args.front());  // the subcommand
  }
  const auto second = run(tool, again, dir.path().string());
  BOOST_TEST_REQUIRE(second.exit_code == 0, call << ": " << second.err);
  BOOST_TEST(second.out == first.out, call);
  return first.out;
}

bool has_line(const std::string& text, const std::string& line) {
  return ("\n" + text).find("\n" + line + "\n") != std::string::npos;
}

const std::string kSource = "w1 w2 w3\nw3 w2\nw1 w3\nw2 w1\n";  // the corpus of tests/model/tiny_format3.bin
const std::string kTarget = "w3 w2 w1\nw2 w3\nw3 w1\nw1 w2\n";

}  // namespace

BOOST_AUTO_TEST_SUITE(config_cli)

BOOST_AUTO_TEST_CASE(every_tool_dumps_its_defaults_in_config_form_and_reads_them_back) {
  rt::TempDir dir;
  const std::regex line("[a-z0-9][a-z0-9-]* = [^\n]*");
  for (const auto& tool : rt::project_tools()) {
    for (const auto& args : calls_of(tool)) {
      const std::string dump = check_round_trip(dir, tool, args);
      std::istringstream lines(dump);
      int count = 0;
      for (std::string text; std::getline(lines, text); ++count) {
        BOOST_TEST(std::regex_match(text, line), tool << ": " << text);
        for (const char* meta : {"help =", "version =", "config =", "dump-config ="}) {
          BOOST_TEST(text.rfind(meta, 0) != 0u, tool << ": " << text);
        }
      }
      BOOST_TEST(count >= 2, tool << " dumps " << count << " options");
      BOOST_TEST(has_line(dump, "quiet = false"), tool);
    }
  }
}

BOOST_AUTO_TEST_CASE(options_given_round_trip_exactly) {
  rt::TempDir dir;
  const std::string decode = check_round_trip(
      dir, "nmt-decode", {"-m", "a b.bin", "b.bin", "--length-penalty", "0.3", "-b", "7", "--alignment", "soft",
                          "--replace-unk", "--precision", "int8", "--max-length-ratio", "1.2345678", "-q"});
  for (const char* expected : {"model = a b.bin", "model = b.bin", "length-penalty = 0.3", "beam-size = 7",
                               "alignment = soft", "replace-unk = true", "precision = int8",
                               "max-length-ratio = 1.2345678", "quiet = true"}) {
    BOOST_TEST(has_line(decode, expected), expected << "\n" << decode);
  }
  const std::string bleu = check_round_trip(dir, "nmt-bleu", {"ref1.txt", "ref2.txt", "-i", "hyp.txt", "-tok", "intl",
                                                              "-m", "bleu", "chrf", "-lc"});
  for (const char* expected : {"refs = ref1.txt", "refs = ref2.txt", "tokenize = intl", "metrics = chrf", "lowercase = true"}) {
    BOOST_TEST(has_line(bleu, expected), expected << "\n" << bleu);
  }
  const std::string bpe = check_round_trip(dir, "nmt-bpe", {"apply", "-c", "codes", "--glossaries", "New York", "#x", "a #b",
                                                            "-s", " @@"});
  for (const char* expected : {"glossaries = New York", "glossaries = #x", "glossaries = \"a #b\"", "separator = \" @@\""}) {
    BOOST_TEST(has_line(bpe, expected), expected << "\n" << bpe);
  }
  const std::string clean = check_round_trip(dir, "nmt-clean", {"corpus", "de", "en", "clean", "1", "80", "-ratio", "3",
                                                                "--aligned", "a.in", "a.out"});
  for (const char* expected : {"arguments = corpus", "arguments = 80", "ratio = 3", "aligned = a.in", "aligned = a.out"}) {
    BOOST_TEST(has_line(clean, expected), expected << "\n" << clean);
  }
  check_round_trip(dir, "nmt-align", {"ibm2", "-s", "s", "-t", "t", "--p-null", "0.1", "--fixed-tension"});
  const std::string hmm = check_round_trip(dir, "nmt-align", {"hmm", "-s", "s", "-t", "t", "--links", "agreed",
                                                               "--p-empty", "0.1", "--no-agreement", "-r"});
  for (const char* expected : {"links = agreed", "p-empty = 0.1", "no-agreement = true", "reverse = true"}) {
    BOOST_TEST(has_line(hmm, expected), expected << "\n" << hmm);
  }
  check_round_trip(dir, "nmt-train", {"-t", "s", "t", "--dropout", "0.15", "--label-smoothing", "0.1", "--attention", "dot",
                                      "--seed", "18446744073709551615"});
}

BOOST_AUTO_TEST_CASE(the_command_line_wins_over_the_file) {
  rt::TempDir dir;
  const std::string file = dir.write("undo.cfg", "# nmt-bpe undo\nseparator = ##\nreplace-invalid = true\n");
  const auto from_file = run("nmt-bpe", {"undo", "--config", file}, "", "a## b@@ c\n");
  BOOST_TEST(from_file.exit_code == 0, from_file.err);
  BOOST_TEST(from_file.out == "ab@@ c\n");
  const auto overridden = run("nmt-bpe", {"undo", "--config", file, "-s", "@@"}, "", "a## b@@ c\n");
  BOOST_TEST(overridden.exit_code == 0, overridden.err);
  BOOST_TEST(overridden.out == "a## bc\n");
  // A switch the file turns on, the command line turns off.
  const auto dump = run("nmt-bpe", {"undo", "--config", file, "--replace-invalid=false", "--dump-config"});
  BOOST_TEST(dump.exit_code == 0, dump.err);
  BOOST_TEST(has_line(dump.out, "replace-invalid = false"), dump.out);
  BOOST_TEST(has_line(dump.out, "separator = ##"), dump.out);
}

BOOST_AUTO_TEST_CASE(a_bad_config_file_is_a_usage_error_naming_its_line) {
  rt::TempDir dir;
  const std::string bad = dir.write("bad.cfg", "beam-size = 5\n# a comment\nbeam = 5\n");
  for (const auto& [tool, args] : std::vector<std::pair<std::string, std::vector<std::string>>>{
           {"nmt-decode", {"--config", bad}}, {"nmt-bpe", {"apply", "--config", bad}}}) {
    const auto r = run(tool, args);
    BOOST_TEST(r.exit_code == 2, tool << ": " << r.err);
    const std::string first_line = r.err.substr(0, r.err.find('\n'));
    const std::string expected = tool + ": " + bad + (tool == "nmt-decode" ? ":3: unknown option 'beam'"
                                                                          : ":1: unknown option 'beam-size'");
    BOOST_TEST(first_line == expected);
    BOOST_TEST(r.err.find("Try '" + tool + " --help'") != std::string::npos, r.err);
  }
  const auto malformed = run("nmt-decode", {"--config", dir.write("malformed.cfg", "\n\nbeam-size: 5\n")});
  BOOST_TEST(malformed.exit_code == 2);
  BOOST_TEST(malformed.err.rfind("nmt-decode: " + (dir.path() / "malformed.cfg").string() +
                                     ":3: expected 'name = value', found 'beam-size: 5'\n",
                                 0) == 0u,
             malformed.err);
  const auto missing = run("nmt-decode", {"--config", (dir.path() / "none.cfg").string()});
  BOOST_TEST(missing.exit_code == 1);
  BOOST_TEST(missing.err.rfind("nmt-decode: " + (dir.path() / "none.cfg").string() + ": ", 0) == 0u, missing.err);
}

BOOST_AUTO_TEST_CASE(nmt_train_stores_its_options_and_retrains_from_them) {
  rt::TempDir dir;
  const std::string d = dir.path().string();
  dir.write("train.src", kSource);
  dir.write("train.tgt", kTarget);
  const std::string file = dir.write("run.cfg", "dim-emb = 6\ndim-enc = 5\ndim-dec = 6\ndim-att = 4\ndim-maxout = 4\n"
                                                "mini-batch = 2\nmax-updates = 4\nseed = 99\ndropout = 0.1\n");
  const std::vector<std::string> args = {"--config", file, "-t", "train.src", "train.tgt", "-m", "first.bin",
                                         "--dropout", "0.3", "--save-freq", "2", "-q", "--overwrite"};
  std::vector<std::string> dump_args = args;
  dump_args.push_back("--dump-config");
  const auto effective = run("nmt-train", dump_args, d);
  BOOST_TEST_REQUIRE(effective.exit_code == 0, effective.err);
  BOOST_TEST(has_line(effective.out, "dropout = 0.3"));  // the command line's
  BOOST_TEST(has_line(effective.out, "seed = 99"));      // the file's
  BOOST_TEST(!fs::exists(dir.path() / "first.bin"));     // --dump-config does not train
  const auto trained = run("nmt-train", args, d);
  BOOST_TEST_REQUIRE(trained.exit_code == 0, trained.err);

  std::string expected = std::regex_replace(effective.out, std::regex("overwrite = true"), "overwrite = false");
  for (const std::string stored_in : {"first.bin", "first.bin.ckpt"}) {
    const auto stored = run("nmt-train", {"--dump-config", "-m", stored_in}, d);
    BOOST_TEST(stored.exit_code == 0, stored.err);
    BOOST_TEST(stored.out == expected, stored_in);
  }
  BOOST_TEST(rnnsearch::model::read_model_file(d + "/first.bin").training_options == expected);

  // Retrained from the stored options (to another file): the same model, bit for bit.
  const std::string stored_file = dir.write("stored.cfg", expected);
  const auto again = run("nmt-train", {"--config", stored_file, "-m", "second.bin"}, d);
  BOOST_TEST_REQUIRE(again.exit_code == 0, again.err);
  const auto first = rnnsearch::model::read_model_file(d + "/first.bin");
  const auto second = rnnsearch::model::read_model_file(d + "/second.bin");
  const auto a = first.model->parameters().all(), b = second.model->parameters().all();
  BOOST_TEST_REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) BOOST_TEST((a[i]->value == b[i]->value), a[i]->name);
  BOOST_TEST(second.training_options ==
             std::regex_replace(expected, std::regex("model = first.bin"), "model = second.bin"));

  // Other options beside -m: the effective options, not the stored ones.
  const auto effective_again = run("nmt-train", {"--dump-config", "-m", "first.bin", "--seed", "5"}, d);
  BOOST_TEST(has_line(effective_again.out, "seed = 5"));
  BOOST_TEST(has_line(effective_again.out, "dim-emb = 256"), effective_again.out);
}

BOOST_AUTO_TEST_CASE(a_format_3_model_loads_stores_no_options_and_its_checkpoint_resumes) {
  rt::TempDir dir;
  const std::string d = dir.path().string();
  const std::string fixture = rt::source_dir() + "/tests/model/tiny_format3.bin";
  fs::copy_file(fixture, dir.path() / "old.bin");
  fs::copy_file(fixture + ".ckpt", dir.path() / "old.bin.ckpt");
  BOOST_TEST(rnnsearch::model::read_model_file(d + "/old.bin").training_options == "");

  const auto none = run("nmt-train", {"--dump-config", "-m", "old.bin"}, d);
  BOOST_TEST(none.exit_code == 1);
  BOOST_TEST(none.err == "nmt-train: old.bin: stores no training options (nmt-train stores them from model format "
                         "version 4 on)\n");
  const auto missing = run("nmt-train", {"--dump-config", "-m", "missing.bin"}, d);
  BOOST_TEST(missing.exit_code == 1);
  BOOST_TEST(missing.err.rfind("nmt-train: missing.bin: ", 0) == 0u, missing.err);

  dir.write("s", kSource);
  dir.write("t", kTarget);
  const auto resumed = run("nmt-train", {"-t", "s", "t", "-m", "old.bin", "--resume", "--dim-emb", "4", "--dim-enc", "4",
                                         "--dim-dec", "4", "--dim-att", "4", "--dim-maxout", "4", "--mini-batch", "2",
                                         "--max-updates", "3", "-q"},
                           d);
  BOOST_TEST_REQUIRE(resumed.exit_code == 0, resumed.err);
  const auto stored = run("nmt-train", {"--dump-config", "-m", "old.bin"}, d);
  BOOST_TEST(stored.exit_code == 0, stored.err);
  BOOST_TEST(has_line(stored.out, "resume = false"), stored.out);  // stored for a fresh run
  BOOST_TEST(has_line(stored.out, "max-updates = 3"), stored.out);
}

BOOST_AUTO_TEST_SUITE_END()
