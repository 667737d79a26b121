// nmt-vocab: token counts, most frequent first, in subword-nmt's get_vocab format.
#include <iostream>
#include <sstream>

#include "text/vocab_counts.h"
#include "tools/support/tool_entry.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/option_range.h"
#include "util/progress_meter.h"

namespace po = boost::program_options;

namespace {

int run(int argc, char** argv) {
  rnnsearch::text::VocabOptions cfg;
  rnnsearch::util::CommonOptions common;
  std::vector<std::string> inputs;
  std::string output = "-";
  bool replace_invalid = false;
  po::options_description options("Options");
  options.add_options()
      ("input,i", po::value(&inputs)->multitoken(), "text file(s), counted together (default stdin)")
      ("output,o", po::value(&output)->default_value(output), "vocabulary file (- = stdout), written atomically")
      ("min-count", po::value(&cfg.min_count)->default_value(cfg.min_count),
       "drop tokens seen fewer times (0 keeps all)")
      ("max-size", rnnsearch::util::unsigned_value(&cfg.max_size, "max-size")->default_value(cfg.max_size),
       "keep at most this many tokens, the most frequent (0 = no limit)")
      ("replace-invalid", po::bool_switch(&replace_invalid), "replace invalid UTF-8 with U+FFFD instead of failing");
  rnnsearch::util::add_common_options(options, common);
  const rnnsearch::util::ToolInfo tool{
      "nmt-vocab",
      "Usage: nmt-vocab [-i FILE...] [-o VOCAB] [--min-count N] [--max-size N]\n"
      "Counts the space-separated tokens of the input and writes 'token count' lines, most\n"
      "frequent first, ties in order of first occurrence (subword-nmt get_vocab format).\n",
      ""};
  if (rnnsearch::tools::parse_command_line(tool, std::vector<std::string>(argv + 1, argv + argc), options, common)) {
    return rnnsearch::util::kExitOk;
  }
  rnnsearch::util::ProgressMeter progress("nmt-vocab", "lines", !common.quiet);
  const auto vocab = rnnsearch::text::build_vocab(
      inputs.empty() ? std::vector<std::string>{"-"} : inputs, cfg,
      replace_invalid ? rnnsearch::util::InvalidUtf8::kReplace : rnnsearch::util::InvalidUtf8::kError, &progress);
  progress.finish();
  std::ostringstream text;
  rnnsearch::text::write_vocab(text, vocab);
  rnnsearch::util::AtomicFileWriter writer(output);
  writer.write(text.str());
  writer.commit();
  return rnnsearch::util::kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  return rnnsearch::tools::run_tool("nmt-vocab", [&] { return run(argc, argv); });
}
