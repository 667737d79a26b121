// nmt-train on bad input: each case exits 1 (2 for usage errors) with one line on
// stderr naming the file (and line), and leaves the files in its directory as they were.
#include <boost/test/unit_test.hpp>
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <map>
#include <regex>

#include "model/model_file.h"
#include "support/golden_cases.h"
#include "support/run_process.h"
#include "support/temp_dir.h"

namespace rt = rnnsearch::testing;

namespace {

// Line 3 brings the first "katze"; line 5 is the only one over 4 tokens (its target, 7).
const char* const kSource =
    "ein haus\ndas haus\neine katze\nder hund\nein rotes haus\ndas blaue haus\n"
    "die katze\nein hund\nder rote hund\ndas rote haus\neine blaue katze\nder blaue hund\n";
const char* const kTarget =
    "a house\nthe house\na cat\nthe dog\na red house near the blue house\nthe blue house\n"
    "the cat\na dog\nthe red dog\nthe red house\na blue cat\nthe blue dog\n";

// A tiny model and a short run: each call takes a few milliseconds.
const std::vector<std::string> kTiny = {"--dim-emb", "8",   "--dim-enc",    "8", "--dim-dec",    "8",
                                        "--dim-att", "8",   "--dim-maxout", "8", "--mini-batch", "4",
                                        "--quiet"};

struct Corpus {
  rt::TempDir dir;
  std::string source = dir.write("train.de", kSource);
  std::string target = dir.write("train.en", kTarget);
  std::string model = path("model.bin");
  std::string checkpoint = model + ".ckpt";

  std::string path(const std::string& name) const { return (dir.path() / name).string(); }

  // nmt-train -t SOURCE TARGET -m MODEL, the tiny model, --max-updates 3 unless `args`
  // give their own, then `args`.
  rt::ProcessResult train(const std::vector<std::string>& args) const {
    return train_on(source, target, args);
  }
  rt::ProcessResult train_on(const std::string& src, const std::string& tgt, const std::vector<std::string>& args) const {
    std::vector<std::string> argv = {rt::tool_path("nmt-train"), "-t", src, tgt, "-m", model};
    argv.insert(argv.end(), kTiny.begin(), kTiny.end());
    if (std::find(args.begin(), args.end(), "--max-updates") == args.end()) {
      argv.insert(argv.end(), {"--max-updates", "3"});
    }
    argv.insert(argv.end(), args.begin(), args.end());
    return rt::run_process(argv, dir.path().string());
  }

  // Every file in the directory with its bytes: equal snapshots mean nothing was
  // written, replaced or left behind (temporary files included).
  std::map<std::string, std::string> snapshot() const {
    std::map<std::string, std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
      files[entry.path().filename().string()] = rt::read_file(entry.path().string());
    }
    return files;
  }
};

// Monotone links over the source words of each line of kSource: 30 links, every pair linked.
std::string monotone_links() {
  std::string links;
  for (const int words : {2, 2, 2, 2, 3, 3, 2, 2, 3, 3, 3, 3}) {
    for (int k = 0; k < words; ++k) links += (k ? " " : "") + std::to_string(k) + "-" + std::to_string(k);
    links += "\n";
  }
  return links;
}

// Exit 1 and exactly one line on stderr, "nmt-train: " + `location` + ...
void check_bad_input(const rt::ProcessResult& r, const std::string& location, const std::string& detail) {
  BOOST_TEST(r.exit_code == 1, r.err);
  BOOST_TEST(r.err.rfind("nmt-train: " + location, 0) == 0u, r.err);
  BOOST_TEST(r.err.find(detail) != std::string::npos, r.err);
  BOOST_TEST(std::count(r.err.begin(), r.err.end(), '\n') == 1, r.err);
}

// Exit 2: the first line names `option`, the second points to --help.
void check_usage_error(const rt::ProcessResult& r, const std::string& option) {
  BOOST_TEST(r.exit_code == 2, r.err);
  BOOST_TEST(r.err.rfind("nmt-train: ", 0) == 0u, r.err);
  BOOST_TEST(r.err.substr(0, r.err.find('\n')).find(option) != std::string::npos, r.err);
  BOOST_TEST(r.err.find("Try 'nmt-train --help'") != std::string::npos, r.err);
}

// Places stand-ins for MODEL and MODEL.ckpt that a failed run must not replace.
void write_old_outputs(const Corpus& c) {
  c.dir.write("model.bin", "old model\n");
  c.dir.write("model.bin.ckpt", "old checkpoint\n");
}

// A good checkpoint from a short run, its bytes.
std::string make_checkpoint(const Corpus& c) {
  const auto r = c.train({"--max-updates", "2"});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  return rt::read_file(c.checkpoint);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(train_cli)

BOOST_AUTO_TEST_CASE(unaligned_files) {
  Corpus c;
  write_old_outputs(c);
  const auto short_target = c.dir.write("short.en", "a house\nthe house\na cat\n");
  const auto short_source = c.dir.write("short.de", "ein haus\n");
  const auto before = c.snapshot();
  check_bad_input(c.train_on(c.source, short_target, {"--overwrite"}), short_target + ": has 3 lines",
                  c.source + " has more (line 4)");
  check_bad_input(c.train_on(short_source, c.target, {"--overwrite"}), short_source + ": has 1 line,",
                  c.target + " has more (line 2)");
  BOOST_TEST((c.snapshot() == before));
}

BOOST_AUTO_TEST_CASE(empty_training_file_with_vocabularies) {
  Corpus c;
  const auto vocab_de = c.dir.write("vocab.de", "haus 5\nein 3\n");
  const auto vocab_en = c.dir.write("vocab.en", "house 5\na 3\n");
  const auto empty = c.dir.write("empty.en", "");
  const auto empty_source = c.dir.write("empty.de", "");
  write_old_outputs(c);
  const auto before = c.snapshot();
  check_bad_input(c.train_on(c.source, empty, {"-v", vocab_de, vocab_en, "--overwrite"}), empty + ": is empty",
                  "but " + c.source + " is not");
  check_bad_input(c.train_on(empty_source, empty, {"-v", vocab_de, vocab_en, "--overwrite"}), empty_source + ": is empty",
                  "(and so is " + empty + ")");
  BOOST_TEST((c.snapshot() == before));
}

// Without --vocabs the vocabularies come from the (empty) data: the corpus reader still
// reports the empty file before a model is built from them.
BOOST_AUTO_TEST_CASE(empty_training_file_without_vocabularies) {
  Corpus c;
  const auto empty = c.dir.write("empty.en", "");
  const auto before = c.snapshot();
  const auto r = c.train_on(c.source, empty, {});
  BOOST_TEST(r.exit_code == 1, r.err);
  BOOST_TEST(r.err.rfind("nmt-train: " + empty + ": is empty", 0) == 0u, r.err);
  BOOST_TEST((c.snapshot() == before));
}

BOOST_AUTO_TEST_CASE(long_pair_is_an_error_when_asked) {
  Corpus c;
  write_old_outputs(c);
  const auto before = c.snapshot();
  check_bad_input(c.train({"--max-length", "4", "--long-pairs", "error", "--overwrite"}), c.target + ":5: ",
                  "7 tokens, more than the length limit 4");
  BOOST_TEST((c.snapshot() == before));
  const auto skipped = c.train({"--max-length", "4", "--long-pairs", "skip", "--overwrite"});
  BOOST_TEST(skipped.exit_code == 0, skipped.err);
}

BOOST_AUTO_TEST_CASE(token_missing_from_the_vocabulary) {
  Corpus c;
  const auto vocab_de = c.path("vocab.de"), vocab_en = c.path("vocab.en");
  for (const auto& [text, vocab] : {std::pair{c.source, vocab_de}, std::pair{c.target, vocab_en}}) {
    const auto r = rt::run_process({rt::tool_path("nmt-vocab"), "-i", text, "-o", vocab});
    BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  }
  const std::string full = rt::read_file(vocab_de);
  BOOST_TEST_REQUIRE(full.find("katze ") != std::string::npos);
  c.dir.write("vocab.de", std::regex_replace(full, std::regex("(^|\n)katze [0-9]+\n"), "$1"));
  write_old_outputs(c);
  const auto before = c.snapshot();
  check_bad_input(c.train({"-v", vocab_de, vocab_en, "--overwrite"}), c.source + ":3: ",
                  "token 'katze' is not in the source vocabulary");
  BOOST_TEST((c.snapshot() == before));

  const auto accepted = c.train({"-v", vocab_de, vocab_en, "--overwrite", "--allow-unk"});
  BOOST_TEST_REQUIRE(accepted.exit_code == 0, accepted.err);
  BOOST_TEST(rt::read_file(c.model).rfind("RNNSRCH\n", 0) == 0u);
}

BOOST_AUTO_TEST_CASE(guided_alignment_file) {
  Corpus c;
  const std::string good = monotone_links();
  const auto links = c.dir.write("train.align", good);
  const auto malformed = c.dir.write("malformed.align", "0-0\n0-0 1=1\n");
  const auto outside = c.dir.write("outside.align", "0-0\n0-0\n0-0\n0-0\n3-0\n");
  const auto short_file = c.dir.write("short.align", "0-0\n0-0\n");
  const auto long_file = c.dir.write("long.align", good + "0-0\n");
  write_old_outputs(c);
  const auto before = c.snapshot();
  check_bad_input(c.train({"--guided-alignment", malformed, "--overwrite"}), malformed + ":2: ",
                  "malformed alignment pair '1=1'");
  check_bad_input(c.train({"--guided-alignment", outside, "--overwrite"}), outside + ":5: ",
                  "link 3-0 is outside the pair: 3 source words, 7 target words");
  check_bad_input(c.train({"--guided-alignment", short_file, "--overwrite"}), short_file + ":3: ",
                  "the alignment file has 2 lines, but " + c.source + " has more");
  check_bad_input(c.train({"--guided-alignment", long_file, "--overwrite"}), long_file + ":13: ",
                  "more lines than " + c.source + " (12 lines)");
  check_bad_input(c.train({"--guided-alignment", c.path("missing.align"), "--overwrite"}), c.path("missing.align"), "");
  check_usage_error(c.train({"--guided-alignment", links, "--guided-alignment-weight", "0", "--overwrite"}),
                    "--guided-alignment-weight must be > 0");
  BOOST_TEST((c.snapshot() == before));

  // A good file trains, and the data summary counts its links (no --quiet).
  const auto trained = rt::run_process({rt::tool_path("nmt-train"), "-t", c.source, c.target, "-m", c.model,
                                        "--dim-emb", "8", "--dim-enc", "8", "--dim-dec", "8", "--dim-att", "8",
                                        "--dim-maxout", "8", "--max-updates", "3", "--overwrite",
                                        "--guided-alignment", links},
                                       c.dir.path().string());
  BOOST_TEST(trained.exit_code == 0, trained.err);
  BOOST_TEST(trained.err.find("guided alignment: 30 links on 12 pairs from " + links + " (weight 0.1)\n") !=
                 std::string::npos,
             trained.err);
}

// Fine-tuning: the pretrained model's parameters are where training starts (a learning
// rate too small to move them leaves the model decoding as the pretrained one), and
// vocabularies other than its own are refused.
BOOST_AUTO_TEST_CASE(pretrained_model_is_the_starting_point_of_fine_tuning) {
  Corpus c;
  BOOST_TEST_REQUIRE(c.train({"--max-updates", "30", "--seed", "5"}).exit_code == 0);
  const std::string pretrained = c.path("pretrained.bin");
  std::filesystem::rename(c.model, pretrained);
  std::filesystem::remove(c.checkpoint);
  const auto tuned = c.train({"--pretrained-model", pretrained, "--max-updates", "1", "-l", "1e-12", "--seed", "9"});
  BOOST_TEST_REQUIRE(tuned.exit_code == 0, tuned.err);
  auto decode = [&](const std::string& model) {
    const auto result = rt::run_process({rt::tool_path("nmt-decode"), "-m", model, "-i", c.source, "-q"});
    BOOST_TEST_REQUIRE(result.exit_code == 0, result.err);
    BOOST_TEST_REQUIRE(!result.out.empty());
    return result.out;
  };
  BOOST_TEST(decode(c.model) == decode(pretrained));
  const std::string other_vocab = c.dir.write("other.vocab", "haus 3\nkatze 2\n");
  const auto refused = c.train({"--pretrained-model", pretrained, "-v", other_vocab, other_vocab, "--overwrite"});
  BOOST_TEST(refused.exit_code == 1);
  BOOST_TEST(refused.err.find(pretrained + ": has other vocabularies than --vocabs") != std::string::npos, refused.err);
}

// --alignment-head: a head trained over the frozen --pretrained-model (translation is
// unchanged, the decoder's attention too), read by nmt-align by default; asked for
// without a model or links, or with another size than the model's, it is refused.
BOOST_AUTO_TEST_CASE(alignment_head_trains_over_a_frozen_pretrained_model) {
  Corpus c;
  const auto links = c.dir.write("train.align", monotone_links());
  BOOST_TEST_REQUIRE(c.train({"--max-updates", "30", "--seed", "5"}).exit_code == 0);
  const std::string pretrained = c.path("pretrained.bin");
  std::filesystem::rename(c.model, pretrained);
  std::filesystem::remove(c.checkpoint);

  check_usage_error(c.train({"--alignment-head", "8", "--guided-alignment", links}), "--pretrained-model");
  check_usage_error(c.train({"--alignment-head", "8", "--pretrained-model", pretrained}), "--guided-alignment");
  const auto head = c.train({"--pretrained-model", pretrained, "--alignment-head", "8", "--guided-alignment", links,
                             "--max-updates", "20", "-l", "0.01"});
  BOOST_TEST_REQUIRE(head.exit_code == 0, head.err);

  auto run = [&](const std::string& tool, const std::vector<std::string>& args) {
    std::vector<std::string> argv = {rt::tool_path(tool)};
    argv.insert(argv.end(), args.begin(), args.end());
    return rt::run_process(argv, c.dir.path().string());
  };
  // A run whose output is compared: equal outputs of two failures would prove nothing.
  auto ok = [&](const std::string& tool, const std::vector<std::string>& args) {
    auto result = run(tool, args);
    BOOST_TEST_REQUIRE(result.exit_code == 0, tool << " failed: " << result.err);
    BOOST_TEST_REQUIRE(!result.out.empty(), tool << " printed nothing");
    return result;
  };
  BOOST_TEST(ok("nmt-decode", {"-m", c.model, "-i", c.source, "-q"}).out ==
             ok("nmt-decode", {"-m", pretrained, "-i", c.source, "-q"}).out);
  const auto align = [&](const std::string& model, const std::string& weights) {
    return run("nmt-align", {"-m", model, "-s", c.source, "-t", c.target, "--mode", "soft", "--attention-source", weights});
  };
  const auto aligned = [&](const std::string& model, const std::string& weights) {
    return ok("nmt-align", {"-m", model, "-s", c.source, "-t", c.target, "--mode", "soft", "--attention-source", weights});
  };
  BOOST_TEST(aligned(c.model, "decoder").out == aligned(pretrained, "decoder").out);
  BOOST_TEST(aligned(c.model, "auto").out == aligned(c.model, "head").out);
  BOOST_TEST(aligned(c.model, "head").out != aligned(c.model, "decoder").out);
  // nmt-decode --alignment reads the head too: the same translations, and as links the
  // head's hard alignment of each (source, translation) pair, as nmt-align gives it.
  const auto decoded = run("nmt-decode", {"-m", c.model, "-i", c.source, "-q", "--alignment", "hard"});
  BOOST_TEST_REQUIRE(decoded.exit_code == 0, decoded.err);
  std::string translations, decoded_links;
  for (std::size_t start = 0, end; (end = decoded.out.find('\n', start)) != std::string::npos; start = end + 1) {
    const std::string line = decoded.out.substr(start, end - start);
    const auto bar = line.find(" ||| ");
    translations += line.substr(0, bar) + "\n";
    decoded_links += line.substr(bar + 5) + "\n";
  }
  BOOST_TEST(translations == ok("nmt-decode", {"-m", pretrained, "-i", c.source, "-q"}).out);
  const auto hypotheses = c.dir.write("hypotheses.en", translations);
  BOOST_TEST(decoded_links == ok("nmt-align", {"-m", c.model, "-s", c.source, "-t", hypotheses, "--mode", "hard"}).out);
  const auto decoder_links = ok("nmt-decode", {"-m", c.model, "-i", c.source, "-q", "--alignment", "hard",
                                              "--attention-source", "decoder"});
  BOOST_TEST(decoder_links.out == ok("nmt-decode", {"-m", pretrained, "-i", c.source, "-q", "--alignment", "hard"}).out);
  const auto no_head = run("nmt-decode", {"-m", pretrained, "-i", c.source, "-q", "--alignment", "hard",
                                          "--attention-source", "head"});
  BOOST_TEST(no_head.exit_code == 1);
  BOOST_TEST(no_head.err.find(pretrained + ": has no alignment head (nmt-train --alignment-head) for --alignment") !=
                 std::string::npos, no_head.err);
  BOOST_TEST(run("nmt-decode", {"-m", c.model, "-i", c.source, "--attention-source", "both"}).exit_code == 2);
  const auto missing = align(pretrained, "head");
  BOOST_TEST(missing.exit_code == 1);
  BOOST_TEST(missing.err.find(pretrained + ": has no alignment head") != std::string::npos, missing.err);

  check_usage_error(c.train({"--resume", "--alignment-head", "4", "--guided-alignment", links, "--max-updates", "30"}),
                    "--alignment-head 4 differs from " + c.checkpoint + ", trained with --alignment-head 8");
}

// A resumed run keeps what the checkpoint fixes (architecture, seed...): a command line
// that gives one of them another value is refused, and one that leaves them out gets the
// checkpoint's, in the run and in what MODEL stores. Options that may change (the budget,
// validation) are stored with the change recorded.
BOOST_AUTO_TEST_CASE(resume_refuses_another_architecture_and_records_what_changed) {
  Corpus c;
  BOOST_TEST_REQUIRE(c.train({"--seed", "7"}).exit_code == 0);
  const auto before = c.snapshot();
  const auto resume = [&c](const std::vector<std::string>& args) {
    std::vector<std::string> argv = {rt::tool_path("nmt-train"), "-t", c.source, c.target, "-m", c.model, "--resume", "--mini-batch", "4", "-q"};
    argv.insert(argv.end(), args.begin(), args.end());
    return rt::run_process(argv, c.dir.path().string());
  };
  check_usage_error(resume({"--dim-emb", "64", "--max-updates", "5"}),
                    "--dim-emb 64 differs from " + c.checkpoint + ", trained with --dim-emb 8");
  check_usage_error(resume({"--attention", "dot"}),
                    "--attention dot differs from " + c.checkpoint + ", trained with --attention additive");
  check_usage_error(resume({"--seed", "1234"}), "--seed 1234 differs from " + c.checkpoint + ", trained with --seed 7");
  check_usage_error(resume({"--vocabs", c.source, c.target}),
                    "--vocabs " + c.source + " " + c.target + " differs from " + c.checkpoint + ", trained with --vocabs none");
  BOOST_TEST((c.snapshot() == before));

  // --dump-config under --resume shows the options the resumed run would have.
  const auto dumped = rt::run_process({rt::tool_path("nmt-train"), "--dump-config", "--resume", "-t", c.source, c.target,
                                       "-m", c.model, "--max-updates", "5"}, c.dir.path().string());
  BOOST_TEST(dumped.out.find("\ndim-emb = 8\n") != std::string::npos, dumped.out);
  BOOST_TEST(dumped.out.find("\nseed = 7\n") != std::string::npos, dumped.out);

  // The same sizes given again are no change; the run goes on as the seed-7 run would.
  BOOST_TEST_REQUIRE(resume({"--dim-emb", "8", "--max-updates", "5", "--valid-freq", "7"}).exit_code == 0);
  const auto stored = rt::run_process({rt::tool_path("nmt-train"), "--dump-config", "-m", c.model});
  BOOST_TEST(stored.out.rfind("# resumed after update 3 with max-updates = 5 (was 3), valid-freq = 7 (was 500)\n", 0) == 0u,
             stored.out);
  for (const char* line : {"\ndim-emb = 8\n", "\ndim-dec = 8\n", "\nattention = additive\n", "\nseed = 7\n",
                           "\nmax-updates = 5\n", "\nresume = false\n"}) {
    BOOST_TEST(stored.out.find(line) != std::string::npos, line << " in " << stored.out);
  }
  Corpus whole;
  BOOST_TEST_REQUIRE(whole.train({"--seed", "7", "--max-updates", "5", "--valid-freq", "7"}).exit_code == 0);
  const auto parameters = [](const std::string& model) {
    std::vector<float> values;
    const auto loaded = rnnsearch::model::read_model_file(model);
    for (const auto* p : loaded.model->parameters().all()) {
      values.insert(values.end(), p->value.data(), p->value.data() + p->value.size());
    }
    return values;
  };
  BOOST_TEST((parameters(c.model) == parameters(whole.model)), "the resumed seed-7 run's parameters differ");
}

// A checkpoint whose stored options say another architecture than its model has (what an
// earlier version stored after a resumption that was given other sizes): the model is
// the truth, and the record is mended.
BOOST_AUTO_TEST_CASE(resume_checks_the_architecture_against_the_model_not_its_record) {
  Corpus c;
  BOOST_TEST_REQUIRE(c.train({}).exit_code == 0);
  std::string bytes = rt::read_file(c.checkpoint);
  const std::string told = "\ndim-emb = 8\n", lie = "\ndim-emb = 9\n";
  BOOST_TEST_REQUIRE(bytes.find(told) != std::string::npos);
  bytes.replace(bytes.find(told), told.size(), lie);
  constexpr std::size_t kHeader = 40, kHashAt = 32;  // model/model_file.cc's Header
  const std::uint64_t hash = rnnsearch::model::payload_hash(std::string_view(bytes).substr(kHeader));
  std::memcpy(bytes.data() + kHashAt, &hash, sizeof(hash));
  c.dir.write("model.bin.ckpt", bytes);
  const auto resume = [&c](const std::vector<std::string>& args) {
    std::vector<std::string> argv = {rt::tool_path("nmt-train"), "-t", c.source, c.target, "-m", c.model, "--resume",
                                     "--mini-batch", "4", "-q", "--max-updates", "4"};
    argv.insert(argv.end(), args.begin(), args.end());
    return rt::run_process(argv, c.dir.path().string());
  };
  check_usage_error(resume({"--dim-emb", "9"}), "--dim-emb 9 differs from " + c.checkpoint + ", trained with --dim-emb 8");
  BOOST_TEST_REQUIRE(resume({}).exit_code == 0);
  const auto stored = rt::run_process({rt::tool_path("nmt-train"), "--dump-config", "-m", c.model});
  BOOST_TEST(stored.out.find("\ndim-emb = 8\n") != std::string::npos, stored.out);
  BOOST_TEST(stored.out.find("dim-emb = 8 (was 9)") != std::string::npos, stored.out);
}

BOOST_AUTO_TEST_CASE(resume_without_a_checkpoint) {
  Corpus c;
  check_bad_input(c.train({"--resume"}), c.checkpoint + ": ", "no checkpoint to resume from");
  BOOST_TEST((c.snapshot().count("model.bin") == 0u));
}

BOOST_AUTO_TEST_CASE(resume_from_a_truncated_checkpoint) {
  Corpus c;
  const std::string good = make_checkpoint(c);
  c.dir.write("model.bin.ckpt", good.substr(0, good.size() / 2));
  const auto before = c.snapshot();
  check_bad_input(c.train({"--resume", "--max-updates", "4"}), c.checkpoint + ": ", "truncated");
  BOOST_TEST((c.snapshot() == before));
}

BOOST_AUTO_TEST_CASE(resume_from_a_corrupted_checkpoint) {
  Corpus c;
  std::string bytes = make_checkpoint(c);
  bytes[bytes.size() / 2] = static_cast<char>(bytes[bytes.size() / 2] ^ 0x5a);
  c.dir.write("model.bin.ckpt", bytes);
  const auto before = c.snapshot();
  check_bad_input(c.train({"--resume", "--max-updates", "4"}), c.checkpoint + ": ", "checksum");
  BOOST_TEST((c.snapshot() == before));
}

BOOST_AUTO_TEST_CASE(resume_from_a_newer_format_version) {
  Corpus c;
  std::string bytes = make_checkpoint(c);
  BOOST_TEST_REQUIRE(bytes.rfind("RNNSRCH\n", 0) == 0u);
  std::uint32_t version = 0;  // the uint32 after the 8-byte magic, in the writer's byte order
  std::memcpy(&version, bytes.data() + 8, sizeof(version));
  ++version;
  std::memcpy(bytes.data() + 8, &version, sizeof(version));
  c.dir.write("model.bin.ckpt", bytes);
  const auto before = c.snapshot();
  check_bad_input(c.train({"--resume", "--max-updates", "4"}), c.checkpoint + ": ",
                  "version " + std::to_string(version) + " is newer");
  BOOST_TEST((c.snapshot() == before));
}

BOOST_AUTO_TEST_CASE(non_finite_loss_names_the_update_and_keeps_the_last_save) {
  Corpus c;
  // Adam's first step moves every weight by about the learning rate: 1e30 without
  // clipping overflows the next update's loss.
  const auto r = c.train({"--learning-rate", "1e30", "--clip-norm", "0", "--save-freq", "1", "--max-updates", "20"});
  check_bad_input(r, "update ", "is not finite");
  std::smatch match;
  BOOST_TEST_REQUIRE(std::regex_search(r.err, match, std::regex("^nmt-train: update ([0-9]+): ")), r.err);
  const long failed = std::stol(match[1]);
  BOOST_TEST_REQUIRE(failed >= 2);
  BOOST_TEST_REQUIRE(std::filesystem::exists(c.checkpoint));
  // The checkpoint of the update before is whole: resuming it up to its own update works.
  const auto resumed =
      c.train({"--resume", "--learning-rate", "1e30", "--clip-norm", "0", "--max-updates", std::to_string(failed - 1)});
  BOOST_TEST(resumed.exit_code == 0, resumed.err);
}

BOOST_AUTO_TEST_CASE(existing_model_is_refused_without_resume_or_overwrite) {
  Corpus c;
  c.dir.write("model.bin", "old model\n");
  const auto before = c.snapshot();
  check_bad_input(c.train({}), c.model + ": exists", "--resume");
  BOOST_TEST((c.snapshot() == before));

  c.dir.write("model.bin.ckpt", "old checkpoint\n");
  const auto with_checkpoint = c.snapshot();
  check_bad_input(c.train({}), c.checkpoint + ": exists", "--overwrite");
  BOOST_TEST((c.snapshot() == with_checkpoint));

  const auto replaced = c.train({"--overwrite"});
  BOOST_TEST_REQUIRE(replaced.exit_code == 0, replaced.err);
  BOOST_TEST(rt::read_file(c.model).rfind("RNNSRCH\n", 0) == 0u);
  BOOST_TEST(rt::read_file(c.checkpoint).rfind("RNNSRCH\n", 0) == 0u);
}

BOOST_AUTO_TEST_CASE(usage_errors_exit_2_and_write_nothing) {
  Corpus c;
  const auto before = c.snapshot();
  check_usage_error(c.train({"--dropout", "1.5"}), "--dropout");
  check_usage_error(c.train({"--long-pairs", "drop"}), "--long-pairs");
  check_usage_error(c.train({"--max-updates", "0"}), "nothing would end training");
  const auto luong = c.train({"--attention", "luong"});
  check_usage_error(luong, "--attention must be one of additive, dot, general, none, got 'luong'");
  const auto links = c.path("train.align");  // need not exist: refused before any file is read
  check_usage_error(c.train({"--attention", "none", "--guided-alignment", links}), "--guided-alignment needs attention");
  const auto one_file = rt::run_process({rt::tool_path("nmt-train"), "-t", c.source, "-m", c.model, "--max-updates", "3"});
  check_usage_error(one_file, "--train-sets");
  const auto no_files = rt::run_process({rt::tool_path("nmt-train"), "-m", c.model, "--max-updates", "3"});
  check_usage_error(no_files, "--train-sets");
  BOOST_TEST((c.snapshot() == before));
}

BOOST_AUTO_TEST_SUITE_END()
