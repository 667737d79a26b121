// nmt-bpe: byte-pair encoding as subword-nmt does it.
//   nmt-bpe learn -s 8000 < train.tok > codes      (subword-nmt learn-bpe)
//   nmt-bpe apply -c codes < text.tok > text.bpe   (subword-nmt apply-bpe)
//   nmt-bpe undo < text.bpe > text.tok             (sed -r 's/(@@ )|(@@ ?$)//g')
#include "text/bpe_files.h"
#include "text/bpe_undo.h"
#include "tools/support/subcommands.h"
#include "tools/support/tool_entry.h"
#include "util/error.h"
#include "util/line_pipeline.h"

namespace po = boost::program_options;

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
  po::options_description options("nmt-bpe learn");
  options.add_options()
      ("input,i", po::value(&cfg.inputs)->multitoken(),
       "tokenized text file(s), joint BPE when several (default stdin)")
      ("output,o", po::value(&cfg.output)->default_value(cfg.output), "codes file (- = stdout), written atomically")
      ("symbols,s", po::value(&cfg.symbols)->default_value(cfg.symbols), "number of merge operations")
      ("min-frequency", po::value(&cfg.min_frequency)->default_value(cfg.min_frequency),
       "stop when the best pair occurs fewer times")
      ("total-symbols,t", po::bool_switch(&cfg.total_symbols),
       "count the characters of the alphabet towards --symbols")
      ("dict-input", po::bool_switch(&cfg.dict_input), "input files hold 'word count' lines instead of text")
      ("num-workers", po::value(&cfg.num_workers)->default_value(cfg.num_workers),
       "accepted for subword-nmt compatibility; learning runs on one thread")
      ("replace-invalid", po::bool_switch(&cfg.replace_invalid),
       "replace invalid UTF-8 with U+FFFD instead of failing");
  rnnsearch::util::add_common_options(options, common);
  if (rnnsearch::tools::parse_command_line(kTool, args, options, common)) return rnnsearch::util::kExitOk;
  rnnsearch::text::learn_bpe_file(cfg, common.quiet ? "" : "nmt-bpe learn");
  return rnnsearch::util::kExitOk;
}

int apply(const std::vector<std::string>& args) {
  rnnsearch::text::BpeApplyOptions cfg;
  rnnsearch::util::CommonOptions common;
  rnnsearch::util::LinePipelineOptions pipeline;
  po::options_description options("nmt-bpe apply");
  options.add_options()
      ("codes,c", po::value(&cfg.codes), "codes file from nmt-bpe learn or subword-nmt (required)")
      ("input,i", po::value(&cfg.input)->default_value(cfg.input), "tokenized text (- = stdin)")
      ("output,o", po::value(&cfg.output)->default_value(cfg.output), "output (- = stdout), written atomically")
      ("merges", po::value(&cfg.merges)->default_value(cfg.merges), "use only the first N merges (-1 = all)")
      ("separator,s", po::value(&cfg.separator)->default_value(cfg.separator), "marks a piece that is not word-final")
      ("vocabulary", po::value(&cfg.vocabulary_file), "vocabulary file ('token count'): split pieces not in it")
      ("vocabulary-threshold", po::value(&cfg.vocabulary_threshold)->default_value(cfg.vocabulary_threshold),
       "pieces seen fewer times in the vocabulary count as unknown")
      ("glossaries", po::value(&cfg.glossaries)->multitoken(), "words never split (literal strings)")
      ("num-workers", po::value(&cfg.num_workers)->default_value(cfg.num_workers), "same as --threads when above 0")
      ("replace-invalid", po::bool_switch(&pipeline.replace_invalid),
       "replace invalid UTF-8 with U+FFFD instead of failing");
  rnnsearch::util::add_common_options(options, common);
  if (rnnsearch::tools::parse_command_line(kTool, args, options, common)) return rnnsearch::util::kExitOk;
  pipeline.threads = common.resolved_threads();
  pipeline.progress_tool = common.quiet ? "" : "nmt-bpe apply";
  rnnsearch::text::apply_bpe_file(cfg, pipeline);
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
  if (rnnsearch::tools::parse_command_line(kTool, args, options, common)) return rnnsearch::util::kExitOk;
  pipeline.threads = common.resolved_threads();
  pipeline.progress_tool = common.quiet ? "" : "nmt-bpe undo";
  rnnsearch::util::map_lines(input, output, pipeline,
                             [&separator](std::string_view line) { return rnnsearch::text::undo_bpe(line, separator); });
  return rnnsearch::util::kExitOk;
}

int run(int argc, char** argv) {
  return rnnsearch::tools::run_subcommand(kTool,
                                          {{"learn", learn},
                                           {"apply", apply},
                                           {"undo", undo},
                                           {"learn-bpe", learn, false},
                                           {"apply-bpe", apply, false}},
                                          argc, argv);
}

}  // namespace

int main(int argc, char** argv) {
  return rnnsearch::tools::run_tool("nmt-bpe", [&] { return run(argc, argv); });
}
