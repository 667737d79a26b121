// nmt-decode: translates source lines from stdin (or -i) to stdout with an RNNsearch model.
#include <vector>

#include "search/translator.h"
#include "tools/support/gemm_choice.h"
#include "tools/support/tool_entry.h"
#include "util/allocator.h"
#include "util/number_format.h"
#include "util/option_range.h"

namespace po = boost::program_options;
using rnnsearch::search::kMaxSourcePieces;
using rnnsearch::search::parse_alignment_output;
using rnnsearch::util::defaulted;
using rnnsearch::util::enum_value;
using rnnsearch::util::general;
using rnnsearch::util::unsigned_value;

namespace {

int run(int argc, char** argv) {
  rnnsearch::search::DecodeOptions cfg;
  rnnsearch::search::TranslateOptions& search = cfg.translate;
  rnnsearch::util::CommonOptions common;
  po::options_description options("Options");
  options.add_options()
      ("model,m", po::value(&cfg.model_paths)->multitoken(),
       "model file(s) written by nmt-train (required); several form an ensemble (same target vocabulary)")
      ("input,i", defaulted(&cfg.input), "source text, tokenized and BPE'd as in training (- = stdin)")
      ("output,o", defaulted(&cfg.output), "translations (- = stdout; a file is written atomically)")
      ("beam-size,b", defaulted(&search.beam.beam_size), "beam size (1 = greedy)")
      ("weights", po::value(&search.beam.weights)->multitoken(),
       "one weight per model of an ensemble: its log-probabilities are averaged with these weights (default equal)")
      ("n-best", defaulted(&search.n_best), "write the K best translations per line in Moses n-best format (0 = off)")
      ("word-scores", po::bool_switch(&search.word_scores),
       "with --n-best: add 'WordScores=' to the features, the log-probability of each word (BPE pieces joined) "
       "and of </s>")
      ("length-penalty",
       defaulted(&search.beam.length_penalty),
       "alpha: hypotheses are ranked by log p / length^alpha (0 = no normalization)")
      ("max-length-ratio",
       defaulted(&search.beam.max_length_ratio),
       "at most ratio * source length + 10 target tokens")
      ("max-length",
       unsigned_value(&search.max_length, "max-length", std::size_t{0}, kMaxSourcePieces)
           ->default_value(search.max_length),
       "longer source lines are truncated, with a warning (0 = no limit)")
      ("unknown-warning", defaulted(&search.unknown_warning), rnnsearch::data::kUnknownWarningHelp)
      ("language-warning", defaulted(&search.language_warning), rnnsearch::data::kLanguageWarningHelp)
      ("mini-batch", defaulted(&search.beam.batch_size), "sentences translated together (1 = each line at once)")
      ("maxi-batch", defaulted(&search.maxi_batch), "mini-batches per window sorted by length")
      ("precision", enum_value(&search.precision, rnnsearch::math::precision_name, rnnsearch::math::parse_precision),
       "the weight products: fp32, int8 (8-bit weights and activations), bf16 (needs avx512_bf16) or "
       "auto (int8 where the CPU has AVX512_VNNI, else fp32); int8 and bf16 also score attention with a faster tanh")
      ("alignment",
       po::value<std::string>()->notifier(
           [&search](const std::string& name) { search.alignment = parse_alignment_output(name); }),
       "append ' ||| ' and the attention alignment: hard (i-j links) or soft (weights)")
      ("shortlist", po::value(&cfg.shortlist),
       "restrict each sentence's output to the target pieces of an nmt-shortlist file its source pieces allow")
      ("force-decode", po::bool_switch(&search.constraint_input.force_decode),
       "each line is SOURCE<TAB>PREFIX: the translation starts with PREFIX (pieces; ending it with </s> ends the "
       "translation there), as Marian's --force-decode")
      ("prefix", po::value(&search.prefix_file), "a file of target prefixes, one per input line (as --force-decode's)")
      ("constraints",
       po::value<std::string>()->notifier([&search](const std::string& name) {
         search.constraint_input.tab_constraints = true;
         search.constraint_input.order = rnnsearch::search::parse_constraint_order(name);
       }),
       "ordered|unordered: the tab-separated fields after the source (and prefix) are phrases the translation must "
       "hold, in their order or in any (fairseq's --constraints); with --json-input, the order of its constraints")
      ("constraints-if-missing", po::bool_switch(&search.constraints_if_missing),
       "search each constrained line without its phrases first, and keep that translation when it already holds "
       "them (every n-best entry); search with them only where it does not")
      ("json-input", po::bool_switch(&search.constraint_input.json),
       "each line is a JSON object {\"text\", \"constraints\": [...], \"avoid\": [...], \"target_prefix\"} "
       "(Sockeye's); avoid lists phrases the translation must not hold")
      ("replace-unk", po::bool_switch(&search.replace_unknown),
       "replace <unk> in the output by the most attended source token")
      ("attention-source", defaulted(&cfg.attention_source),
       "the weights of --alignment and --replace-unk: decoder (the attention of the search), head (the first model's "
       "alignment head, nmt-train --alignment-head, on the chosen translation) or auto (head when it has one)");
  rnnsearch::util::add_common_options(options, common);
  const rnnsearch::util::ToolInfo tool{
      "nmt-decode",
      "Usage: nmt-decode -m MODEL [MODEL...] [options] < source.bpe > translations.bpe\n"
      "Translates one line per input line with beam search; an empty line gives an empty line. Input\n"
      "and output are subword tokens, as in training (nmt-bpe apply before, nmt-bpe undo after).\n"
      "A line may also carry a target prefix and phrases to use or avoid: see --force-decode, --prefix,\n"
      "--constraints and --json-input, and nmt-decode(1), INPUT FORMATS.\n",
      ""};
  if (rnnsearch::tools::parse_command_line(tool, std::vector<std::string>(argv + 1, argv + argc), options, common)) {
    return rnnsearch::util::kExitOk;
  }
  search.threads = common.resolved_threads();
  search.progress = !common.quiet;
  rnnsearch::search::translate_files(cfg, rnnsearch::tools::stderr_messages(common, "nmt-decode"));
  return rnnsearch::util::kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  rnnsearch::tools::select_gemm_kernels(argv);
  rnnsearch::util::keep_freed_memory_for_reuse();  // the beam's per-step matrices change size every step
  return rnnsearch::tools::run_tool("nmt-decode", [&] { return run(argc, argv); });
}
