// The files nmt-train writes never take the place of the files it reads: an output that
// is an input (by any spelling or link) is a usage error (exit 2) whatever --overwrite
// says, and an existing --valid-translation-output needs --overwrite as MODEL does. The
// temporary files a killed run left (.MODEL.tmp.PID.*, .MODEL.ckpt.tmp.PID.*, the kept
// models' .MODEL.updateN.tmp.PID.*) are removed when the next run starts, fresh, with
// --overwrite or --resume, those of live processes kept; nmt-average MODEL.update* never
// takes one. A name the file system cannot take is refused before the first update.
#include <boost/test/unit_test.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "support/dead_pid.h"
#include "support/golden_cases.h"
#include "support/run_process.h"
#include "support/temp_dir.h"

namespace rt = rnnsearch::testing;
namespace fs = std::filesystem;

namespace {

const char* const kSource = "ein haus\ndas haus\neine katze\nder hund\ndie katze\nein hund\n";
const char* const kTarget = "a house\nthe house\na cat\nthe dog\nthe cat\na dog\n";

struct Corpus {
  rt::TempDir dir;
  std::string source = dir.write("train.de", kSource);
  std::string target = dir.write("train.en", kTarget);

  std::string path(const std::string& name) const { return (dir.path() / name).string(); }

  // nmt-train -t SOURCE TARGET, a tiny model, --max-updates 2 unless `args` give their
  // own, then `args`, run in the directory.
  rt::ProcessResult train(const std::vector<std::string>& args) const {
    std::vector<std::string> argv = {rt::tool_path("nmt-train"), "-t", source, target, "--dim-emb", "8", "--dim-enc",
                                     "8", "--dim-dec", "8", "--dim-att", "8", "--dim-maxout", "8", "--mini-batch", "4"};
    if (std::find(args.begin(), args.end(), "--max-updates") == args.end()) argv.insert(argv.end(), {"--max-updates", "2"});
    argv.insert(argv.end(), args.begin(), args.end());
    return rt::run_process(argv, dir.path().string());
  }
};

// Exit 2, the options and the file named in the first line, the corpus as it was.
void check_refused(const Corpus& c, const rt::ProcessResult& r, const std::vector<std::string>& named) {
  BOOST_TEST(r.exit_code == 2, r.err);
  const std::string first_line = r.err.substr(0, r.err.find('\n'));
  for (const auto& text : named) BOOST_TEST(first_line.find(text) != std::string::npos, text << " in: " << r.err);
  BOOST_TEST(rt::read_file(c.source) == kSource);
  BOOST_TEST(rt::read_file(c.target) == kTarget);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(train_files)

BOOST_AUTO_TEST_CASE(valid_translation_output_onto_training_data_is_refused) {
  Corpus c;
  const std::vector<std::string> valid = {"--valid-sets", c.source, c.target, "--valid-freq", "1"};
  for (const std::vector<std::string>& extra : {std::vector<std::string>{}, std::vector<std::string>{"--overwrite"}}) {
    auto args = valid;
    args.insert(args.end(), {"--valid-translation-output", c.target, "-m", c.path("m.bin")});
    args.insert(args.end(), extra.begin(), extra.end());
    check_refused(c, c.train(args), {"--valid-translation-output", "--train-sets", c.target});
  }
  // Another spelling of the same file: relative to the working directory, through a link.
  fs::create_symlink(c.target, c.dir.path() / "link.en");
  check_refused(c, c.train({"--valid-translation-output", "./link.en", "-m", "m.bin", "--overwrite"}),
                {"--valid-translation-output ./link.en", "--train-sets"});
  BOOST_TEST(!fs::exists(c.path("m.bin")));
}

BOOST_AUTO_TEST_CASE(model_onto_a_training_or_validation_file_is_refused_even_with_overwrite) {
  Corpus c;
  check_refused(c, c.train({"-m", c.source, "--overwrite"}), {"--model " + c.source, "--train-sets"});
  check_refused(c, c.train({"-m", "train.en", "--overwrite"}), {"--model train.en", "--train-sets"});
  const std::string valid = c.dir.write("valid.en", "a cat\n");
  const std::string valid_copy = rt::read_file(valid);
  const auto r = c.train({"--valid-sets", c.source, valid, "-m", c.path("m.bin"), "--valid-translation-output",
                          c.path("m.bin"), "--overwrite"});
  check_refused(c, r, {"--valid-translation-output", "--model"});
  // The checkpoint is an output too: MODEL.ckpt must not be the validation target.
  const std::string ckpt_named = c.dir.write("v.ckpt", "a house\nthe house\na cat\nthe dog\nthe cat\na dog\n");
  check_refused(c, c.train({"--valid-sets", c.source, ckpt_named, "-m", c.path("v"), "--overwrite"}),
                {"--model", "--valid-sets", ckpt_named});
  BOOST_TEST(rt::read_file(ckpt_named) == kTarget);
  BOOST_TEST(rt::read_file(valid) == valid_copy);
}

BOOST_AUTO_TEST_CASE(an_existing_valid_translation_output_needs_overwrite) {
  Corpus c;
  const std::string out = c.dir.write("valid.out", "keep me\n");
  const std::vector<std::string> args = {"--valid-sets", c.source, c.target, "--valid-freq", "1", "-m",
                                         c.path("m.bin"), "--valid-translation-output", out, "--quiet"};
  const auto refused = c.train(args);
  BOOST_TEST(refused.exit_code == 1, refused.err);
  BOOST_TEST(refused.err.rfind("nmt-train: " + out + ": exists", 0) == 0u, refused.err);
  BOOST_TEST(rt::read_file(out) == "keep me\n");
  BOOST_TEST(!fs::exists(c.path("m.bin")));
  auto overwrite = args;
  overwrite.push_back("--overwrite");
  const auto written = c.train(overwrite);
  BOOST_TEST_REQUIRE(written.exit_code == 0, written.err);
  BOOST_TEST(rt::read_file(out) != "keep me\n");
}

BOOST_AUTO_TEST_CASE(temporary_files_of_killed_runs_are_removed_at_start) {
  Corpus c;
  const std::string dead = std::to_string(rt::dead_pid()), alive = std::to_string(::getpid());
  const std::vector<std::string> stale = {c.dir.write(".m.bin.tmp." + dead + ".a1B2c3", "partial model"),
                                          c.dir.write(".m.bin.ckpt.tmp." + dead + ".Zz9Yy8", "partial checkpoint"),
                                          c.dir.write(".m.bin.best.tmp." + dead + ".Qq0Ww1", "partial best"),
                                          c.dir.write(".m.bin.update20.tmp." + dead + ".Qq0Ww1", "partial kept model"),
                                          c.dir.write("m.bin.ckpt.tmp." + dead + ".Zz9Yy8", "an earlier version's")};
  const std::vector<std::string> kept = {c.dir.write(".m.bin.ckpt.tmp." + alive + ".a1B2c3", "a live run's"),
                                         c.dir.write("m.bin.ckpt.tmp.notes", "not a temporary file's name"),
                                         c.dir.write(".other.bin.tmp." + dead + ".a1B2c3", "another model's")};
  const auto fresh = c.train({"-m", c.path("m.bin")});
  BOOST_TEST_REQUIRE(fresh.exit_code == 0, fresh.err);
  for (const auto& path : stale) {
    BOOST_TEST(!fs::exists(path), path);
    BOOST_TEST(fresh.err.find("removed " + path + ", the temporary file of a run that was killed") != std::string::npos,
               fresh.err);
  }
  for (const auto& path : kept) BOOST_TEST(fs::exists(path), path);
  // --resume and --overwrite clean up as well, before they read or replace anything.
  for (const std::string& how : {"--resume", "--overwrite"}) {
    const std::vector<std::string> again = {c.dir.write(".m.bin.ckpt.tmp." + dead + ".b4C5d6", "partial checkpoint"),
                                            c.dir.write(".m.bin.update3.tmp." + dead + ".b4C5d6", "partial kept model")};
    const auto resumed = c.train({"-m", c.path("m.bin"), how, "--max-updates", "3", "--quiet"});
    BOOST_TEST_REQUIRE(resumed.exit_code == 0, resumed.err);
    for (const auto& path : again) BOOST_TEST(!fs::exists(path), how << " left " << path);
    for (const auto& path : kept) BOOST_TEST(fs::exists(path), path);
  }
}

// The averaging command the README gives, after a run killed during a kept save: the
// glob takes the kept models only, never the temporary file.
BOOST_AUTO_TEST_CASE(a_killed_kept_save_leaves_nothing_that_nmt_average_takes) {
  Corpus c;
  const auto trained = c.train({"-m", c.path("m.bin"), "--keep-checkpoints", "2", "--save-freq", "1", "--quiet"});
  BOOST_TEST_REQUIRE(trained.exit_code == 0, trained.err);
  c.dir.write(".m.bin.update3.tmp." + std::to_string(rt::dead_pid()) + ".Ab3xYz", "the start of a model");
  const auto averaged = rt::run_process({"/bin/sh", "-c", rt::tool_path("nmt-average") + " -q -o avg.bin m.bin.update*"},
                                        c.dir.path().string());
  BOOST_TEST(averaged.exit_code == 0, averaged.err);
  BOOST_TEST(fs::exists(c.path("avg.bin")));
}

// A model name as long as the file system takes trains (its temporary files cut to fit);
// one whose kept models' names would not fit is refused before the first update.
BOOST_AUTO_TEST_CASE(model_names_at_the_file_systems_limit) {
  Corpus c;
  const std::string longest(250, 'm');  // MODEL.ckpt and MODEL.best: 255
  const auto trained = c.train({"-m", c.path(longest), "--quiet"});
  BOOST_TEST(trained.exit_code == 0, trained.err);
  BOOST_TEST(fs::exists(c.path(longest)));

  const std::string name(240, 'k');  // + ".update2" fits, + ".ckpt" too
  const auto kept = c.train({"-m", c.path(name), "--keep-checkpoints", "1", "--quiet"});
  BOOST_TEST(kept.exit_code == 0, kept.err);
  BOOST_TEST(fs::exists(c.path(name + ".update2")));

  const std::string too_long(250, 'x');  // ".update100000" takes 263
  const auto refused = c.train({"-m", c.path(too_long), "--keep-checkpoints", "1", "--max-updates", "100000"});
  BOOST_TEST(refused.exit_code == 1, refused.err);
  BOOST_TEST(refused.err == "nmt-train: " + c.path(too_long) + ".update100000: file name of 263 bytes, longer than "
                                                              "the 255 this file system takes\n");
  BOOST_TEST(!fs::exists(c.path(too_long)));
  const auto fresh_ckpt = c.train({"-m", c.path(std::string(252, 'c'))});  // MODEL.ckpt: 257
  BOOST_TEST(fresh_ckpt.exit_code == 1, fresh_ckpt.err);
  BOOST_TEST(fresh_ckpt.err.find(".ckpt: file name of 257 bytes") != std::string::npos, fresh_ckpt.err);
}

BOOST_AUTO_TEST_SUITE_END()

// A large corpus with one bad line far in: nmt-train reads and checks the whole corpus
// before its first update, so it fails at once with the file and line, prints no training
// progress, and leaves the model of an earlier run as it was.
BOOST_AUTO_TEST_SUITE(train_bad_corpus_at_scale)

namespace {

constexpr int kPairs = 20000;

std::string numbered_lines(const std::string& word, int count) {
  std::string text;
  for (int i = 1; i <= count; ++i) text += word + " " + std::to_string(i % 97) + " " + word + "\n";
  return text;
}

// nmt-train on SOURCE/TARGET with --overwrite over an earlier model; returns its result.
rt::ProcessResult train_over_model(rt::TempDir& dir, const std::string& source, const std::string& target) {
  dir.write("model.bin", "an earlier model");
  return rt::run_process({rt::tool_path("nmt-train"), "-t", dir.write("train.src", source), dir.write("train.tgt", target),
                          "-m", "model.bin", "--overwrite", "--dim-emb", "8", "--dim-enc", "8", "--dim-dec", "8",
                          "--dim-att", "8", "--dim-maxout", "8", "--max-updates", "100000", "--log-freq", "1"},
                         dir.path().string());
}

void check_failed_before_training(const rt::TempDir& dir, const rt::ProcessResult& r, const std::string& message) {
  BOOST_TEST(r.exit_code == 1, r.err);
  BOOST_TEST(r.err.find(message) != std::string::npos, r.err);
  BOOST_TEST(r.err.find("update 1 ") == std::string::npos, r.err);
  BOOST_TEST(rt::read_file((dir.path() / "model.bin").string()) == "an earlier model");
  BOOST_TEST(!fs::exists(dir.path() / "model.bin.ckpt"));
}

}  // namespace

BOOST_AUTO_TEST_CASE(invalid_utf8_on_line_15000_fails_before_the_first_update) {
  rt::TempDir dir;
  std::string source = numbered_lines("haus", kPairs);
  std::size_t at = 0;
  for (int line = 1; line < 15000; ++line) at = source.find('\n', at) + 1;
  source.insert(at, "\xff\xfe ");
  const auto r = train_over_model(dir, source, numbered_lines("house", kPairs));
  check_failed_before_training(dir, r, "train.src:15000: invalid UTF-8");
}

BOOST_AUTO_TEST_CASE(a_target_one_line_short_fails_before_the_first_update) {
  rt::TempDir dir;
  const auto r = train_over_model(dir, numbered_lines("haus", kPairs), numbered_lines("house", kPairs - 1));
  check_failed_before_training(dir, r, "train.tgt: has 19999 lines, but");
}

BOOST_AUTO_TEST_SUITE_END()
