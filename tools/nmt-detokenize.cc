// nmt-detokenize: Moses detokenizer.perl behaviour, stdin to stdout, one line out per
// line in; undoes nmt-tokenize's escaping.
#include <iostream>

#include "text/detokenizer.h"
#include "text/languages.h"
#include "tools/support/tool_entry.h"
#include "util/error.h"
#include "util/line_pipeline.h"

namespace po = boost::program_options;

namespace {

const std::map<std::string, std::string> kMosesAliases = {{"-threads", "--threads"},
                                                          {"-no-unescape", "--no-unescape"}};

int run(int argc, char** argv) {
  rnnsearch::text::DetokenizerOptions cfg;
  rnnsearch::util::CommonOptions common;
  rnnsearch::util::LinePipelineOptions pipeline;
  std::string input = "-", output = "-";
  bool no_unescape = false, unbuffered = false;

  po::options_description options("Options");
  options.add_options()
      ("language,l", po::value(&cfg.language)->default_value(cfg.language),
       "language of the text: en, fr, it, cs have their own rules, the other languages of nmt-tokenize the "
       "generic ones; any other code gets the generic ones, with a warning")
      ("no-unescape", po::bool_switch(&no_unescape), "leave &amp; &apos; ... escaped")
      ("input,i", po::value(&input)->default_value(input), "input file (- = stdin)")
      ("output,o", po::value(&output)->default_value(output), "output file (- = stdout), written atomically")
      ("replace-invalid", po::bool_switch(&pipeline.replace_invalid),
       "replace invalid UTF-8 with U+FFFD instead of failing")
      ("unbuffered,b", po::bool_switch(&unbuffered), "handle and flush one line at a time");
  rnnsearch::util::add_common_options(options, common);

  const rnnsearch::util::ToolInfo tool{"nmt-detokenize",
                                       "Usage: nmt-detokenize [-l LANG] [options] < tokenized > text\n"
                                       "Joins tokens back into text as Moses detokenizer.perl does.\n",
                                       ""};
  if (rnnsearch::tools::parse_command_line(tool, rnnsearch::util::expand_aliases(argc, argv, kMosesAliases), options,
                                           common)) {
    return rnnsearch::util::kExitOk;
  }
  cfg.unescape = !no_unescape;
  pipeline.threads = common.resolved_threads();
  pipeline.progress_tool = common.quiet ? "" : "nmt-detokenize";
  pipeline.line_by_line = unbuffered;
  const std::string unknown =
      rnnsearch::text::unknown_language_warning(cfg.language, "detokenizing with the generic rules");
  if (!unknown.empty()) rnnsearch::tools::stderr_messages(common, "nmt-detokenize").warn(unknown);
  const rnnsearch::text::Detokenizer detokenizer(cfg);
  rnnsearch::util::map_lines(input, output, pipeline,
                             [&detokenizer](std::string_view line) { return detokenizer.detokenize(line); });
  return rnnsearch::util::kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  return rnnsearch::tools::run_tool("nmt-detokenize", [&] { return run(argc, argv); });
}
