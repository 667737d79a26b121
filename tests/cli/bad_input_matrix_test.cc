// Every tool against every class of bad input, as one table. Each cell names a command
// line (with files of a fixture), the exit code the tools document (0 success, 1 bad
// input, 2 usage error) and, for a failure, what its one stderr line must name (a file,
// its line, an option). Every cell also checks what no cell may do: die by a signal,
// abort, print "terminate called", print more than one line when it fails, or leave a
// partial or temporary output file; a success keeps one output line per input line.
#include <boost/test/unit_test.hpp>

#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>

#include "model/model_file.h"
#include "support/golden_cases.h"
#include "support/reversal_model.h"
#include "support/run_process.h"
#include "support/temp_dir.h"

namespace rt = rnnsearch::testing;
namespace fs = std::filesystem;

namespace {

// The files every cell may name, as "{name}" in its arguments.
struct Fixture {
  rt::ReversalModel reversal;  // a small trained model, with its checkpoint
  rt::TempDir dir;
  std::map<std::string, std::string> files;

  Fixture() {
    const std::string ten_mb_line(10 << 20, 'x');
    const std::string long_word(100000, 'w');
    add("good", "w1 w2 w3\nw4 w5\n");
    add("good3", "w1 w2 w3\nw4 w5\nw6\n");                 // one line more than good
    add("invalid_utf8", "w1 w2\nw3 \xff w4\n");           // line 2
    add("nul", std::string("w1 \0 w2\nw3\n", 11));        // U+0000 is a character
    add("crlf", "w1 w2\r\nw3\r\n");
    add("no_final_newline", "w1 w2\nw3");
    add("empty", "");
    add("huge_line", "w1\n" + ten_mb_line + "\n");        // line 2: 10 MB, one word
    add("long_word", "w1 " + long_word + " w2\nw3\n");    // a 100,000-character word
    add("blank_lines", "   \n\t\n\xe2\x80\x8b\xe2\x80\x8c\n\xe2\x80\x8b\n");  // spaces, tab, zero-width only
    add("codes_good", "#version: 0.2\nw 1</w>\nw 2\n");
    add("codes_bad", "#version: 0.2\nw 1\nonly-one-field\n");           // line 3
    add("vocab_bad", "w1 5\nw2 many\n");                                // line 2
    add("align_good", "0-0 1-1\n0-0\n");
    add("align_bad", "0-0 1-1\n0-x\n");                                 // line 2
    add("gold_bad", "0-0 1?1\n0~0\n");                                  // line 2
    add("glossary_good", "w1\tv1\nw4 w5\tv4\n");
    add("glossary_bad", "w1\tv1\nw2 v2\n");                             // line 2
    add("model_foreign", "this is not a model\n");
    add("model_newer", newer_version(rt::read_file(reversal.model)));
    add("model_truncated", rt::read_file(reversal.model).substr(0, 200));
    // --resume reads MODEL.ckpt: a truncated one, and a model file where a checkpoint belongs.
    files["resume_truncated"] = (dir.path() / "resume_truncated.bin").string();
    dir.write("resume_truncated.bin.ckpt", rt::read_file(reversal.model + ".ckpt").substr(0, 1000));
    files["resume_foreign"] = (dir.path() / "resume_foreign.bin").string();
    dir.write("resume_foreign.bin.ckpt", rt::read_file(reversal.model));
    add("same", "w1 w2 w3\nw4 w5\n");  // given as both input and output
    files["model"] = reversal.model;
    files["missing"] = (dir.path() / "no-such-file").string();
    files["a_directory"] = dir.path().string();
    files["missing_dir_out"] = (dir.path() / "no-such-dir" / "out").string();
    files["out"] = (dir.path() / "out.txt").string();
    // Checksum-valid models whose target vocabulary holds a token no tool could have
    // read: printed, it would break the line count or the encoding.
    files["model_newline_token"] = with_target_token("model_newline_token.bin", "w3\nw9");
    files["model_invalid_token"] = with_target_token("model_invalid_token.bin", "w3\xff");
    // nmt-clean's corpus (CORPUS.xa, CORPUS.xb) and where it writes (CLEAN.xa, CLEAN.xb).
    dir.write("corpus.xa", "w1 w2 w3\nw4 w5\n");
    dir.write("corpus.xb", "v1 v2\nv3 v4 v5\n");
    files["corpus"] = (dir.path() / "corpus").string();
    files["clean"] = (dir.path() / "clean").string();
    // Output names as long as the file system takes, and one byte longer.
    files["longest_out"] = (dir.path() / std::string(255, 'o')).string();
    files["too_long_out"] = (dir.path() / std::string(256, 'o')).string();
  }

  // What a failed run must not leave: -o {out}, nmt-clean's CLEAN.xa and CLEAN.xb.
  std::vector<std::string> outputs() const { return {files.at("out"), files.at("clean") + ".xa", files.at("clean") + ".xb"}; }

  void add(const std::string& name, const std::string& bytes) { files[name] = dir.write(name + ".txt", bytes); }

  // The reversal model written again with its target token "w3" replaced by `token`.
  std::string with_target_token(const std::string& name, const std::string& token) const {
    namespace model = rnnsearch::model;
    const model::LoadedModel loaded = model::read_model_file(reversal.model);
    std::vector<std::string> tokens = loaded.target_vocabulary.tokens();
    tokens.erase(tokens.begin(), tokens.begin() + rnnsearch::data::Vocabulary::kSpecials);
    std::replace(tokens.begin(), tokens.end(), std::string("w3"), token);
    const std::string path = (dir.path() / name).string();
    model::write_model_file(path, model::FileKind::kModel, *loaded.model, loaded.source_vocabulary,
                            rnnsearch::data::Vocabulary(tokens), loaded.training_options);
    return path;
  }

  // The model file with its format version raised: the header's version field follows
  // the 8-byte magic as a little-endian 32-bit integer (model_file.cc).
  static std::string newer_version(std::string bytes) {
    if (bytes.size() > 12) bytes[8] = static_cast<char>(bytes[8] + 50);
    return bytes;
  }

  std::string expand(const std::string& arg) const {
    if (arg.size() > 2 && arg.front() == '{' && arg.back() == '}') return files.at(arg.substr(1, arg.size() - 2));
    return arg;
  }
};

struct Cell {
  std::string tool;               // "nmt-tokenize"
  std::vector<std::string> args;  // "{name}" is a fixture file
  int exit_code;                  // as documented
  std::string names;              // a failure's message contains this ("{file}:2:", "--beam-size", ...)
  int lines_out = -1;             // a success writes this many lines to stdout (or -o {out}); -1: not checked
};

// The fixture files that a command line names, for "lines out" checks and names.
std::string expanded(const Fixture& f, const std::string& text) {
  std::string out = text;
  for (const auto& [name, path] : f.files) {
    const std::string key = "{" + name + "}";
    for (std::size_t at; (at = out.find(key)) != std::string::npos;) out.replace(at, key.size(), path);
  }
  return out;
}

std::size_t count_lines(const std::string& text) { return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')); }

std::vector<Cell> cells() {
  std::vector<Cell> c;
  // Line tools on each class of text input: stdout has one line per input line.
  const std::vector<std::pair<std::string, std::vector<std::string>>> line_tools = {
      {"nmt-tokenize", {"-l", "en", "-i"}},         {"nmt-detokenize", {"-l", "en", "-i"}},
      {"nmt-bpe", {"apply", "-c", "{codes_good}", "-i"}},
      {"nmt-bpe", {"undo", "-i"}},                  {"nmt-vocab", {"-i"}},
      {"nmt-glossary", {"match", "-g", "{glossary_good}", "-i"}},
  };
  for (const auto& [tool, prefix] : line_tools) {
    const bool vocab = tool == "nmt-vocab";
    auto with = [&, tool = tool, prefix = prefix](const std::string& file) {
      std::vector<std::string> args = prefix;
      args.push_back("{" + file + "}");
      return args;
    };
    c.push_back({tool, with("invalid_utf8"), 1, "{invalid_utf8}:2:"});
    c.push_back({tool, with("nul"), 0, "", vocab ? -1 : 2});
    c.push_back({tool, with("crlf"), 0, "", vocab ? -1 : 2});
    c.push_back({tool, with("no_final_newline"), 0, "", vocab ? -1 : 2});
    c.push_back({tool, with("empty"), 0, "", 0});
    c.push_back({tool, with("huge_line"), 0, "", vocab ? -1 : 2});
    c.push_back({tool, with("long_word"), 0, "", vocab ? -1 : 2});
    c.push_back({tool, with("blank_lines"), 0, "", vocab ? -1 : 4});
    c.push_back({tool, with("missing"), 1, "{missing}"});
    c.push_back({tool, with("a_directory"), 1, "{a_directory}"});
  }
  // Outputs: a missing directory, a full device, the input itself.
  for (const std::string& tool : std::vector<std::string>{"nmt-tokenize", "nmt-detokenize", "nmt-vocab"}) {
    c.push_back({tool, {"-i", "{good}", "-o", "{missing_dir_out}"}, 1, "{missing_dir_out}"});
    c.push_back({tool, {"-i", "{good}", "-o", "/dev/full"}, 1, "/dev/full"});
  }
  c.push_back({"nmt-bpe", {"undo", "-i", "{good}", "-o", "/dev/full"}, 1, "/dev/full"});
  // The same file as input and output: read whole before the rename replaces it.
  c.push_back({"nmt-tokenize", {"-l", "en", "-i", "{same}", "-o", "{same}"}, 0, ""});
  c.push_back({"nmt-bpe", {"apply", "-c", "{codes_good}", "-i", "{same}", "-o", "{same}"}, 0, ""});
  c.push_back({"nmt-decode", {"-m", "{model}", "-i", "{good}", "-o", "/dev/full"}, 1, "/dev/full"});
  c.push_back({"nmt-align", {"symmetrize", "-i", "{align_good}", "-j", "{align_good}", "-o", "/dev/full"}, 1,
               "/dev/full"});

  // Malformed codes, vocabularies, alignments and gold links name their line.
  c.push_back({"nmt-bpe", {"apply", "-c", "{codes_bad}", "-i", "{good}"}, 1, "{codes_bad}:3:"});
  c.push_back({"nmt-bpe", {"apply", "-c", "{a_directory}", "-i", "{good}"}, 1, "{a_directory}"});
  c.push_back({"nmt-bpe", {"apply", "-c", "{missing}", "-i", "{good}"}, 1, "{missing}"});
  c.push_back({"nmt-train", {"-t", "{good}", "{good}", "-v", "{vocab_bad}", "{vocab_bad}", "-m", "{out}", "--max-updates", "1"}, 1,
               "{vocab_bad}:2:"});
  c.push_back({"nmt-train", {"-t", "{good}", "{good}", "-v", "{empty}", "{empty}", "-m", "{out}", "--max-updates", "1"}, 1, "{empty}"});
  c.push_back({"nmt-align", {"symmetrize", "-i", "{align_bad}", "-j", "{align_good}"}, 1, "{align_bad}:2:"});
  c.push_back({"nmt-align", {"symmetrize", "-i", "{align_good}", "-j", "{good3}"}, 1, "{good3}"});
  c.push_back({"nmt-align", {"eval", "-g", "{gold_bad}", "-a", "{align_good}"}, 1, "{gold_bad}:2:"});
  c.push_back({"nmt-align", {"eval", "-g", "{align_good}", "-a", "{align_bad}"}, 1, "{align_bad}:2:"});
  c.push_back({"nmt-glossary", {"match", "-g", "{glossary_bad}", "-i", "{good}"}, 1, "{glossary_bad}:2:"});
  c.push_back({"nmt-glossary", {"match", "-g", "{missing}", "-i", "{good}"}, 1, "{missing}"});
  c.push_back({"nmt-glossary", {"match", "-g", "{glossary_good}", "-i", "{good}", "-o", "/dev/full"}, 1, "/dev/full"});
  c.push_back({"nmt-glossary", {"extract", "-s", "{good}", "-t", "{good}", "-a", "{align_bad}"}, 1, "{align_bad}:2:"});
  c.push_back({"nmt-glossary", {"extract", "-s", "{invalid_utf8}", "-t", "{good}", "-a", "{align_good}"}, 1,
               "{invalid_utf8}:2:"});
  c.push_back({"nmt-glossary", {"extract", "-s", "{good}", "-t", "{good}", "-a", "{align_good}", "--min-count", "1",
                                "--min-letters", "0", "-o", "/dev/full"}, 1, "/dev/full"});
  c.push_back({"nmt-terms", {"-r", "{good}", "-i", "{good}", "-t", "{invalid_utf8}"}, 1, "{invalid_utf8}:2:"});
  c.push_back({"nmt-terms", {"-r", "{good}", "-i", "{good}", "-t", "{missing}"}, 1, "{missing}"});
  c.push_back({"nmt-terms", {"-r", "{good}", "-i", "{good}", "-t", "{good}", "-o", "/dev/full"}, 1, "/dev/full"});

  // Mismatched line counts name both files.
  c.push_back({"nmt-align", {"-m", "{model}", "-s", "{good}", "-t", "{good3}"}, 1, "{good3}"});
  c.push_back({"nmt-bleu", {"{good}", "-i", "{good3}"}, 1, "{good3}"});
  c.push_back({"nmt-train", {"-t", "{good}", "{good3}", "-m", "{out}", "--max-updates", "1"}, 1, "{good3}"});
  c.push_back({"nmt-by-length", {"-s", "{good}", "-r", "{good}", "-i", "{good3}"}, 1, "{good3}"});
  c.push_back({"nmt-terms", {"-r", "{good}", "-i", "{good}", "-t", "{good3}"}, 1, "{good3}"});
  c.push_back({"nmt-terms", {"-r", "{good3}", "-i", "{good}", "-t", "{good}"}, 1, "{good3}"});
  c.push_back({"nmt-glossary", {"extract", "-s", "{good}", "-t", "{good3}", "-a", "{align_good}"}, 1, "{good3}"});
  c.push_back({"nmt-score", {"-m", "{model}", "-s", "{good}", "-t", "{good3}"}, 1, "{good3}"});

  // Model and checkpoint files: foreign, truncated, newer, a directory, missing.
  for (const std::string& model : std::vector<std::string>{"model_foreign", "model_truncated", "model_newer", "a_directory", "missing"}) {
    c.push_back({"nmt-decode", {"-m", "{" + model + "}", "-i", "{good}"}, 1, "{" + model + "}"});
    c.push_back({"nmt-align", {"-m", "{" + model + "}", "-s", "{good}", "-t", "{good}"}, 1, "{" + model + "}"});
    c.push_back({"nmt-score", {"-m", "{" + model + "}", "-s", "{good}", "-t", "{good}"}, 1, "{" + model + "}"});
  }
  for (const std::string& resume : std::vector<std::string>{"resume_truncated", "resume_foreign"}) {
    c.push_back({"nmt-train", {"-t", "{good}", "{good}", "-m", "{" + resume + "}", "--resume", "--max-updates", "1"}, 1,
                 "{" + resume + "}.ckpt"});
  }
  c.push_back({"nmt-train", {"-t", "{good}", "{good}", "--pretrained-model", "{model_truncated}", "-m", "{out}", "--max-updates", "1"}, 1,
               "{model_truncated}"});

  for (const std::string& model : std::vector<std::string>{"model_newline_token", "model_invalid_token"}) {
    c.push_back({"nmt-decode", {"-m", "{" + model + "}", "-i", "{good}"}, 1, "{" + model + "}: damaged: target vocabulary token"});
    c.push_back({"nmt-align", {"-m", "{" + model + "}", "-s", "{good}", "-t", "{good}"}, 1, "{" + model + "}: damaged"});
    c.push_back({"nmt-score", {"-m", "{" + model + "}", "-s", "{good}", "-t", "{good}"}, 1, "{" + model + "}: damaged"});
  }

  // Model tools on text classes: invalid UTF-8 names the line; the rest translate.
  c.push_back({"nmt-decode", {"-m", "{model}", "-i", "{invalid_utf8}"}, 1, "{invalid_utf8}:2:"});
  for (const std::string& text : std::vector<std::string>{"nul", "crlf", "no_final_newline", "long_word", "blank_lines", "empty"}) {
    const int lines = text == "blank_lines" ? 4 : text == "empty" ? 0 : 2;
    c.push_back({"nmt-decode", {"-m", "{model}", "-q", "-i", "{" + text + "}"}, 0, "", lines});
    c.push_back({"nmt-align", {"-m", "{model}", "-q", "-s", "{" + text + "}", "-t", "{" + text + "}"}, 0, "", lines});
  }
  c.push_back({"nmt-align", {"-m", "{model}", "-s", "{invalid_utf8}", "-t", "{good}"}, 1, "{invalid_utf8}:2:"});
  c.push_back({"nmt-score", {"-m", "{model}", "-s", "{good}", "-t", "{invalid_utf8}"}, 1, "{invalid_utf8}:2:"});
  c.push_back({"nmt-score", {"-m", "{model}", "-s", "{good}", "--n-best", "{good}"}, 1, "{good}:1:"});

  // Absurd option values are usage errors naming the option.
  c.push_back({"nmt-decode", {"-m", "{model}", "-i", "{good}", "--beam-size", "0"}, 2, "--beam-size"});
  c.push_back({"nmt-decode", {"-m", "{model}", "-i", "{good}", "--beam-size", "1000000"}, 2, "--beam-size"});
  c.push_back({"nmt-decode", {"-m", "{model}", "-i", "{good}", "--mini-batch", "0"}, 2, "--mini-batch"});
  c.push_back({"nmt-decode", {"-m", "{model}", "-i", "{good}", "--threads", "-1"}, 2, "--threads"});
  c.push_back({"nmt-decode", {"-m", "{model}", "-i", "{good}", "--length-penalty", "nan"}, 2, "--length-penalty"});
  c.push_back({"nmt-decode", {"-m", "{model}", "-i", "{good}", "--max-length-ratio", "1e10"}, 2, "--max-length-ratio"});
  c.push_back({"nmt-decode", {"-m", "{model}", "-q", "-i", "{good}", "--threads", "0"}, 0, "", 2});  // 0: one per core
  c.push_back({"nmt-align", {"-m", "{model}", "-s", "{good}", "-t", "{good}", "--mini-batch", "0"}, 2, "--mini-batch"});
  c.push_back({"nmt-score", {"-m", "{model}", "-s", "{good}", "-t", "{good}", "--mini-batch", "0"}, 2, "--mini-batch"});
  c.push_back({"nmt-score", {"-m", "{model}", "-s", "{good}", "-t", "{good}", "--normalize", "nan"}, 2, "--normalize"});
  c.push_back({"nmt-score", {"-m", "{model}", "-s", "{good}", "-t", "{good}", "--weights", "0"}, 2, "--weights"});
  c.push_back({"nmt-align", {"-m", "{model}", "-s", "{good}", "-t", "{good}", "--threshold", "nan"}, 2, "--threshold"});
  c.push_back({"nmt-train", {"-t", "{good}", "{good}", "-m", "{out}", "--max-updates", "1", "--learning-rate", "nan"}, 2, "--learning-rate"});
  c.push_back({"nmt-train", {"-t", "{good}", "{good}", "-m", "{out}", "--max-updates", "1", "--mini-batch", "0"}, 2, "--mini-batch"});
  c.push_back({"nmt-bpe", {"learn", "-i", "{good}", "-s", "-5"}, 2, "-s"});
  c.push_back({"nmt-bleu", {"{good}", "-i", "{good}", "--smooth-value", "nan"}, 2, "--smooth-value"});
  c.push_back({"nmt-align", {"heatmap", "-m", "{model}", "-s", "{good}", "-t", "{good}", "--lines",
                             "99999999999999999999"}, 2, "--lines"});
  c.push_back({"nmt-tokenize", {"--no-such-option"}, 2, "--no-such-option"});

  // Several outputs of one run: one that cannot be written leaves none of the others.
  c.push_back({"nmt-clean", {"-q", "{corpus}", "xa", "xb", "{clean}", "1", "50", "/dev/full"}, 1, "/dev/full"});
  c.push_back({"nmt-clean", {"-q", "--aligned", "{good}", "/dev/full", "{corpus}", "xa", "xb", "{clean}", "1", "50"}, 1,
               "/dev/full"});
  // An output name as long as the file system takes is written (its temporary file's name
  // cut to fit); a longer one is refused before any work.
  c.push_back({"nmt-tokenize", {"-l", "en", "-i", "{good}", "-o", "{longest_out}"}, 0, ""});
  c.push_back({"nmt-decode", {"-m", "{model}", "-q", "-i", "{good}", "-o", "{longest_out}"}, 0, ""});
  c.push_back({"nmt-tokenize", {"-l", "en", "-i", "{good}", "-o", "{too_long_out}"}, 1, "{too_long_out}: file name of 256 bytes"});
  c.push_back({"nmt-decode", {"-m", "{model}", "-i", "{good}", "-o", "{too_long_out}"}, 1, "{too_long_out}: file name of 256 bytes"});
  // A value or an option holding a placeholder of Boost's messages: once in the message,
  // not substituted again and again (this hung).
  c.push_back({"nmt-decode", {"-m", "{model}", "-i", "{good}", "-b", "%value%"}, 2, "('%value%') for option '--beam-size'"});
  c.push_back({"nmt-decode", {"-m", "{model}", "-i", "{good}", "--%option%"}, 2, "unrecognised option '--%option%'"});

  // Numbers given as text, outputs that are one file, a prefix file that is not UTF-8 text.
  // An empty or overflowing number is a usage error, never "not given" or the largest value.
  c.push_back({"nmt-bleu", {"{good}", "-i", "{good}", "-s", "add-k", "--smooth-value", ""}, 2, "--smooth-value"});
  c.push_back({"nmt-bleu", {"{good}", "-i", "{good}", "--confidence", "--seed", ""}, 2, "--seed"});
  c.push_back({"nmt-bleu", {"{good}", "-i", "{good}", "--confidence", "--seed", "99999999999999999999999"}, 2, "--seed"});
  c.push_back({"nmt-bleu", {"{good}", "-i", "{good}", "--smooth-value", "0x10"}, 2, "--smooth-value"});
  // Two outputs naming one file: refused before either is written.
  c.push_back({"nmt-by-length", {"-s", "{good}", "-r", "{good}", "-i", "{good}", "--svg", "{out}", "-o", "{out}"}, 2,
               "--svg"});
  c.push_back({"nmt-align", {"ibm2", "-s", "{good}", "-t", "{good}", "-o", "{out}", "--save-table", "{out}"}, 2,
               "--save-table"});
  c.push_back({"nmt-align", {"hmm", "-s", "{good}", "-t", "{good}", "-o", "{out}", "--save-params", "{out}"}, 2,
               "--save-params"});
  c.push_back({"nmt-demo-corpus", {"-o", "{missing}", "--source-language", "align"}, 2, "--source-language"});
  c.push_back({"nmt-tokenize", {"--nonbreaking-prefixes", "{invalid_utf8}", "-i", "{good}"}, 1, "{invalid_utf8}:2:"});
  return c;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(bad_input_matrix)

BOOST_AUTO_TEST_CASE(every_tool_against_every_class_of_bad_input) {
  const Fixture f;
  std::size_t checked = 0;
  for (const Cell& cell : cells()) {
    std::vector<std::string> argv = {rt::tool_path(cell.tool)};
    for (const auto& a : cell.args) argv.push_back(f.expand(a));
    std::string shown = cell.tool;
    for (const auto& a : cell.args) shown += " " + a;
    BOOST_TEST_CONTEXT(shown) {
      for (const std::string& output : f.outputs()) fs::remove(output);
      const auto start = std::chrono::steady_clock::now();
      const auto r = rt::run_process(argv, f.dir.path().string());
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      BOOST_TEST_MESSAGE(shown << ": exit " << r.exit_code << " in " << seconds << " s");
      ++checked;
      BOOST_TEST(r.exit_code == cell.exit_code, "exit " << r.exit_code << ": " << r.err.substr(0, 300));
      BOOST_TEST(r.exit_code < 128, "killed by signal " << r.exit_code - 128);
      BOOST_TEST(r.err.find("terminate called") == std::string::npos, r.err.substr(0, 300));
      BOOST_TEST(r.err.find("Assertion") == std::string::npos, r.err.substr(0, 300));
      if (cell.exit_code != 0) {
        // One line; a usage error may add the "Try 'nmt-x --help'" hint as a second.
        const bool hint = cell.exit_code == 2 && r.err.find("\nTry '") != std::string::npos;
        BOOST_TEST(count_lines(r.err) == (hint ? 2u : 1u), r.err.substr(0, 500));
        BOOST_TEST(r.err.rfind(cell.tool + ": ", 0) == 0u, r.err.substr(0, 300));
        BOOST_TEST(r.err.find(expanded(f, cell.names)) != std::string::npos,
                   "expected '" << cell.names << "' in: " << r.err.substr(0, 300));
        for (const std::string& output : f.outputs()) BOOST_TEST(!fs::exists(output), "a failed run left " << output);
      } else if (cell.lines_out >= 0) {
        BOOST_TEST(count_lines(r.out) == static_cast<std::size_t>(cell.lines_out), r.out.substr(0, 200));
      }
      if (std::find(cell.args.begin(), cell.args.end(), "{same}") != cell.args.end()) {
        BOOST_TEST(count_lines(rt::read_file(f.files.at("same"))) == 2u, "the file given as input and output");
      }
      // No temporary file is left beside any output.
      for (const auto& entry : fs::directory_iterator(f.dir.path())) {
        BOOST_TEST(entry.path().filename().string().find(".tmp.") == std::string::npos, entry.path());
      }
    }
  }
  BOOST_TEST_MESSAGE(checked << " cells");
}

BOOST_AUTO_TEST_SUITE_END()
