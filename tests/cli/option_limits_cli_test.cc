// Every numeric option of every tool has a range: a value outside it (NaN and the
// infinities included) is a usage error, exit 2, naming the option, its range and the
// value, before any file is read. And the inputs that used to crash, hang or allocate
// gigabytes: each now gives one line naming the file (and line), or works.
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "support/address_space_cap.h"
#include "support/reversal_model.h"
#include "support/run_process.h"
#include "support/temp_dir.h"

namespace rt = rnnsearch::testing;

namespace {

struct Cell {
  std::vector<std::string> argv;  // tool name first
  std::string message;            // the start of the one message line after "TOOL: "
};

// The cells: one per numeric option, each with a value outside its range.
std::vector<Cell> out_of_range_cells() {
  const std::vector<std::string> decode = {"nmt-decode", "-m", "no-model.bin"};
  const std::vector<std::string> train = {"nmt-train", "--train-sets", "a.src", "a.tgt", "--max-updates", "1"};
  const std::vector<std::string> extract = {"nmt-align", "-m", "no-model.bin", "-s", "a.src", "-t", "a.tgt"};
  const std::vector<std::string> ibm2 = {"nmt-align", "ibm2", "-s", "a.src", "-t", "a.tgt"};
  const std::vector<std::string> bleu = {"nmt-bleu", "ref.txt", "-i", "hyp.txt"};
  const std::vector<std::string> by_length = {"nmt-by-length", "-s", "a.src", "-r", "ref.txt", "-i", "hyp.txt"};
  const std::vector<std::string> terms = {"nmt-terms", "-r", "ref.txt", "-i", "hyp.txt", "-t", "terms.txt"};
  const std::vector<std::string> glossary = {"nmt-glossary", "extract", "-s", "a.src", "-t", "a.tgt", "-a", "a.links"};
  auto with = [](std::vector<std::string> base, std::vector<std::string> more) {
    base.insert(base.end(), more.begin(), more.end());
    return base;
  };
  return {
      {with(decode, {"--beam-size", "1000000"}), "--beam-size must be in [1, 1000], got 1000000"},
      {with(decode, {"--beam-size", "0"}), "--beam-size must be in [1, 1000], got 0"},
      {with(decode, {"--beam-size", "4", "--n-best", "5"}), "--n-best must be in [0, 4], got 5"},
      {with(decode, {"--length-penalty", "nan"}), "--length-penalty must be in [0, 10], got nan"},
      {with(decode, {"--max-length-ratio", "1e10"}), "--max-length-ratio must be in [0.01, 100], got 1e+10"},
      {with(decode, {"--max-length-ratio", "inf"}), "--max-length-ratio must be in [0.01, 100], got inf"},
      {with(decode, {"--max-length", "20000"}), "--max-length must be in [0, 10000], got 20000"},
      {with(decode, {"--max-length=-1"}), "--max-length must be in [0, 10000], got -1"},
      {with(decode, {"--mini-batch", "0"}), "--mini-batch must be in [1, 1000], got 0"},
      {with(decode, {"--language-warning", "nan"}), "--language-warning must be in [0, 100], got nan"},
      {with(decode, {"--maxi-batch", "100000"}), "--maxi-batch must be in [1, 1000], got 100000"},
      {with(decode, {"--threads", "100000"}), "--threads must be in [0, 1024], got 100000"},
      {with(train, {"--learning-rate", "nan"}), "--learning-rate must be in [0, 3.40282e+38], got nan"},
      {with(train, {"--seed=-1"}), "--seed must be in [0, 18446744073709551615], got -1"},
      {with(train, {"--max-length", "0"}), "--max-length must be in [1, 1000], got 0"},
      {with(train, {"--max-length=-1"}), "--max-length must be in [1, 1000], got -1"},
      {with(train, {"--src-vocab-size", "100000000"}), "--src-vocab-size must be in [5, 10000000], got 100000000"},
      {with(train, {"--mini-batch=-3"}), "--mini-batch must be in [0, 100000], got -3"},
      {with(train, {"--mini-batch-words=-1"}), "--mini-batch-words must be in [0, 10000000], got -1"},
      {with(train, {"--sort-window", "0"}), "--sort-window must be in [1, 100000], got 0"},
      {with(train, {"--warmup=-1"}), "--warmup must be in [0, 1000000000], got -1"},
      {with(train, {"--lr-decay", "nan"}), "--lr-decay must be in [0, 1], got nan"},
      {with(train, {"--lr-decay-patience=-1"}), "--lr-decay-patience must be in [0, 1000000], got -1"},
      {with(train, {"--clip-norm", "inf"}), "--clip-norm must be in [0, 1e+06], got inf"},
      {with(train, {"--dropout", "nan"}), "--dropout must be in [0, 0.99], got nan"},
      {with(train, {"--label-smoothing=-0.1"}), "--label-smoothing must be in [0, 0.99], got -0.1"},
      {with(train, {"--guided-alignment-weight", "nan"}), "--guided-alignment-weight must be in [0, 1000], got nan"},
      {with(train, {"--max-epochs=-1"}), "--max-epochs must be in [0, 1000000000], got -1"},
      {with(train, {"--max-minutes", "nan"}), "--max-minutes must be in [0, 1e+08], got nan"},
      {with(train, {"--valid-freq", "0"}), "--valid-freq must be in [1, 1000000000000], got 0"},
      {with(train, {"--save-freq", "0"}), "--save-freq must be in [1, 1000000000000], got 0"},
      {with(train, {"--log-freq", "0"}), "--log-freq must be in [1, 1000000000000], got 0"},
      {with(train, {"--early-stopping=-1"}), "--early-stopping must be in [0, 1000000], got -1"},
      {with(train, {"--dim-emb", "100000"}), "--dim-emb must be in [1, 8192], got 100000"},
      {with(train, {"--dim-att", "0"}), "--dim-att must be in [1, 8192], got 0"},
      {with(extract, {"--threshold", "nan"}), "--threshold must be in [0, 1], got nan"},
      {with(extract, {"--mini-batch", "0"}), "--mini-batch must be in [1, 1000], got 0"},
      {with(extract, {"--language-warning", "150"}), "--language-warning must be in [0, 100], got 150"},
      {{"nmt-align", "combine", "-i", "a", "-j", "b", "--threshold", "2"}, "--threshold must be in [0, 1], got 2"},
      {with(ibm2, {"--iterations", "0"}), "--iterations must be in [1, 1000], got 0"},
      {with(ibm2, {"--p-null", "nan"}), "--p-null must be in [0.0001, 0.9999], got nan"},
      {with(ibm2, {"--tension", "inf"}), "--tension must be in [0.0001, 10000], got inf"},
      {with(ibm2, {"--alpha=-1"}), "--alpha must be in [0, 1000], got -1"},
      {with(bleu, {"--smooth-value", "nan"}), "--smooth-value must be in [0, 1000], got nan"},
      {with(bleu, {"--confidence-n", "1000000000"}), "--confidence-n must be in [1, 1000000], got 1000000000"},
      {with(bleu, {"--paired-bs-n", "0"}), "--paired-bs-n must be in [1, 1000000], got 0"},
      {with(bleu, {"--paired-ar-n", "0"}), "--paired-ar-n must be in [1, 1000000], got 0"},
      {with(bleu, {"--paired-jobs=-1"}), "--paired-jobs must be in [0, 1024], got -1"},
      {with(bleu, {"--num-refs", "5000"}), "--num-refs must be in [1, 1000], got 5000"},
      {with(bleu, {"--chrf-beta=-1"}), "--chrf-beta must be in [0, 100], got -1"},
      {with(by_length, {"--bucket-width", "0"}), "--bucket-width must be in [1, 1000], got 0"},
      {with(by_length, {"--max-length=-1"}), "--max-length must be in [1, 10000], got -1"},
      {with(terms, {"--width", "21"}), "--width must be in [0, 20], got 21"},
      {with(terms, {"--threads", "100000"}), "--threads must be in [0, 1024], got 100000"},
      {with(glossary, {"--min-count", "0"}), "--min-count must be in [1, 1000000000], got 0"},
      {with(glossary, {"--min-share", "nan"}), "--min-share must be in [0, 1], got nan"},
      {with(glossary, {"--max-length", "11"}), "--max-length must be in [1, 10], got 11"},
      {with(glossary, {"--min-letters=-1"}), "--min-letters must be in [0, 100], got -1"},
      {{"nmt-demo-corpus", "-o", "out", "--train", "100000000000"}, "--train must be in [0, 10000000], got 100000000000"},
      {{"nmt-demo-corpus", "-o", "out", "--seed=-1"}, "--seed must be in [0, 18446744073709551615], got -1"},
      {{"nmt-bpe", "learn", "--symbols=-1"}, "--symbols must be in [0, 10000000], got -1"},
      {{"nmt-bpe", "learn", "--min-frequency=-1"}, "--min-frequency must be in [0, 1000000000], got -1"},
      {{"nmt-bpe", "apply", "-c", "codes", "--merges=-2"}, "--merges must be in [-1, 1000000000], got -2"},
      {{"nmt-bpe", "apply", "-c", "codes", "--vocabulary-threshold=-1"},
       "--vocabulary-threshold must be in [0, 1000000000000000000], got -1"},
      {{"nmt-vocab", "--min-count=-1"}, "--min-count must be in [0, 1000000000000000000], got -1"},
      {{"nmt-vocab", "--max-size=-1"}, "--max-size must be in [0, 18446744073709551615], got -1"},
      {{"nmt-tokenize", "--batch-lines", "0"}, "--batch-lines must be in [1, 1000000], got 0"},
      {{"nmt-align", "heatmap", "-m", "m", "-s", "a", "-t", "b", "--lines", "99999999999999999999"},
       "--lines takes 1-based line numbers in [1, 999999999]"},
  };
}

// Every command with its own --help: each tool, and each subcommand of those that have them.
const std::vector<std::vector<std::string>> kCommands = {
    {"nmt-align"}, {"nmt-align", "symmetrize"}, {"nmt-align", "combine"}, {"nmt-align", "ibm2"},
    {"nmt-align", "hmm"}, {"nmt-align", "eval"}, {"nmt-align", "heatmap"}, {"nmt-average"}, {"nmt-bleu"},
    {"nmt-bpe", "learn"}, {"nmt-bpe", "apply"}, {"nmt-bpe", "undo"}, {"nmt-by-length"}, {"nmt-clean"},
    {"nmt-decode"}, {"nmt-demo-corpus"}, {"nmt-detokenize"}, {"nmt-glossary", "match"},
    {"nmt-glossary", "extract"}, {"nmt-score"}, {"nmt-score", "rerank"}, {"nmt-shortlist"}, {"nmt-terms"},
    {"nmt-tokenize"}, {"nmt-train"}, {"nmt-vocab"}};

// Numeric options whose --help shows no number: read as text, a number or a word.
const std::map<std::string, std::vector<std::string>> kTextNumbers = {{"nmt-bleu", {"smooth-value", "seed"}}};

// The long options of `command` whose --help default is a number, and its kTextNumbers.
std::vector<std::string> numeric_options(const std::vector<std::string>& command) {
  std::vector<std::string> argv = {rt::tool_path(command[0])};
  argv.insert(argv.end(), command.begin() + 1, command.end());
  argv.push_back("--help");
  const auto help = rt::run_process(argv);
  BOOST_TEST_REQUIRE(help.exit_code == 0, command[0] << " --help: " << help.err);
  const std::regex row(R"(^  (?:-[A-Za-z0-9] \[ )?--([a-z0-9-]+)(?: \])? arg \(=-?[0-9][0-9.e+-]*\))");
  std::vector<std::string> options;
  std::istringstream lines(help.out);
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (std::regex_search(line, m, row)) options.push_back(m[1]);
  }
  if (command.size() == 1 && kTextNumbers.count(command[0])) {
    for (const auto& name : kTextNumbers.at(command[0])) options.push_back(name);
  }
  return options;
}

}  // namespace

// Whatever else the command line lacks, a numeric option given an empty value or one too
// large for any number type is refused as it is read: exit 2, naming the option. Never
// taken as "not given", nor as the largest value of its type.
BOOST_AUTO_TEST_CASE(every_numeric_option_refuses_an_empty_or_overflowing_value) {
  rt::TempDir dir;
  const std::string overflowing = "1" + std::string(400, '0');  // above 1.8e308, the largest double
  std::size_t checked = 0;
  for (const auto& command : kCommands) {
    std::string name = command[0];
    for (std::size_t i = 1; i < command.size(); ++i) name += " " + command[i];
    const auto options = numeric_options(command);
    // --threads at least: none means the help's rows were not recognised.
    BOOST_TEST(!options.empty(), name << ": no numeric option found in --help");
    for (const auto& option : options) {
      for (const std::string& value : {std::string(), overflowing}) {
        std::vector<std::string> argv = {rt::tool_path(command[0])};
        argv.insert(argv.end(), command.begin() + 1, command.end());
        argv.insert(argv.end(), {"--" + option, value});
        const auto r = rt::run_process(argv, dir.path().string());
        const std::string call = name + " --" + option + (value.empty() ? " ''" : " 1000...");
        BOOST_TEST(r.exit_code == 2, call << ": exit " << r.exit_code << ", " << r.err);
        BOOST_TEST(r.err.find("--" + option) != std::string::npos, call << ": " << r.err);
        ++checked;
      }
    }
  }
  BOOST_TEST(checked >= 100u);
}

BOOST_AUTO_TEST_CASE(every_numeric_option_refuses_values_outside_its_range) {
  rt::TempDir dir;
  for (const Cell& cell : out_of_range_cells()) {
    std::vector<std::string> argv = cell.argv;
    argv[0] = rt::tool_path(argv[0]);
    const auto r = rt::run_process(argv, dir.path().string(), "");
    std::string line = cell.argv[0];
    for (std::size_t i = 1; i < cell.argv.size(); ++i) line += " " + cell.argv[i];
    BOOST_TEST(r.exit_code == 2, line << ": exit " << r.exit_code << ", " << r.err);
    const std::string expected = cell.argv[0] + ": " + cell.message;
    BOOST_TEST(r.err.rfind(expected, 0) == 0, line << ": " << r.err);
  }
}

BOOST_AUTO_TEST_CASE(a_directory_given_as_an_input_file_is_refused_by_name) {
  rt::TempDir dir;
  const std::string d = dir.path().string();
  for (const auto& argv : std::vector<std::vector<std::string>>{
           {"nmt-bpe", "apply", "-c", d},
           {"nmt-tokenize", "--nonbreaking-prefixes", d},
           {"nmt-decode", "-m", d},
           {"nmt-vocab", "-i", d}}) {
    std::vector<std::string> run = argv;
    run[0] = rt::tool_path(run[0]);
    const auto r = rt::run_process(run, "", "a b\n");
    BOOST_TEST(r.exit_code == 1, argv[0] << ": " << r.err);
    BOOST_TEST(r.err == argv[0] + ": " + d + ": is a directory\n", argv[0] << ": " << r.err);
  }
}

BOOST_AUTO_TEST_CASE(an_empty_vocabulary_file_is_refused_by_name) {
  rt::TempDir dir;
  const auto src = dir.write("a.src", "w1 w2\n"), tgt = dir.write("a.tgt", "w2 w1\n");
  const auto vocab = dir.write("empty.vocab", ""), full = dir.write("full.vocab", "w1 1\nw2 1\n");
  const auto r = rt::run_process({rt::tool_path("nmt-train"), "--train-sets", src, tgt, "--vocabs", vocab, full,
                                  "--max-updates", "1", "-m", (dir.path() / "m.bin").string(), "-q"});
  BOOST_TEST(r.exit_code == 1, r.err);
  BOOST_TEST(r.err.find(vocab + ": is empty") != std::string::npos, r.err);
}

BOOST_AUTO_TEST_CASE(a_runaway_line_is_an_error_naming_file_and_line) {
  rt::ReversalModel m;
  std::string huge;
  for (int i = 0; i < 20000; ++i) huge += "w1 ";
  const auto src = m.dir.write("long.src", "w1 w2\n" + huge + "\n"), tgt = m.dir.write("long.tgt", "w2 w1\nw1\n");
  const auto decoded = rt::run_process({rt::tool_path("nmt-decode"), "-m", m.model, "-i", src, "--max-length", "0", "-q"});
  BOOST_TEST(decoded.exit_code == 1, decoded.err);
  BOOST_TEST(decoded.err.rfind("nmt-decode: " + src + ":2: 20000 pieces", 0) == 0, decoded.err);
  for (const std::vector<std::string>& command :
       {std::vector<std::string>{"-m", m.model}, std::vector<std::string>{"ibm2"}}) {
    std::vector<std::string> argv = {rt::tool_path("nmt-align")};
    argv.insert(argv.end(), command.begin(), command.end());
    argv.insert(argv.end(), {"-s", src, "-t", tgt, "-q"});
    const auto started = std::chrono::steady_clock::now();
    const auto r = rt::run_process(argv);
    BOOST_TEST(r.exit_code == 1, r.err);
    BOOST_TEST(r.err.rfind("nmt-align: " + src + ":2: 20000 pieces", 0) == 0, r.err);
    const bool quick = std::chrono::steady_clock::now() - started < std::chrono::seconds(20);
    BOOST_TEST(quick, "nmt-align " << command[0] << " took 20 s or more");
  }
}

BOOST_AUTO_TEST_CASE(symmetrize_does_not_allocate_a_grid_from_link_indices) {
  rt::TempDir dir;
  const auto f = dir.write("f.align", "50000-50000 0-0\n1-1\n"), r = dir.write("r.align", "50000-50000 1-0\n1-1 2-2\n");
  const std::string capped = rt::address_space_cap(1000000) + "exec \"$0\" symmetrize -i \"$1\" -j \"$2\"";
  const auto out = rt::run_process({"/bin/sh", "-c", capped, rt::tool_path("nmt-align"), f, r});
  BOOST_TEST(out.exit_code == 0, out.err);
  BOOST_TEST(out.out == "0-0 50000-50000\n1-1 2-2\n");
}

BOOST_AUTO_TEST_CASE(heatmap_labels_are_whole_and_well_formed_xml) {
  rt::ReversalModel m;
  const std::string long_token(2000, 'w');
  const auto src = m.dir.write("h.src", std::string("w1 a\x01" "b w2\n")), tgt = m.dir.write("h.tgt", long_token + " w1\n");
  const std::string svg = (m.dir.path() / "h.svg").string();
  const auto r = rt::run_process({rt::tool_path("nmt-align"), "heatmap", "-m", m.model, "-s", src, "-t", tgt, "-o", svg,
                                  "-q"});
  BOOST_TEST(r.exit_code == 0, r.err);
  const auto xml = rt::run_process({"/bin/sh", "-c", "cat \"$0\"", svg}).out;
  BOOST_TEST(xml.find(">" + long_token + "</text>") != std::string::npos);
  BOOST_TEST(xml.find(">a\xEF\xBF\xBD" "b</text>") != std::string::npos);
  for (const char c : xml) {
    const auto u = static_cast<unsigned char>(c);
    BOOST_TEST((u >= 0x20 || c == '\n' || c == '\t' || c == '\r'), "control byte " << int(u) << " in the SVG");
    if (u < 0x20 && c != '\n' && c != '\t' && c != '\r') break;
  }
}
