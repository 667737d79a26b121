// nmt-glossary: terminology for constrained decoding.
//   nmt-glossary match -g glossary.tok < text.tok > text.terms     (SOURCE<TAB>TERM...)
//   nmt-glossary extract -s train.src -t train.tgt -a train.links > glossary.tok
#include "align/glossary_extract.h"
#include "text/glossary.h"
#include "tools/support/subcommands.h"
#include "tools/support/tool_entry.h"
#include "util/error.h"
#include "util/line_pipeline.h"

namespace po = boost::program_options;
using rnnsearch::util::defaulted;

namespace {

const char* kUsage =
    "Usage: nmt-glossary match -g GLOSSARY [-i FILE] [-o FILE] [--ignore-case] [--terms-only]\n"
    "       nmt-glossary extract -s SOURCE -t TARGET -a ALIGNMENT [-o FILE] [--min-count N]\n"
    "                            [--min-share F] [--max-length N] [--min-letters N]\n"
    "Finds a glossary's source terms in tokenized text and appends their target terms as\n"
    "tab-separated fields (nmt-decode --constraints), or builds a glossary from a tokenized\n"
    "parallel corpus and its word alignments.\n";

const rnnsearch::util::ToolInfo kTool{"nmt-glossary", kUsage, ""};

int match(const std::vector<std::string>& args) {
  rnnsearch::text::GlossaryMatchOptions cfg;
  rnnsearch::util::CommonOptions common;
  rnnsearch::util::LinePipelineOptions pipeline;
  po::options_description options("nmt-glossary match");
  options.add_options()
      ("glossary,g", po::value(&cfg.glossary), "'source term<TAB>target term' lines, tokenized as the text (required)")
      ("input,i", defaulted(&cfg.input), "tokenized source text (- = stdin)")
      ("output,o", defaulted(&cfg.output), "output (- = stdout), written atomically")
      ("ignore-case", po::bool_switch(&cfg.ignore_case), "match source terms case-insensitively")
      ("terms-only", po::bool_switch(&cfg.terms_only),
       "write only the target terms found, tab-separated (an empty line when none)")
      ("replace-invalid", po::bool_switch(&pipeline.replace_invalid),
       "replace invalid UTF-8 with U+FFFD instead of failing");
  rnnsearch::util::add_common_options(options, common);
  if (rnnsearch::tools::parse_command_line(kTool, args, options, common)) return rnnsearch::util::kExitOk;
  pipeline.threads = common.resolved_threads();
  pipeline.progress_tool = common.quiet ? "" : "nmt-glossary match";
  rnnsearch::text::match_glossary_file(cfg, pipeline);
  return rnnsearch::util::kExitOk;
}

int extract(const std::vector<std::string>& args) {
  rnnsearch::align::GlossaryExtractOptions cfg;
  rnnsearch::util::CommonOptions common;
  po::options_description options("nmt-glossary extract");
  options.add_options()
      ("source,s", po::value(&cfg.source), "tokenized source side of the corpus, a file (required)")
      ("target,t", po::value(&cfg.target), "tokenized target side, line-aligned (required)")
      ("alignment,a", po::value(&cfg.alignment), "word links, Pharaoh 'i-j' lines, source index first (required)")
      ("output,o", defaulted(&cfg.output), "the glossary (- = stdout), written atomically")
      ("min-count", defaulted(&cfg.min_count), "occurrences a source phrase needs")
      ("min-share", defaulted(&cfg.min_share), "share of those occurrences its dominant translation needs")
      ("max-length", defaulted(&cfg.max_length), "words on each side of a phrase pair")
      ("min-letters", defaulted(&cfg.min_letters), "each side needs a token with this many letters (0 = none)");
  rnnsearch::util::add_common_options(options, common);
  if (rnnsearch::tools::parse_command_line(kTool, args, options, common)) return rnnsearch::util::kExitOk;
  rnnsearch::align::extract_glossary_file(cfg);
  return rnnsearch::util::kExitOk;
}

int run(int argc, char** argv) {
  return rnnsearch::tools::run_subcommand(kTool, {{"match", match}, {"extract", extract}}, argc, argv);
}

}  // namespace

int main(int argc, char** argv) {
  return rnnsearch::tools::run_tool("nmt-glossary", [&] { return run(argc, argv); });
}
