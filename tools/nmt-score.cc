// nmt-score: the log-probability of given translations under an RNNsearch model or an
// ensemble, n-best lists rescored with another feature, and reranked by weighted features.
//   nmt-score -m MODEL -s test.bpe.de -t test.bpe.en > scores
//   nmt-score -m run2.bin -s test.bpe.de --n-best nbest --feature-name M2 > nbest.m2
//   nmt-score rerank --weights F0=1 M2=0.5 < nbest.m2 > best.bpe.en
#include <vector>

#include "search/nbest_list.h"
#include "search/score_files.h"
#include "search/translator.h"
#include "tools/support/gemm_choice.h"
#include "tools/support/tool_entry.h"
#include "util/allocator.h"
#include "util/option_range.h"

namespace po = boost::program_options;
namespace search = rnnsearch::search;
namespace tools = rnnsearch::tools;
namespace util = rnnsearch::util;

namespace {

const util::ToolInfo kTool{
    "nmt-score",
    "Usage: nmt-score -m MODEL [MODEL...] -s SOURCE -t TARGET [options] > scores\n"
    "       nmt-score -m MODEL [MODEL...] [options] < pairs          (lines 'source<TAB>target')\n"
    "       nmt-score -m MODEL [MODEL...] -s SOURCE --n-best NBEST [--feature-name NAME] > nbest\n"
    "       nmt-score rerank --weights NAME=W [NAME=W...] [-i NBEST] [-o FILE]\n"
    "Prints log p(target | source), summed over the target's BPE pieces and </s>, one line per pair;\n"
    "with --n-best, the n-best list with ' NAME= score' added to each entry's features. rerank writes\n"
    "the translation of each sentence's entry with the highest weighted sum of features.\n",
    ""};

void score(const std::vector<std::string>& args) {
  search::ScoreOptions cfg;
  util::CommonOptions common;
  po::options_description options("nmt-score");
  options.add_options()
      ("model,m", po::value(&cfg.model_paths)->multitoken(),
       "model file(s) written by nmt-train (required); several form an ensemble, as in nmt-decode")
      ("weights", po::value(&cfg.weights)->multitoken(),
       "one weight per model of an ensemble: its log-probabilities are averaged with these weights (default equal)")
      ("source,s", po::value(&cfg.source), "source sentences, BPE'd as in training")
      ("target,t", po::value(&cfg.target), "target sentences, line-aligned with --source")
      ("input,i", util::defaulted(&cfg.input), "without -s/-t: lines 'source<TAB>target' (- = stdin)")
      ("n-best", po::value(&cfg.n_best), "a Moses n-best list of --source's lines to add a feature to")
      ("feature-name", util::defaulted(&cfg.feature_name), "the name of the feature --n-best adds")
      ("output,o", util::defaulted(&cfg.output), "scores (- = stdout; a file is written atomically)")
      ("normalize", po::value(&cfg.normalize)->implicit_value(1.0, "1")->default_value(0.0, "0"),
       "ALPHA: divide by (target pieces + 1)^ALPHA, as nmt-decode --length-penalty ranks (alone: 1, per piece)")
      ("word-scores", po::bool_switch(&cfg.word_scores),
       "after the score, the log-probability of each target word (BPE pieces joined) and of </s>")
      ("mini-batch", util::defaulted(&cfg.mini_batch), "pairs scored together")
      ("maxi-batch", util::defaulted(&cfg.maxi_batch), "mini-batches per window sorted by source length")
      ("max-length",
       util::unsigned_value(&cfg.max_length, "max-length", std::size_t{0}, search::kMaxSourcePieces)
           ->default_value(cfg.max_length),
       "longer source lines are truncated, with a warning, as nmt-decode does (0 = no limit)")
      ("unknown-warning", util::defaulted(&cfg.unknown_warning), rnnsearch::data::kUnknownWarningHelp)
      ("language-warning", util::defaulted(&cfg.language_warning), rnnsearch::data::kLanguageWarningHelp)
      ("precision", util::enum_value(&cfg.precision, rnnsearch::math::precision_name, rnnsearch::math::parse_precision),
       "the weight products, as nmt-decode's: fp32, int8, bf16 or auto");
  util::add_common_options(options, common);
  if (tools::parse_command_line(kTool, args, options, common)) return;
  cfg.threads = common.resolved_threads();
  cfg.progress = !common.quiet;
  search::score_files(cfg, tools::stderr_messages(common, "nmt-score"));
}

void rerank(const std::vector<std::string>& args) {
  search::RerankOptions cfg;
  util::CommonOptions common;
  po::options_description options("nmt-score rerank");
  options.add_options()
      ("weights", po::value(&cfg.weights)->multitoken(),
       "NAME=WEIGHT for each feature to weigh (required); features not named weigh 0")
      ("input,i", util::defaulted(&cfg.input), "the Moses n-best list (- = stdin)")
      ("output,o", util::defaulted(&cfg.output), "one translation per sentence (- = stdout; a file is written atomically)");
  util::add_common_options(options, common);
  if (tools::parse_command_line(kTool, args, options, common)) return;
  search::rerank_files(cfg);
}

int run(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && args[0] == "rerank") {
    rerank(std::vector<std::string>(args.begin() + 1, args.end()));
  } else {
    score(args);
  }
  return util::kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  tools::select_gemm_kernels(argv);
  rnnsearch::util::keep_freed_memory_for_reuse();
  return tools::run_tool("nmt-score", [&] { return run(argc, argv); });
}
