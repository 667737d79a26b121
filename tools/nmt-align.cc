// nmt-align: word alignments from an RNNsearch model's attention, symmetrization of two
// directions (as fast_align's atools), and precision / recall / AER against gold links.
//   nmt-align -m MODEL -s train.bpe.de -t train.bpe.en > de-en.align
//   nmt-align symmetrize -i de-en.align -j en-de.align -c grow-diag-final-and > gdfa.align
//   nmt-align eval -g gold.align -a gdfa.align
// Each subcommand is a table of options bound to its options struct and one call of lib/align.
#include <cstdio>
#include <map>

#include "align/eval_files.h"
#include "align/extract_files.h"
#include "align/heatmap_files.h"
#include "align/hmm_files.h"
#include "align/ibm2_files.h"
#include "align/symmetrize_files.h"
#include "tools/support/gemm_choice.h"
#include "tools/support/hmm_training_options.h"
#include "tools/support/tool_entry.h"
#include "util/number_format.h"
#include "util/option_range.h"

namespace po = boost::program_options;
namespace align = rnnsearch::align;
namespace tools = rnnsearch::tools;
namespace util = rnnsearch::util;

namespace {

const util::ToolInfo kTool{
    "nmt-align",
    "Usage: nmt-align -m MODEL -s SOURCE -t TARGET [--mode hard|threshold|soft] [-o FILE]\n"
    "       nmt-align symmetrize -i FORWARD -j REVERSE [-c HEURISTIC] [-o FILE]\n"
    "       nmt-align combine -i FORWARD.soft -j REVERSE.soft [--threshold 0.5] [-o FILE]\n"
    "       nmt-align ibm2 -s SOURCE -t TARGET [--reverse] [-o FILE] [--save-table T | --load-table T]\n"
    "       nmt-align hmm -s SOURCE -t TARGET [--links forward|reverse|agreed] [-o FILE]\n"
    "                     [--save-params P | --load-params P]\n"
    "       nmt-align eval -g GOLD -a ALIGNMENT [--sentences FIRST-LAST]\n"
    "       nmt-align heatmap -m MODEL -s SOURCE -t TARGET [--lines 1,5] [--merge words] [-o attention.svg]\n"
    "Alignments are Pharaoh 'i-j' pairs, source index first, 0-based, one line per sentence pair.\n",
    ""};

constexpr const char* kAttentionSourceHelp =
    "the weights to read: decoder (the attention of translation), head (the alignment head of nmt-train "
    "--alignment-head) or auto (head when the model has one)";

// Adds the common options and parses; true when --help or --version was answered.
bool parse(const std::vector<std::string>& args, po::options_description& options, util::CommonOptions& common) {
  util::add_common_options(options, common);
  return tools::parse_command_line(kTool, args, options, common);
}

void extract(const std::vector<std::string>& args) {
  align::ExtractFilesOptions cfg;
  util::CommonOptions common;
  align::AlignmentMode mode = align::AlignmentMode::kHard;
  auto& rules = cfg.extract.rules;
  po::options_description options("nmt-align");
  options.add_options()
      ("model,m", po::value(&cfg.model), "model file written by nmt-train (required)")
      ("source,s", po::value(&cfg.source), "source sentences, BPE'd as in training (required)")
      ("target,t", po::value(&cfg.target), "target sentences, line-aligned with the source (required)")
      ("output,o", util::defaulted(&cfg.output), "alignments (- = stdout; a file is written atomically)")
      ("mode", util::enum_value(&mode, "hard", align::parse_alignment_mode), "hard, threshold or soft")
      ("attention-source", util::defaulted(&cfg.attention_source), kAttentionSourceHelp)
      ("threshold", util::defaulted(&rules.threshold),
       "attention weight a link needs in --mode threshold")
      ("step", util::enum_value(&rules.step, "emit", align::parse_attention_step),
       "the attention standing for target word i: emit (the step predicting it) or next (the step reading it)")
      ("merge", util::enum_value(&rules.merge_to, "pieces", align::parse_merge_to),
       "pieces (link BPE pieces, then their words) or words (merge the weights to words first)")
      ("eos", util::enum_value(&rules.eos, "ignore", align::parse_eos_rule),
       "the source </s> column: ignore, renormalize (the words' weights to sum 1) or null (a word attending "
       "most to </s> stays unaligned)")
      ("mini-batch", util::defaulted(&cfg.extract.batch_size), "sentence pairs force-decoded together")
      ("invert", po::bool_switch(&cfg.extract.invert),
       "write links target index first (a reverse model's links in the forward direction's order)")
      ("unknown-warning", util::defaulted(&cfg.unknown_warning), rnnsearch::data::kUnknownWarningHelp)
      ("language-warning", util::defaulted(&cfg.language_warning), rnnsearch::data::kLanguageWarningHelp);
  if (parse(args, options, common)) return;
  cfg.extract.set_mode(mode);
  cfg.extract.threads = common.resolved_threads();
  cfg.progress = !common.quiet;
  align::extract_files(cfg, tools::stderr_messages(common, "nmt-align"));
}

void symmetrize(const std::vector<std::string>& args) {
  align::SymmetrizeFilesOptions cfg;
  util::CommonOptions common;
  po::options_description options("nmt-align symmetrize");
  options.add_options()
      ("input,i", po::value(&cfg.forward), "forward alignments (source-to-target model), source index first (required)")
      ("reverse,j", po::value(&cfg.reverse), "reverse alignments, also source index first (required)")
      ("command,c", util::enum_value(&cfg.heuristic, "grow-diag-final-and", align::parse_symmetrization),
       "intersect, union, grow-diag, grow-diag-final, grow-diag-final-and, grow-diag-and")
      ("output,o", util::defaulted(&cfg.output), "symmetrized alignments (- = stdout)");
  if (parse(args, options, common)) return;
  align::symmetrize_files(cfg);
}

void combine(const std::vector<std::string>& args) {
  align::CombineFilesOptions cfg;
  util::CommonOptions common;
  po::options_description options("nmt-align combine");
  options.add_options()
      ("input,i", po::value(&cfg.forward),
       "forward soft alignments (--mode soft of the source-to-target model) (required)")
      ("reverse,j", po::value(&cfg.reverse),
       "reverse soft alignments (--mode soft of the target-to-source model) (required)")
      ("threshold", util::defaulted(&cfg.threshold),
       "link a word pair when the mean of its two weights reaches this")
      ("output,o", util::defaulted(&cfg.output), "links, source index first (- = stdout)");
  if (parse(args, options, common)) return;
  align::combine_files(cfg);
}

void ibm2(const std::vector<std::string>& args) {
  align::Ibm2FilesOptions cfg;
  util::CommonOptions common;
  auto& model = cfg.ibm2;
  po::options_description options("nmt-align ibm2");
  options.add_options()
      ("source,s", po::value(&cfg.source), "source sentences, tokenized (required)")
      ("target,t", po::value(&cfg.target), "target sentences, line-aligned with the source (required)")
      ("output,o", util::defaulted(&cfg.output), "links, source index first (- = stdout)")
      ("reverse,r", po::bool_switch(&cfg.reverse),
       "generate the source from the target (fast_align -r); links still source first")
      ("iterations,I", util::defaulted(&model.iterations), "EM iterations, the last one only reads off the links")
      ("p-null,p", po::value(&model.p_null)->default_value(model.p_null, "0.08"),
       "probability of aligning a word to NULL")
      ("tension,T", po::value(&model.tension)->default_value(model.tension, "4"), "starting diagonal tension")
      ("fixed-tension", po::bool_switch()->notifier([&model](bool fixed) { model.optimize_tension = !fixed; }),
       "keep the tension instead of refitting it (fast_align without -o)")
      ("alpha,a", po::value(&model.alpha)->default_value(model.alpha, "0.01"),
       "Dirichlet prior on t(f|e), variational Bayes (0 = maximum likelihood, fast_align without -v)")
      ("cache-mb", util::defaulted(&model.index_cache_mb),
       "memory (MiB) for the table positions of the first pairs, found once instead of every iteration")
      ("save-table", po::value(&cfg.save_table), "write the learned t(target | source) table, tension and p-null")
      ("table-threshold", util::defaulted(&cfg.table_threshold), "leave entries below this out of --save-table")
      ("load-table", po::value(&cfg.load_table), "align with a --save-table file, without training (fast_align -f)");
  if (parse(args, options, common)) return;
  model.threads = common.resolved_threads();
  cfg.progress = !common.quiet;
  align::ibm2_files(cfg, tools::stderr_notes(common, "nmt-align ibm2: "));
}

void hmm(const std::vector<std::string>& args) {
  align::HmmFilesOptions cfg;
  util::CommonOptions common;
  auto& model = cfg.hmm;
  bool reverse = false;
  std::string links;  // empty unless given: -r or the default then decides
  po::options_description options("nmt-align hmm");
  options.add_options()
      ("source,s", po::value(&cfg.source), "source sentences, tokenized (required)")
      ("target,t", po::value(&cfg.target), "target sentences, line-aligned with the source (required)")
      ("output,o", util::defaulted(&cfg.output), "links, source index first (- = stdout)")
      ("links",
       po::value(&links)->value_name("KIND")->notifier([](const std::string& kind) { align::parse_hmm_links(kind); }),
       "forward (each target word's sources; the default), reverse (each source word's targets), agreed (both "
       "directions': the product of their posteriors) or average (the mean of their posteriors)")
      ("reverse,r", po::bool_switch(&reverse), "the same as --links reverse; links still source first")
      ("decode", util::enum_value(&model.decoding, "posterior", align::parse_hmm_decoding),
       "posterior (links whose posterior reaches --threshold; agreed: the product of both directions') or viterbi "
       "(the best path; agreed: both paths' intersection)")
      ("threshold", util::defaulted(&model.threshold), "the posterior a link needs (--decode posterior)")
      ("competitive", po::bool_switch(&model.competitive),
       "posterior: keep only the unbroken run of links around each word's best (competitive thresholding)");
  tools::add_hmm_training_options(options, model, cfg.stems);
  options.add_options()
      ("save-params", po::value(&cfg.save_params), "write the trained model (both directions) to this file")
      ("params-threshold", util::defaulted(&cfg.params_threshold),
       "leave translation probabilities below this out of --save-params")
      ("load-params", po::value(&cfg.load_params), "align with a --save-params file, without training")
      ("unknown-warning", util::defaulted(&cfg.unknown_warning),
       "SHARE in [0, 1]: with --load-params, warn when more than this share of a side's tokens are words the "
       "parameters never name (1 = never)");
  if (parse(args, options, common)) return;
  if (reverse && !links.empty() && links != "reverse") {
    throw util::UsageError("-r means --links reverse: it cannot go with --links " + links);
  }
  model.links = align::parse_hmm_links(reverse && links.empty() ? "reverse" : links.empty() ? "forward" : links);
  model.threads = common.resolved_threads();
  cfg.progress = !common.quiet;
  align::hmm_files(cfg, tools::stderr_messages(common, "nmt-align hmm"));
}

void eval(const std::vector<std::string>& args) {
  align::EvalFilesOptions cfg;
  util::CommonOptions common;
  po::options_description options("nmt-align eval");
  options.add_options()
      ("gold,g", po::value(&cfg.gold),
       "gold alignments (required): Pharaoh lines with i-j sure and i?j possible links, or the shared-task "
       "format 'SENT SRC_POS TGT_POS [S|P]', 1-based")
      ("alignment,a", po::value(&cfg.alignment), "alignments to score, line-aligned with the gold file (required)")
      ("sentences", po::value<std::string>()->value_name("FIRST-LAST")->notifier([&cfg](const std::string& range) {
         align::parse_sentence_range(range, cfg);
       }),
       "score only these sentences (1-based, inclusive), e.g. 101-447 for the last 347 of the WPT-2003 test set");
  if (parse(args, options, common)) return;
  std::fputs(align::scores_report(align::eval_files(cfg, tools::stderr_notes(common, "nmt-align: "))).c_str(), stdout);
}

void heatmap(const std::vector<std::string>& args) {
  align::HeatmapFilesOptions cfg;
  util::CommonOptions common;
  po::options_description options("nmt-align heatmap");
  options.add_options()
      ("model,m", po::value(&cfg.model), "model file written by nmt-train (required)")
      ("source,s", po::value(&cfg.source), "source sentences, BPE'd as in training (required)")
      ("target,t", po::value(&cfg.target), "target sentences, line-aligned with the source (required)")
      ("lines,l", util::defaulted(&cfg.lines)->notifier([](const std::string& t) { align::parse_line_numbers(t); }),
       "the pairs to draw: 1-based line numbers, comma-separated")
      ("attention-source", util::defaulted(&cfg.attention_source), kAttentionSourceHelp)
      ("merge", util::enum_value(&cfg.merge_to, "pieces", align::parse_merge_to),
       "pieces (a cell per BPE piece pair) or words (a source word's pieces summed, a target word's averaged, "
       "labels without \"@@\")")
      ("output,o", util::defaulted(&cfg.output), "the SVG file (- = stdout), written atomically")
      ("unknown-warning", util::defaulted(&cfg.unknown_warning), rnnsearch::data::kUnknownWarningHelp)
      ("language-warning", util::defaulted(&cfg.language_warning), rnnsearch::data::kLanguageWarningHelp);
  if (parse(args, options, common)) return;
  align::heatmap_files(cfg, tools::stderr_messages(common, "nmt-align"));
}

// The subcommand argv[1] names, or extract (argv[1] being its first option).
int run(int argc, char** argv) {
  const std::map<std::string, void (*)(const std::vector<std::string>&)> subcommands = {
      {"symmetrize", symmetrize}, {"combine", combine}, {"ibm2", ibm2}, {"hmm", hmm}, {"eval", eval}, {"heatmap", heatmap}};
  const auto named = argc > 1 ? subcommands.find(argv[1]) : subcommands.end();
  const bool has_name = named != subcommands.end();
  (has_name ? named->second : extract)({argv + (has_name ? 2 : 1), argv + argc});
  return util::kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  tools::select_gemm_kernels(argv);
  return tools::run_tool("nmt-align", [&] { return run(argc, argv); });
}
