// nmt-bleu: BLEU, chrF(++) and TER of system outputs against references, a drop-in for
// sacreBLEU 2.6.0 on the command line (same options, same printed output).
#include <map>

#include "eval/eval_options.h"
#include "eval/evaluate.h"
#include "eval/sacrebleu_arguments.h"
#include "tools/support/tool_entry.h"
#include "util/option_range.h"

namespace po = boost::program_options;
using rnnsearch::util::defaulted;
using rnnsearch::util::enum_value;
using rnnsearch::eval::EvalOptions;
using rnnsearch::eval::SacrebleuArguments;

namespace {

// sacreBLEU's multi-letter single-dash options and their long names.
const std::map<std::string, std::string> kSacrebleuAliases = {
    {"-tok", "--tokenize"},     {"-lc", "--lowercase"},       {"-sl", "--sentence-level"},
    {"-sv", "--smooth-value"},  {"-nr", "--num-refs"},        {"-cc", "--chrf-char-order"},
    {"-cw", "--chrf-word-order"}, {"-ci", "--confidence"},    {"-cin", "--confidence-n"},
    {"-par", "--paired-ar"},    {"-pbs", "--paired-bs"},      {"-parn", "--paired-ar-n"},
    {"-pbsn", "--paired-bs-n"}, {"-sh", "--short"},           {"-nc", "--no-color"},
    {"-ol", "--origlang"},      {"-V", "--version"}};

const char* kSynopsis =
    "Usage: nmt-bleu REF... [-i HYP...] [options]\n"
    "Scores system outputs (files, or stdin with one tab-separated column per system)\n"
    "against one or more reference files with BLEU, chrF/chrF++ and TER, printing exactly\n"
    "what sacreBLEU 2.6.0 prints for the same arguments.\n";

po::options_description io_options(EvalOptions& cfg, SacrebleuArguments& text) {
  po::options_description io("Input and output");
  io.add_options()
      ("input,i", po::value(&cfg.inputs)->multitoken(), "system output file(s); default: stdin, tab-separated systems")
      ("num-refs", defaulted(&cfg.num_refs), "split each reference line on tabs into this many references (-nr)")
      ("metrics,m", po::value(&cfg.metrics)->multitoken()->default_value(cfg.metrics, "bleu"),
       "metrics to compute: bleu chrf ter")
      ("sentence-level", po::bool_switch(&cfg.sentence_level), "one score per line (-sl)")
      ("format,f", enum_value(&cfg.format, "json", rnnsearch::eval::parse_output_format),
       "json or text (the SACREBLEU_FORMAT environment variable overrides it)")
      ("width,w", defaulted(&cfg.width), "decimals of printed scores")
      ("score-only,b", po::bool_switch(&cfg.score_only), "print only the score")
      ("short", po::bool_switch(&cfg.short_signature), "abbreviated signature (-sh)")
      ("encoding,e", po::value(&text.encoding)->default_value(text.encoding), "input encoding (only utf-8)")
      ("no-color", po::bool_switch(), "accepted for sacreBLEU compatibility; output is never colored (-nc)");
  return io;
}

po::options_description bleu_options(EvalOptions& cfg, SacrebleuArguments& text) {
  po::options_description bleu("BLEU");
  bleu.add_options()
      ("tokenize", defaulted(&cfg.bleu_tokenize), "tokenizer: 13a, intl, zh, char, none (-tok)")
      ("lowercase", po::bool_switch(&cfg.bleu_lowercase), "case-insensitive BLEU (-lc)")
      ("smooth-method,s", enum_value(&cfg.bleu_smooth_method, "exp", rnnsearch::eval::parse_bleu_smoothing),
       "smoothing: exp, floor, add-k, none")
      ("smooth-value", rnnsearch::util::checked_text(&text.smooth_value, rnnsearch::eval::parse_smooth_value),
       "value for floor (default 0.1) and add-k (default 1) (-sv)")
      ("force", po::bool_switch(&cfg.bleu_force), "do not warn about tokenized-looking input");
  return bleu;
}

po::options_description chrf_options(EvalOptions& cfg) {
  po::options_description chrf("chrF");
  chrf.add_options()
      ("chrf-char-order", defaulted(&cfg.chrf_char_order), "character n-gram order (-cc)")
      ("chrf-word-order", defaulted(&cfg.chrf_word_order), "word n-gram order; 2 gives chrF++ (-cw)")
      ("chrf-beta", defaulted(&cfg.chrf_beta), "weight of recall against precision")
      ("chrf-whitespace", po::bool_switch(&cfg.chrf_whitespace), "keep whitespace in character n-grams")
      ("chrf-lowercase", po::bool_switch(&cfg.chrf_lowercase), "case-insensitive chrF")
      ("chrf-eps-smoothing", po::bool_switch(&cfg.chrf_eps_smoothing),
       "epsilon smoothing (chrF++.py, NLTK, Moses) instead of effective order");
  return chrf;
}

po::options_description ter_options(EvalOptions& cfg) {
  po::options_description ter("TER (the defaults replicate TERCOM)");
  ter.add_options()
      ("ter-case-sensitive", po::bool_switch(&cfg.ter_case_sensitive), "case-sensitive TER")
      ("ter-asian-support", po::bool_switch(&cfg.ter_asian_support), "split Asian characters")
      ("ter-no-punct", po::bool_switch(&cfg.ter_no_punct), "remove punctuation")
      ("ter-normalized", po::bool_switch(&cfg.ter_normalized), "basic normalization and tokenization");
  return ter;
}

po::options_description statistics_options(EvalOptions& cfg, SacrebleuArguments& text) {
  po::options_description stats("Confidence intervals and paired significance tests");
  stats.add_options()
      ("confidence", po::bool_switch(&cfg.confidence), "95% bootstrap confidence interval of one system (-ci)")
      ("confidence-n", defaulted(&cfg.confidence_n), "bootstrap resamples (-cin)")
      ("paired-bs", po::bool_switch(&cfg.paired_bs),
       "paired bootstrap resampling: each -i system against the first (-pbs)")
      ("paired-bs-n", defaulted(&cfg.paired_bs_n), "bootstrap resamples (-pbsn)")
      ("paired-ar", po::bool_switch(&cfg.paired_ar), "paired approximate randomization (-par)")
      ("paired-ar-n", defaulted(&cfg.paired_ar_n), "randomization trials (-parn)")
      ("paired-jobs,j", defaulted(&cfg.paired_jobs), "worker threads for the tests (0 = --threads)")
      ("seed", rnnsearch::util::checked_text(&text.seed, [](const std::string& t) { rnnsearch::eval::parse_seed(t); }),
       "random seed, or 'none' for one from the OS "
       "(default: $SACREBLEU_SEED, else 12345)");
  return stats;
}

po::options_description test_set_options(rnnsearch::eval::TestSetOptions& test_sets) {
  po::options_description unsupported("Not supported (sacreBLEU's test-set downloads)");
  unsupported.add_options()
      ("test-set,t", po::value(&test_sets.test_set), "refused: give reference files instead")
      ("language-pair,l", po::value(&test_sets.language_pair), "refused with --test-set")
      ("origlang", po::value(&test_sets.origlang), "refused with --test-set (-ol)")
      ("subset", po::value(&test_sets.subset), "refused with --test-set")
      ("detail,d", po::bool_switch(&test_sets.detail), "refused with --test-set");
  return unsupported;
}

int run(int argc, char** argv) {
  EvalOptions cfg;
  SacrebleuArguments text;
  rnnsearch::util::CommonOptions common;
  po::options_description general("General");
  rnnsearch::util::add_common_options(general, common);
  po::options_description all;
  all.add(io_options(cfg, text)).add(bleu_options(cfg, text)).add(chrf_options(cfg)).add(ter_options(cfg));
  all.add(statistics_options(cfg, text)).add(test_set_options(text.test_sets)).add(general);
  po::options_description hidden;
  hidden.add_options()("refs", po::value(&cfg.references)->multitoken(), "reference files");
  po::positional_options_description positional;
  positional.add("refs", -1);
  const rnnsearch::util::ToolInfo tool{"nmt-bleu", kSynopsis, " (scores as sacreBLEU 2.6.0)"};
  if (rnnsearch::tools::parse_command_line(tool, rnnsearch::util::expand_aliases(argc, argv, kSacrebleuAliases), all,
                                           common, &hidden, &positional)) {
    return rnnsearch::util::kExitOk;
  }
  text.apply_to(cfg);
  cfg.threads = common.resolved_threads();
  const auto warn = rnnsearch::tools::stderr_notes(common, "nmt-bleu: ");
  rnnsearch::eval::evaluate(cfg, {rnnsearch::tools::write_to_stdout, warn});
  return rnnsearch::util::kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  return rnnsearch::tools::run_tool("nmt-bleu", [&] { return run(argc, argv); });
}
