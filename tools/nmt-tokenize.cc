// nmt-tokenize: Moses tokenizer.perl behaviour (with lowercase.perl and
// normalize-punctuation.perl on request), stdin to stdout, one line out per line in.
#include <iostream>

#include "text/languages.h"
#include "text/nonbreaking_prefixes.h"
#include "text/tokenizer.h"
#include "tools/support/tool_entry.h"
#include "util/error.h"
#include "util/line_pipeline.h"
#include "util/option_range.h"

namespace po = boost::program_options;

namespace {

// tokenizer.perl's single-dash spellings.
const std::map<std::string, std::string> kMosesAliases = {
    {"-no-escape", "--no-escape"}, {"-threads", "--threads"}, {"-lines", "--batch-lines"}};

int run(int argc, char** argv) {
  rnnsearch::text::TokenizerOptions cfg;
  rnnsearch::util::CommonOptions common;
  rnnsearch::util::LinePipelineOptions pipeline;
  std::string input = "-", output = "-", prefixes_file;
  bool no_escape = false, unbuffered = false;

  po::options_description options("Options");
  options.add_options()
      ("language,l", po::value(&cfg.language)->default_value(cfg.language),
       "language of the text: ca, cs, de, en, fi, fr, ga, it, sv, xa, xb have rules (apostrophes, nonbreaking "
       "prefixes); any other code gets English prefixes, with a warning")
      ("aggressive,a", po::bool_switch(&cfg.aggressive), "split hyphens inside words as @-@")
      ("no-escape", po::bool_switch(&no_escape), "do not escape & | < > ' \" [ ] (-no-escape)")
      ("lowercase", po::bool_switch(&cfg.lowercase), "lowercase first (lowercase.perl)")
      ("normalize-punctuation", po::bool_switch(&cfg.normalize_punctuation),
       "normalize punctuation before tokenizing (normalize-punctuation.perl -l LANG)")
      ("tokenized", po::bool_switch(&cfg.tokenized),
       "the input is tokenized already: apply only --lowercase, --normalize-punctuation, "
       "--expand-contractions, --plain-hyphens, --fold-accents")
      ("expand-contractions", po::bool_switch(&cfg.expand_contractions),
       "French: write elisions and contractions out as the WPT-2003 alignment gold does "
       "(\"l' \" -> \"le \", \"du\" -> \"de le\", \"au\" -> \"\u00e0 le\")")
      ("plain-hyphens", po::bool_switch(&cfg.plain_hyphens), "write -a's hyphen mark @-@ as a plain -")
      ("fold-accents", po::bool_switch(&cfg.fold_accents),
       "last, fold accents: Unicode NFKD with combining marks dropped (\"é\" -> \"e\")")
      ("nonbreaking-prefixes", po::value(&prefixes_file),
       "Moses-format nonbreaking prefix file instead of the built-in list for --language")
      ("input,i", po::value(&input)->default_value(input), "input file (- = stdin)")
      ("output,o", po::value(&output)->default_value(output), "output file (- = stdout), written atomically")
      ("replace-invalid", po::bool_switch(&pipeline.replace_invalid),
       "replace invalid UTF-8 with U+FFFD instead of failing")
      ("batch-lines", rnnsearch::util::unsigned_value(&pipeline.batch_lines, "batch-lines", std::size_t{1}, std::size_t{1000000})->default_value(pipeline.batch_lines),
       "lines per thread per batch (-lines)")
      ("unbuffered,b", po::bool_switch(&unbuffered), "handle and flush one line at a time");
  rnnsearch::util::add_common_options(options, common);

  const rnnsearch::util::ToolInfo tool{
      "nmt-tokenize",
      "Usage: nmt-tokenize [-l LANG] [-a] [--no-escape] [options] < raw > tokenized\n"
      "Tokenizes text as Moses tokenizer.perl does, one output line per input line.\n",
      ""};
  if (rnnsearch::tools::parse_command_line(tool, rnnsearch::util::expand_aliases(argc, argv, kMosesAliases), options,
                                           common)) {
    return rnnsearch::util::kExitOk;
  }
  cfg.escape = !no_escape;
  pipeline.threads = common.resolved_threads();
  pipeline.progress_tool = common.quiet ? "" : "nmt-tokenize";
  pipeline.line_by_line = unbuffered;

  const std::string unknown = rnnsearch::text::unknown_language_warning(
      cfg.language, prefixes_file.empty()
                        ? "tokenizing with the English nonbreaking prefixes and the language-independent rules"
                        : "tokenizing with the language-independent rules and " + prefixes_file + "'s prefixes");
  if (!unknown.empty()) rnnsearch::tools::stderr_messages(common, "nmt-tokenize").warn(unknown);
  const auto prefixes = prefixes_file.empty() ? rnnsearch::text::NonbreakingPrefixes::built_in(cfg.language)
                                              : rnnsearch::text::NonbreakingPrefixes::from_file(prefixes_file);
  const rnnsearch::text::Tokenizer tokenizer(cfg, prefixes);
  rnnsearch::util::map_lines(input, output, pipeline,
                             [&tokenizer](std::string_view line) { return tokenizer.tokenize(line); });
  return rnnsearch::util::kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  return rnnsearch::tools::run_tool("nmt-tokenize", [&] { return run(argc, argv); });
}
