// nmt-bpe: byte-pair encoding as subword-nmt does it.
//   nmt-bpe learn -s 8000 < train.tok > codes      (subword-nmt learn-bpe)
//   nmt-bpe apply -c codes < text.tok > text.bpe   (subword-nmt apply-bpe)
//   nmt-bpe undo < text.bpe > text.tok             (sed -r 's/(@@ )|(@@ ?$)//g')
#include <iostream>
#include <sstream>

#include "text/bpe_apply.h"
#include "text/bpe_codes.h"
#include "text/bpe_learn.h"
#include "text/bpe_undo.h"
#include "text/vocab_counts.h"
#include "util/atomic_file.h"
#include "util/cli.h"
#include "util/error.h"
#include "util/line_pipeline.h"
#include "util/option_range.h"
#include "util/progress_meter.h"

namespace po = boost::program_options;
using rnnsearch::util::UsageError;

namespace {

const char* kUsage =
    "Usage: nmt-bpe learn [-i FILE...] [-o CODES] [-s N] [--min-frequency N]\n"
    "       nmt-bpe apply -c CODES [-i FILE] [-o FILE] [--vocabulary FILE --vocabulary-threshold N]\n"
    "                     [--glossaries WORD...] [-s SEP]\n"
    "       nmt-bpe undo [-i FILE] [-o FILE] [-s SEP]\n"
    "Learns, applies and undoes byte-pair encoding exactly as subword-nmt does.\n";

const rnnsearch::util::ToolInfo kTool{"nmt-bpe", kUsage, ""};

int learn(const std::vector<std::string>& args) {
  rnnsearch::text::BpeLearnOptions cfg;
  rnnsearch::util::CommonOptions common;
  std::vector<std::string> inputs;
  std::string output = "-";
  bool dict_input = false, replace_invalid = false;
  int num_workers = 1;
  po::options_description options("nmt-bpe learn");
  options.add_options()
      ("input,i", po::value(&inputs)->multitoken(), "tokenized text file(s), joint BPE when several (default stdin)")
      ("output,o", po::value(&output)->default_value(output), "codes file (- = stdout), written atomically")
      ("symbols,s", po::value(&cfg.symbols)->default_value(cfg.symbols), "number of merge operations")
      ("min-frequency", po::value(&cfg.min_frequency)->default_value(cfg.min_frequency),
       "stop when the best pair occurs fewer times")
      ("total-symbols,t", po::bool_switch(&cfg.total_symbols),
       "count the characters of the alphabet towards --symbols")
      ("dict-input", po::bool_switch(&dict_input), "input files hold 'word count' lines instead of text")
      ("num-workers", po::value(&num_workers)->default_value(num_workers),
       "accepted for subword-nmt compatibility; learning runs on one thread")
      ("replace-invalid", po::bool_switch(&replace_invalid),
       "replace invalid UTF-8 with U+FFFD instead of failing");
  rnnsearch::util::add_common_options(options, common);
  if (rnnsearch::util::parse_command_line(kTool, args, options, common)) return rnnsearch::util::kExitOk;
  rnnsearch::util::check_range("symbols", cfg.symbols, 0, 10000000);
  rnnsearch::util::check_range("min-frequency", cfg.min_frequency, 0, 1000000000);
  rnnsearch::util::check_range("num-workers", num_workers, -1, rnnsearch::util::kMaxThreads);

  std::vector<rnnsearch::text::WordCount> words;
  rnnsearch::util::ProgressMeter reading("nmt-bpe learn", "lines", !common.quiet);
  if (dict_input) {
    for (const auto& path : inputs.empty() ? std::vector<std::string>{"-"} : inputs) {
      for (auto& w : rnnsearch::text::read_vocab(path)) words.push_back(std::move(w));
    }
  } else {
    const auto invalid = replace_invalid ? rnnsearch::util::InvalidUtf8::kReplace : rnnsearch::util::InvalidUtf8::kError;
    words = inputs.empty()
                ? rnnsearch::text::count_words({"-"}, rnnsearch::text::LineBreaks::kUniversal, invalid, &reading)
                : rnnsearch::text::count_words(inputs, rnnsearch::text::LineBreaks::kSplitlines, invalid, &reading);
  }
  reading.finish();
  rnnsearch::util::ProgressMeter merging("nmt-bpe learn", "merges", !common.quiet,
                                         static_cast<std::uint64_t>(std::max(0, cfg.symbols)));
  const auto codes = rnnsearch::text::learn_bpe(words, cfg, &merging);
  merging.finish();
  std::ostringstream text;
  rnnsearch::text::write_bpe_codes(text, codes);
  rnnsearch::util::AtomicFileWriter writer(output);
  writer.write(text.str());
  writer.commit();
  return rnnsearch::util::kExitOk;
}

int apply(const std::vector<std::string>& args) {
  rnnsearch::text::BpeApplyOptions cfg;
  rnnsearch::util::CommonOptions common;
  rnnsearch::util::LinePipelineOptions pipeline;
  std::string codes_path, input = "-", output = "-", vocabulary;
  int merges = -1, num_workers = 0;
  po::options_description options("nmt-bpe apply");
  options.add_options()
      ("codes,c", po::value(&codes_path), "codes file from nmt-bpe learn or subword-nmt (required)")
      ("input,i", po::value(&input)->default_value(input), "tokenized text (- = stdin)")
      ("output,o", po::value(&output)->default_value(output), "output (- = stdout), written atomically")
      ("merges", po::value(&merges)->default_value(merges), "use only the first N merges (-1 = all)")
      ("separator,s", po::value(&cfg.separator)->default_value(cfg.separator), "marks a piece that is not word-final")
      ("vocabulary", po::value(&vocabulary), "vocabulary file ('token count'): split pieces not in it")
      ("vocabulary-threshold", po::value(&cfg.vocabulary_threshold)->default_value(cfg.vocabulary_threshold),
       "pieces seen fewer times in the vocabulary count as unknown")
      ("glossaries", po::value(&cfg.glossaries)->multitoken(), "words never split (literal strings)")
      ("num-workers", po::value(&num_workers)->default_value(num_workers), "same as --threads when above 0")
      ("replace-invalid", po::bool_switch(&pipeline.replace_invalid),
       "replace invalid UTF-8 with U+FFFD instead of failing");
  rnnsearch::util::add_common_options(options, common);
  if (rnnsearch::util::parse_command_line(kTool, args, options, common)) return rnnsearch::util::kExitOk;
  if (codes_path.empty()) throw UsageError("nmt-bpe apply needs --codes FILE");
  rnnsearch::util::check_range("merges", merges, -1, 1000000000);
  rnnsearch::util::check_range<std::int64_t>("vocabulary-threshold", cfg.vocabulary_threshold, 0, 1000000000000000000);
  rnnsearch::util::check_range("num-workers", num_workers, -1, rnnsearch::util::kMaxThreads);
  if (cfg.separator.empty()) throw UsageError("--separator must not be empty");

  auto codes = rnnsearch::text::read_bpe_codes(codes_path);
  if (merges >= 0 && static_cast<std::size_t>(merges) < codes.merges.size()) codes.merges.resize(merges);
  if (!vocabulary.empty()) cfg.vocabulary = rnnsearch::text::read_vocab_map(vocabulary);
  const rnnsearch::text::BpeApplier applier(std::move(codes), cfg);
  pipeline.threads = num_workers > 0 ? num_workers : common.resolved_threads();
  pipeline.progress_tool = common.quiet ? "" : "nmt-bpe apply";
  rnnsearch::util::map_lines(input, output, pipeline, [&applier](std::string_view line) { return applier.apply(line); });
  return rnnsearch::util::kExitOk;
}

int undo(const std::vector<std::string>& args) {
  rnnsearch::util::CommonOptions common;
  rnnsearch::util::LinePipelineOptions pipeline;
  std::string input = "-", output = "-", separator = "@@";
  po::options_description options("nmt-bpe undo");
  options.add_options()
      ("input,i", po::value(&input)->default_value(input), "BPE'd text (- = stdin)")
      ("output,o", po::value(&output)->default_value(output), "output (- = stdout), written atomically")
      ("separator,s", po::value(&separator)->default_value(separator), "the separator to remove")
      ("replace-invalid", po::bool_switch(&pipeline.replace_invalid),
       "replace invalid UTF-8 with U+FFFD instead of failing");
  rnnsearch::util::add_common_options(options, common);
  if (rnnsearch::util::parse_command_line(kTool, args, options, common)) return rnnsearch::util::kExitOk;
  pipeline.threads = common.resolved_threads();
  pipeline.progress_tool = common.quiet ? "" : "nmt-bpe undo";
  rnnsearch::util::map_lines(input, output, pipeline,
                             [&separator](std::string_view line) { return rnnsearch::text::undo_bpe(line, separator); });
  return rnnsearch::util::kExitOk;
}

int run(int argc, char** argv) {
  const std::string command = argc > 1 ? argv[1] : "";
  const std::vector<std::string> rest(argv + std::min(argc, 2), argv + argc);
  if (command == "learn" || command == "learn-bpe") return learn(rest);
  if (command == "apply" || command == "apply-bpe") return apply(rest);
  if (command == "undo") return undo(rest);
  if (command == "--help" || command == "-h") {
    std::cout << kUsage << "\nRun 'nmt-bpe COMMAND --help' for the options of a command.\n";
    return rnnsearch::util::kExitOk;
  }
  if (command == "--version") {
    std::cout << rnnsearch::util::version_line("nmt-bpe") << "\n";
    return rnnsearch::util::kExitOk;
  }
  throw UsageError(command.empty() ? "a command is needed: learn, apply or undo"
                                   : "unknown command '" + command + "' (learn, apply or undo)");
}

}  // namespace

int main(int argc, char** argv) {
  return rnnsearch::util::run_tool("nmt-bpe", [&] { return run(argc, argv); });
}
