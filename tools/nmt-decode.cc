// nmt-decode: translates source lines from stdin (or -i) to stdout with an RNNsearch model.
#include <iostream>
#include <vector>

#include "math/gemm_kernels.h"
#include "model/model_file.h"
#include "search/translator.h"
#include "util/cli.h"
#include "util/error.h"
#include "util/option_range.h"

namespace po = boost::program_options;
using rnnsearch::util::UsageError;

namespace {

int run(int argc, char** argv) {
  rnnsearch::search::TranslateOptions cfg;
  rnnsearch::util::CommonOptions common;
  std::vector<std::string> model_paths;
  std::string input = "-", output = "-", attention_source = "auto";
  int n_best = 0;
  po::options_description options("Options");
  options.add_options()
      ("model,m", po::value(&model_paths)->multitoken(),
       "model file(s) written by nmt-train (required); several form an ensemble (same target vocabulary)")
      ("input,i", po::value(&input)->default_value(input), "source text, tokenized and BPE'd as in training (- = stdin)")
      ("output,o", po::value(&output)->default_value(output), "translations (- = stdout; a file is written atomically)")
      ("beam-size,b", po::value(&cfg.beam.beam_size)->default_value(cfg.beam.beam_size), "beam size (1 = greedy)")
      ("n-best", po::value(&n_best)->default_value(n_best), "write the K best translations per line in Moses n-best format (0 = off)")
      ("length-penalty", po::value(&cfg.beam.length_penalty)->default_value(cfg.beam.length_penalty, rnnsearch::util::shortest_number(cfg.beam.length_penalty)),
       "alpha: hypotheses are ranked by log p / length^alpha (0 = no normalization)")
      ("max-length-ratio", po::value(&cfg.beam.max_length_ratio)->default_value(cfg.beam.max_length_ratio, rnnsearch::util::shortest_number(cfg.beam.max_length_ratio)),
       "at most ratio * source length + 10 target tokens")
      ("max-length", rnnsearch::util::unsigned_value(&cfg.max_length, "max-length", std::size_t{0}, rnnsearch::search::kMaxSourcePieces)->default_value(cfg.max_length), "longer source lines are truncated, with a warning (0 = no limit)")
      ("mini-batch", po::value(&cfg.beam.batch_size)->default_value(cfg.beam.batch_size), "sentences translated together (1 = each line at once)")
      ("maxi-batch", po::value(&cfg.maxi_batch)->default_value(cfg.maxi_batch), "mini-batches per window sorted by length")
      ("alignment", po::value(&cfg.alignment), "append ' ||| ' and the attention alignment: hard (i-j links) or soft (weights)")
      ("replace-unk", po::bool_switch(&cfg.replace_unknown), "replace <unk> in the output by the most attended source token")
      ("attention-source", po::value(&attention_source)->default_value(attention_source),
       "the weights of --alignment and --replace-unk: decoder (the attention of the search), head (the first model's "
       "alignment head, nmt-train --alignment-head, on the chosen translation) or auto (head when it has one)");
  rnnsearch::util::add_common_options(options, common);
  const rnnsearch::util::ToolInfo tool{
      "nmt-decode",
      "Usage: nmt-decode -m MODEL [MODEL...] [options] < source.bpe > translations.bpe\n"
      "Translates one line per input line with beam search; an empty line gives an empty line. Input\n"
      "and output are subword tokens, as in training (nmt-bpe apply before, nmt-bpe undo after).\n",
      ""};
  if (rnnsearch::util::parse_command_line(tool, std::vector<std::string>(argv + 1, argv + argc), options, common)) {
    return rnnsearch::util::kExitOk;
  }
  if (model_paths.empty()) throw UsageError("--model MODEL is required");
  cfg.n_best_output = n_best > 0;
  cfg.beam.n_best = std::max(1, n_best);
  cfg.validate();
  rnnsearch::util::check_range("n-best", n_best, 0, cfg.beam.beam_size);
  rnnsearch::model::check_attention_source_name(attention_source);
  cfg.threads = common.resolved_threads();
  cfg.progress = !common.quiet;
  std::vector<rnnsearch::model::LoadedModel> models;
  for (const auto& path : model_paths) {
    models.push_back(rnnsearch::model::read_model_file(path));
    if (!(models.back().target_vocabulary == models.front().target_vocabulary)) {
      throw rnnsearch::util::Error(path, "its target vocabulary (" + std::to_string(models.back().target_vocabulary.size()) +
                                             " entries) differs from that of " + model_paths.front() + " (" +
                                             std::to_string(models.front().target_vocabulary.size()) +
                                             "): an ensemble needs the same target vocabulary");
    }
    if (!cfg.alignment.empty()) rnnsearch::model::require_attention(*models.back().model, path, "--alignment");
    if (cfg.replace_unknown) rnnsearch::model::require_attention(*models.back().model, path, "--replace-unk");
  }
  if (!cfg.alignment.empty() || cfg.replace_unknown) {
    cfg.alignment_head = rnnsearch::model::choose_attention_source(attention_source, *models.front().model,
                                                                  model_paths.front(),
                                                                  cfg.alignment.empty() ? "--replace-unk" : "--alignment") ==
                         rnnsearch::model::AttentionSource::kAlignmentHead;
  }
  const bool quiet = common.quiet;
  rnnsearch::search::translate_stream(models, cfg, input, output, [quiet](const std::string& warning) {
    if (!quiet) std::cerr << "nmt-decode: warning: " << warning << '\n';
  });
  return rnnsearch::util::kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  rnnsearch::math::select_gemm_kernels(argv);
  return rnnsearch::util::run_tool("nmt-decode", [&] { return run(argc, argv); });
}
