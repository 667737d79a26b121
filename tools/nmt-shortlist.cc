// nmt-shortlist: a lexical shortlist for nmt-decode --shortlist, from an IBM Model 2 table
// of the BPE'd training text and the model's target vocabulary file.
//   nmt-align ibm2 -s train.bpe.en -t train.bpe.fr --save-table lex.en-fr > /dev/null
//   nmt-shortlist --table lex.en-fr --target-vocab vocab.fr --first 100 --best 100 -o shortlist.en-fr
#include <vector>

#include "align/shortlist_files.h"
#include "tools/support/tool_entry.h"
#include "util/number_format.h"
#include "util/option_range.h"

namespace po = boost::program_options;
namespace tools = rnnsearch::tools;
namespace util = rnnsearch::util;

namespace {

int run(int argc, char** argv) {
  rnnsearch::align::ShortlistOptions cfg;
  util::CommonOptions common;
  po::options_description options("Options");
  options.add_options()
      ("table", po::value(&cfg.table), "t(target | source) table of nmt-align ibm2 --save-table, forward (required)")
      ("target-vocab", po::value(&cfg.target_vocab),
       "the model's target vocabulary file, as nmt-vocab writes (required)")
      ("first", util::defaulted(&cfg.first), "the N most frequent target pieces, allowed in every sentence")
      ("best", util::defaulted(&cfg.best), "the K most probable target pieces of each source piece")
      ("threshold", util::defaulted(&cfg.threshold), "list only target pieces with t(target | source) >= P (0 = all)")
      ("output,o", util::defaulted(&cfg.output), "the shortlist (- = stdout; a file is written atomically)");
  util::add_common_options(options, common);
  const util::ToolInfo tool{
      "nmt-shortlist",
      "Usage: nmt-shortlist --table TABLE --target-vocab VOCAB [--first 100] [--best 100] [--threshold 0] [-o FILE]\n"
      "Writes the target pieces nmt-decode --shortlist may produce: the most frequent ones, and\n"
      "for each source piece its most probable translations in an IBM Model 2 table.\n",
      ""};
  if (tools::parse_command_line(tool, std::vector<std::string>(argv + 1, argv + argc), options, common)) {
    return util::kExitOk;
  }
  rnnsearch::align::shortlist_files(cfg);
  return util::kExitOk;
}

}  // namespace

int main(int argc, char** argv) { return tools::run_tool("nmt-shortlist", [&] { return run(argc, argv); }); }
