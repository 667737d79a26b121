// nmt-clean: Moses clean-corpus-n.perl as a drop-in (same arguments, same output bytes), with
// a summary of what each rule dropped, aligned side files and nothing written on an error.
#include <iostream>

#include "text/clean_corpus.h"
#include "tools/support/tool_entry.h"
#include "util/error.h"
#include "util/number_format.h"
#include "util/option_range.h"
#include "util/progress_meter.h"

namespace po = boost::program_options;

namespace {

// clean-corpus-n.perl's spellings (Getopt::Long: one dash or two, NAME=VALUE too).
const std::map<std::string, std::string> kMosesAliases = {
    {"-ratio", "--ratio"},           {"-ignore-ratio", "--ignore-ratio"}, {"-ignore-xml", "--ignore-xml"},
    {"-lc", "--lowercase"},          {"--lc", "--lowercase"},             {"-lowercase", "--lowercase"},
    {"-mwl", "--max-word-length"},   {"--mwl", "--max-word-length"},      {"-max-word-length", "--max-word-length"},
    {"-encoding", "--encoding"},     {"-help", "--help"}};

int run(int argc, char** argv) {
  rnnsearch::text::CleanOptions cfg;
  rnnsearch::util::CommonOptions common;
  std::vector<std::string> arguments, aligned;

  po::options_description options("Options");
  options.add_options()
      ("ratio", rnnsearch::util::defaulted(&cfg.ratio),
       "drop pairs where one side has more than R times the words of the other (-ratio)")
      ("ignore-ratio", po::bool_switch(&cfg.ignore_ratio), "do not check the length ratio (-ignore-ratio)")
      ("lowercase", po::bool_switch(&cfg.lowercase), "lowercase both sides first, as Perl's lc (-lc, -lowercase)")
      ("max-word-length", rnnsearch::util::unsigned_value(&cfg.max_word_length, "max-word-length", std::size_t{0},
                                                          std::size_t{1000000000})->default_value(cfg.max_word_length),
       "drop pairs with a word (or factor) of more than N characters (-mwl, -max-word-length)")
      ("ignore-xml", po::bool_switch(&cfg.ignore_xml), "do not count XML tags <...> as words (-ignore-xml)")
      ("encoding", po::value(&cfg.encoding)->default_value(cfg.encoding),
       "encoding of the corpus: utf8 only (-encoding)")
      ("drop-identical", po::bool_switch(&cfg.drop_identical), "drop pairs whose cleaned sides are the same")
      ("drop-invalid-utf8", po::bool_switch(&cfg.drop_invalid_utf8),
       "drop pairs with invalid UTF-8 instead of failing")
      ("aligned", rnnsearch::util::fixed_arity_value(&aligned, 2),
       "IN OUT: a file line-aligned with the corpus; OUT gets IN's lines of the kept pairs (repeatable)")
      ("summary-file", po::value(&cfg.summary_file), "also write the counts as 'reason<TAB>count' lines to this file");
  rnnsearch::util::add_common_options(options, common);
  po::options_description hidden;
  hidden.add_options()("arguments", po::value(&arguments));
  po::positional_options_description positional;
  positional.add("arguments", -1);

  const rnnsearch::util::ToolInfo tool{
      "nmt-clean",
      "Usage: nmt-clean [options] CORPUS L1 L2 CLEAN MIN MAX [RETAINED]\n"
      "Cleans CORPUS.L1 and CORPUS.L2 (or their .gz) into CLEAN.L1 and CLEAN.L2 as Moses\n"
      "clean-corpus-n.perl does: pairs with an empty side, fewer than MIN or more than MAX\n"
      "words, a length ratio above R or a too long word are dropped; RETAINED gets the kept\n"
      "line numbers. A summary of the drops goes to stderr (not with -q).\n",
      ""};
  if (rnnsearch::tools::parse_command_line(tool, rnnsearch::util::expand_aliases(argc, argv, kMosesAliases), options,
                                           common, &hidden, &positional)) {
    return rnnsearch::util::kExitOk;
  }
  cfg.set_arguments(arguments);
  for (std::size_t i = 0; i + 1 < aligned.size(); i += 2) cfg.aligned.push_back({aligned[i], aligned[i + 1]});

  rnnsearch::util::ProgressMeter progress("nmt-clean", "lines", !common.quiet);
  const auto summary = rnnsearch::text::clean_corpus(cfg, &progress);
  progress.finish();
  if (!common.quiet) std::cerr << "nmt-clean: " << rnnsearch::text::summary_report(summary, cfg);
  return rnnsearch::util::kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  return rnnsearch::tools::run_tool("nmt-clean", [&] { return run(argc, argv); });
}
