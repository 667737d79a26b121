// nmt-by-length: BLEU (or chrF, TER) of one or several systems per source-length bucket,
// as a table and as an SVG line chart (Bahdanau et al. 2015, figure 2).
#include "eval/by_length.h"
#include "tools/support/tool_entry.h"
#include "util/error.h"

namespace po = boost::program_options;

namespace {

int run(int argc, char** argv) {
  rnnsearch::eval::ByLengthOptions cfg;
  rnnsearch::util::CommonOptions common;
  po::options_description options("Options");
  options.add_options()
      ("source,s", po::value(&cfg.source), "source sentences, whose length in words picks the bucket (required)")
      ("reference,r", po::value(&cfg.reference), "reference translations, line-aligned (required)")
      ("input,i", po::value(&cfg.eval.inputs)->multitoken(), "translations of one or more systems (required)")
      ("names,n", po::value(&cfg.names)->multitoken(), "a name per system for the table and legend (default: file names)")
      ("metric,m", po::value(&cfg.metric)->default_value(cfg.metric), "bleu, chrf or ter (sacreBLEU's defaults)")
      ("bucket-width", po::value(&cfg.buckets.width)->default_value(cfg.buckets.width), "source words per bucket")
      ("max-length", po::value(&cfg.buckets.max)->default_value(cfg.buckets.max),
       "the last bucket holds sentences of at least this many words (a multiple of --bucket-width)")
      ("tokenize", po::value(&cfg.eval.bleu_tokenize)->default_value(cfg.eval.bleu_tokenize),
       "BLEU tokenizer: 13a, intl, zh, char, none")
      ("lowercase", po::bool_switch(&cfg.eval.bleu_lowercase), "case-insensitive BLEU")
      ("decimals", po::value(&cfg.decimals)->default_value(cfg.decimals), "digits after the point in the table")
      ("output,o", po::value(&cfg.output)->default_value(cfg.output), "the table (- = stdout; a file is written atomically)")
      ("svg", po::value(&cfg.svg), "also write the line chart to this SVG file (atomically)");
  rnnsearch::util::add_common_options(options, common);
  const rnnsearch::util::ToolInfo tool{
      "nmt-by-length",
      "Usage: nmt-by-length -s SOURCE -r REFERENCE -i SYSTEM... [-n NAME...] [--svg chart.svg]\n"
      "Scores each system on buckets of source sentence length (0-10, 10-20, ..., 50+ words by\n"
      "default) and on all sentences pooled, which equals nmt-bleu on the whole set.\n",
      ""};
  if (rnnsearch::tools::parse_command_line(tool, std::vector<std::string>(argv + 1, argv + argc), options, common)) {
    return rnnsearch::util::kExitOk;
  }
  cfg.eval.threads = common.resolved_threads();
  rnnsearch::eval::evaluate_by_length(cfg);
  return rnnsearch::util::kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  return rnnsearch::tools::run_tool("nmt-by-length", [&] { return run(argc, argv); });
}
