// nmt-terms: how many of the expected target terms translations use (term usage rate,
// Dinu et al. 2019; the WMT21 terminology task's exact-match accuracy), beside BLEU and
// chrF of the same translations as nmt-bleu prints them.
#include "eval/terms.h"
#include "tools/support/tool_entry.h"
#include "util/option_range.h"

namespace po = boost::program_options;

namespace {

int run(int argc, char** argv) {
  rnnsearch::eval::TermsOptions cfg;
  rnnsearch::util::CommonOptions common;
  po::options_description options("Options");
  options.add_options()
      ("reference,r", po::value(&cfg.references)->multitoken(), "reference translation file(s), for BLEU and chrF (required)")
      ("input,i", po::value(&cfg.hypothesis), "the translations to score, a file (required)")
      ("terms,t", po::value(&cfg.terms),
       "a line per translation: its expected target terms, tab-separated; an empty line expects none (required)")
      ("lowercase", po::bool_switch(&cfg.lowercase), "match terms case-insensitively (BLEU and chrF stay case-sensitive)")
      ("format,f", rnnsearch::util::enum_value(&cfg.format, "text", rnnsearch::eval::parse_output_format),
       "text, or json: one object with the counts and nmt-bleu's JSON scores")
      ("width,w", rnnsearch::util::defaulted(&cfg.width), "decimals of the percentages and scores")
      ("force", po::bool_switch(&cfg.force), "do not warn about tokenized-looking translations")
      ("output,o", rnnsearch::util::defaulted(&cfg.output), "the report (- = stdout; a file is written atomically)");
  rnnsearch::util::add_common_options(options, common);
  const rnnsearch::util::ToolInfo tool{
      "nmt-terms",
      "Usage: nmt-terms -r REFERENCE -i TRANSLATIONS -t TERMS [--lowercase] [-f json]\n"
      "Counts the expected target terms of each line that its translation uses, as whole words\n"
      "(13a tokens): the term usage rate and the WMT21 exact-match accuracy, then BLEU and chrF\n"
      "exactly as nmt-bleu -m bleu chrf -f text prints them.\n",
      ""};
  if (rnnsearch::tools::parse_command_line(tool, std::vector<std::string>(argv + 1, argv + argc), options, common)) {
    return rnnsearch::util::kExitOk;
  }
  cfg.threads = common.resolved_threads();
  rnnsearch::eval::score_terms(cfg, rnnsearch::tools::stderr_notes(common, "nmt-terms: "));
  return rnnsearch::util::kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  return rnnsearch::tools::run_tool("nmt-terms", [&] { return run(argc, argv); });
}
