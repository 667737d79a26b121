// The language check (data/language_check.h) as users meet it: a small English-source
// model trained here on Multi30k text prepared with the real tools (3,000 pairs
// tokenized, one joint BPE, a vocabulary per side, a tiny model trained for two updates:
// the source profile comes from the training text, not from training), then given
// Multi30k German, French and Czech test text BPE'd with its codes, which nmt-decode,
// nmt-score and nmt-align warn about once at the end, and its own English test text,
// which they do not. The warning does not change the output or the exit status, does
// not depend on batches or threads, and --language-warning 0 silences it. The profile is
// kept through --resume, nmt-average and --pretrained-model.
#include <boost/test/unit_test.hpp>

#include <fstream>
#include <iterator>
#include <map>

#include "support/end_warnings.h"
#include "support/gzip_text.h"
#include "support/run_process.h"
#include "support/shared_data.h"
#include "support/temp_dir.h"

namespace rt = rnnsearch::testing;

namespace {

constexpr std::size_t kTrainLines = 3000, kTestLines = 100;
const std::string kVerdict = " does not look like the model's source language (train.en): ";

void run_ok(const std::vector<std::string>& argv) {
  const auto result = rt::run_process(argv);
  BOOST_TEST_REQUIRE(result.exit_code == 0, argv[0] + ": " + result.err);
}

// The first `lines` lines of Multi30k's SET.L.gz, tokenized as the pipeline does, in DIR/tok.SET.L.
std::string tokenized(const rt::TempDir& dir, const std::string& set, const std::string& language, std::size_t lines) {
  const auto all = rt::gunzip_lines(rt::shared_path("data/multi30k/" + set + "." + language + ".gz"));
  BOOST_TEST_REQUIRE(all.size() >= lines);
  std::string text;
  for (std::size_t i = 0; i < lines; ++i) text += all[i] + "\n";
  const std::string raw = dir.write("raw." + set + "." + language, text);
  const std::string out = (dir.path() / ("tok." + set + "." + language)).string();
  run_ok({rt::tool_path("nmt-tokenize"), "-l", language, "--no-escape", "-i", raw, "-o", out, "-q"});
  return out;
}

// An English -> Czech model and the test sets BPE'd with its codes.
struct EnglishModel {
  rt::TempDir dir;
  std::string model = path("model.bin");
  std::string codes = path("codes");
  std::map<std::string, std::string> test;  // by language: BPE'd test text

  std::string path(const std::string& name) const { return (dir.path() / name).string(); }
  std::string bpe(const std::string& tokenized_file, const std::string& name) {
    run_ok({rt::tool_path("nmt-bpe"), "apply", "-c", codes, "-i", tokenized_file, "-o", path(name)});
    return path(name);
  }

  EnglishModel() {
    const std::string en = tokenized(dir, "train", "en", kTrainLines), cs = tokenized(dir, "train", "cs", kTrainLines);
    std::ifstream a(en), b(cs);
    const std::string both = dir.write("both", std::string(std::istreambuf_iterator<char>(a), {}) +
                                                   std::string(std::istreambuf_iterator<char>(b), {}));
    run_ok({rt::tool_path("nmt-bpe"), "learn", "-s", "2000", "-i", both, "-o", codes, "-q"});
    const std::string train_en = bpe(en, "train.en"), train_cs = bpe(cs, "train.cs");
    run_ok({rt::tool_path("nmt-vocab"), "-i", train_en, "-o", path("vocab.en"), "-q"});
    run_ok({rt::tool_path("nmt-vocab"), "-i", train_cs, "-o", path("vocab.cs"), "-q"});
    run_ok({rt::tool_path("nmt-train"), "-t", train_en, train_cs, "-v", path("vocab.en"), path("vocab.cs"), "--allow-unk",
            "-m", model, "--dim-emb", "8", "--dim-enc", "8", "--dim-dec", "8", "--dim-att", "8", "--dim-maxout", "8",
            "--mini-batch", "4", "--max-updates", "2", "--quiet"});
    for (const std::string language : {"en", "de", "fr", "cs"}) {
      test[language] = bpe(tokenized(dir, "test_2016_flickr", language, kTestLines), "test." + language);
    }
  }
};

bool has_shared_data() {
  for (const std::string file : {"train.en", "train.cs", "test_2016_flickr.en", "test_2016_flickr.de",
                                 "test_2016_flickr.fr", "test_2016_flickr.cs"}) {
    if (!rt::require_shared(rt::shared_path("data/multi30k/" + file + ".gz"))) return false;
  }
  return true;
}

// The one stderr line of `err` that holds the language warning, or "".
std::string language_warning(const std::string& err) {
  std::string found;
  std::size_t count = 0, start = 0;
  for (std::size_t end; (end = err.find('\n', start)) != std::string::npos; start = end + 1) {
    const std::string line = err.substr(start, end - start);
    if (line.find(kVerdict) != std::string::npos) {
      found = line;
      ++count;
    }
  }
  BOOST_TEST(count <= 1u, err);
  return found;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(language_check_cli)

BOOST_AUTO_TEST_CASE(warns_for_another_language_and_not_for_the_models_own) {
  if (!has_shared_data()) return;
  EnglishModel m;
  const std::string decode = rt::tool_path("nmt-decode");
  for (const std::string language : {"de", "fr", "cs"}) {
    const std::string input = m.test[language];
    const auto run = rt::run_process({decode, "-m", m.model, "-i", input, "-b", "1"});
    BOOST_TEST_REQUIRE(run.exit_code == 0, run.err);
    const std::string warning = language_warning(run.err);
    BOOST_TEST(warning.find(input + kVerdict) != std::string::npos, language + ": " + run.err);
    BOOST_TEST(warning.find("; is it the right file, language and preprocessing?") != std::string::npos, warning);
    const auto silent = rt::run_process({decode, "-m", m.model, "-i", input, "-b", "1", "--language-warning", "0"});
    BOOST_TEST(silent.exit_code == 0);
    BOOST_TEST((silent.out == run.out));  // a warning, not a change of output
    BOOST_TEST(language_warning(silent.err).empty());
  }
  const auto own = rt::run_process({decode, "-m", m.model, "-i", m.test["en"], "-b", "1"});
  BOOST_TEST_REQUIRE(own.exit_code == 0, own.err);
  BOOST_TEST(language_warning(own.err).empty(), own.err);

  // The same files through nmt-score and nmt-align (the source side is checked).
  for (const std::string tool : {"nmt-score", "nmt-align"}) {
    const auto german = rt::run_process({rt::tool_path(tool), "-m", m.model, "-s", m.test["de"], "-t", m.test["cs"], "-q"});
    BOOST_TEST_REQUIRE(german.exit_code == 0, german.err);
    BOOST_TEST(language_warning(german.err).find(m.test["de"] + kVerdict) != std::string::npos, tool + ": " + german.err);
    const auto english = rt::run_process({rt::tool_path(tool), "-m", m.model, "-s", m.test["en"], "-t", m.test["cs"], "-q"});
    BOOST_TEST_REQUIRE(english.exit_code == 0, english.err);
    BOOST_TEST(language_warning(english.err).empty(), tool + ": " + english.err);
  }

  // From stdin, once, whatever the batches and threads; -q keeps it; 0 silences it.
  std::ifstream in(m.test["de"]);
  const std::string german((std::istreambuf_iterator<char>(in)), {});
  const auto first = rt::run_process({decode, "-m", m.model, "-b", "1"}, "", german);
  const std::string line = language_warning(first.err);
  BOOST_TEST_REQUIRE(line.find("<stdin>" + kVerdict) != std::string::npos, first.err);
  rt::check_end_warning({decode, "-m", m.model, "-b", "1"}, german, line, {}, {"--language-warning", "0"});
}

// The profile is the training source's: a resumed run, an average and a model fine-tuned
// on other text (--pretrained-model) keep the first run's, so each gives the same warning.
BOOST_AUTO_TEST_CASE(the_profile_survives_resume_averaging_and_fine_tuning) {
  if (!has_shared_data()) return;
  EnglishModel m;
  const std::string decode = rt::tool_path("nmt-decode");
  const auto warning_of = [&](const std::string& model) {
    const auto run = rt::run_process({decode, "-m", model, "-i", m.test["de"], "-b", "1", "-q"});
    BOOST_TEST_REQUIRE(run.exit_code == 0, run.err);
    return language_warning(run.err);
  };
  const std::string first = warning_of(m.model);
  BOOST_TEST_REQUIRE(first.find(kVerdict) != std::string::npos, first);
  const std::vector<std::string> tiny = {"--dim-emb", "8", "--dim-enc", "8", "--dim-dec", "8", "--dim-att", "8",
                                         "--dim-maxout", "8", "--mini-batch", "4", "--quiet"};
  std::vector<std::string> resume = {rt::tool_path("nmt-train"), "-t", m.path("train.en"), m.path("train.cs"), "-v",
                                     m.path("vocab.en"), m.path("vocab.cs"), "--allow-unk", "-m", m.model,
                                     "--max-updates", "4", "--resume"};
  resume.insert(resume.end(), tiny.begin(), tiny.end());
  run_ok(resume);
  BOOST_TEST(warning_of(m.model) == first);
  const std::string averaged = m.path("averaged.bin");
  run_ok({rt::tool_path("nmt-average"), "-o", averaged, m.model, m.model + ".ckpt"});
  BOOST_TEST(warning_of(averaged) == first);
  // Fine-tuned on the Czech side as its source: a fresh profile would be of train.cs.
  const std::string tuned = m.path("tuned.bin");
  std::vector<std::string> fine_tune = {rt::tool_path("nmt-train"), "-t", m.path("train.cs"), m.path("train.en"),
                                        "--allow-unk", "--pretrained-model", m.model, "-m", tuned, "--max-updates", "1"};
  fine_tune.insert(fine_tune.end(), tiny.begin(), tiny.end());
  run_ok(fine_tune);
  BOOST_TEST(warning_of(tuned) == first);
}

BOOST_AUTO_TEST_SUITE_END()
