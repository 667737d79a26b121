// nmt-by-length: BLEU (or chrF, TER) of one or several systems per source-length bucket,
// as a table and as an SVG line chart (Bahdanau et al. 2015, figure 2).
#include "eval/eval_stream.h"
#include "eval/length_buckets.h"
#include "eval/length_chart.h"
#include "eval/metric_factory.h"
#include "util/atomic_file.h"
#include "util/cli.h"
#include "util/error.h"
#include "util/line_reader.h"
#include "util/option_range.h"

namespace po = boost::program_options;
namespace eval = rnnsearch::eval;
using rnnsearch::util::UsageError;

namespace {

struct ByLengthOptions {
  std::string source;
  eval::EvalOptions eval;  // references, inputs, metric and BLEU options
  std::vector<std::string> names;
  eval::LengthBucketOptions buckets;
  int decimals = 2;
  std::string output = "-";
  std::string svg;

  void validate() const {
    if (source.empty()) throw UsageError("--source is required");
    if (eval.references.size() != 1) throw UsageError("give one --reference file");
    if (eval.inputs.empty()) throw UsageError("--input needs at least one system's translations");
    if (!names.empty() && names.size() != eval.inputs.size()) {
      throw UsageError("--names gives " + std::to_string(names.size()) + " names for " +
                       std::to_string(eval.inputs.size()) + " systems");
    }
    const std::string& metric = eval.metrics.front();
    if (metric != "bleu" && metric != "chrf" && metric != "ter") {
      throw UsageError("--metric must be bleu, chrf or ter, got '" + metric + "'");
    }
    if (decimals < 0 || decimals > 6) throw UsageError("--decimals must be in [0, 6], got " + std::to_string(decimals));
    rnnsearch::util::check_range("bucket-width", buckets.width, 1, 1000);
    rnnsearch::util::check_range("max-length", buckets.max, 1, 10000);
    buckets.validate();
  }
};

int run(int argc, char** argv) {
  ByLengthOptions cfg;
  rnnsearch::util::CommonOptions common;
  std::string reference, metric = "bleu";
  po::options_description options("Options");
  options.add_options()
      ("source,s", po::value(&cfg.source), "source sentences, whose length in words picks the bucket (required)")
      ("reference,r", po::value(&reference), "reference translations, line-aligned (required)")
      ("input,i", po::value(&cfg.eval.inputs)->multitoken(), "translations of one or more systems (required)")
      ("names,n", po::value(&cfg.names)->multitoken(), "a name per system for the table and legend (default: file names)")
      ("metric,m", po::value(&metric)->default_value(metric), "bleu, chrf or ter (sacreBLEU's defaults)")
      ("bucket-width", po::value(&cfg.buckets.width)->default_value(cfg.buckets.width), "source words per bucket")
      ("max-length", po::value(&cfg.buckets.max)->default_value(cfg.buckets.max),
       "the last bucket holds sentences of at least this many words (a multiple of --bucket-width)")
      ("tokenize", po::value(&cfg.eval.bleu_tokenize)->default_value(cfg.eval.bleu_tokenize),
       "BLEU tokenizer: 13a, intl, zh, char, none")
      ("lowercase", po::bool_switch(&cfg.eval.bleu_lowercase), "case-insensitive BLEU")
      ("decimals", po::value(&cfg.decimals)->default_value(cfg.decimals), "digits after the point in the table")
      ("output,o", po::value(&cfg.output)->default_value(cfg.output), "the table (- = stdout; a file is written atomically)")
      ("svg", po::value(&cfg.svg), "also write the line chart to this SVG file (atomically)");
  rnnsearch::util::add_common_options(options, common);
  const rnnsearch::util::ToolInfo tool{
      "nmt-by-length",
      "Usage: nmt-by-length -s SOURCE -r REFERENCE -i SYSTEM... [-n NAME...] [--svg chart.svg]\n"
      "Scores each system on buckets of source sentence length (0-10, 10-20, ..., 50+ words by\n"
      "default) and on all sentences pooled, which equals nmt-bleu on the whole set.\n",
      ""};
  if (rnnsearch::util::parse_command_line(tool, std::vector<std::string>(argv + 1, argv + argc), options, common)) {
    return rnnsearch::util::kExitOk;
  }
  if (!reference.empty()) cfg.eval.references = {reference};
  cfg.eval.metrics = {metric};
  cfg.validate();

  // Source, reference and systems in lockstep, a block at a time: only statistics stay.
  rnnsearch::util::LineReader source_reader(cfg.source);
  eval::EvalStream inputs(cfg.eval);
  const std::vector<std::string> names = cfg.names.empty() ? inputs.system_names() : cfg.names;
  const auto scorer = eval::make_metric(metric, cfg.eval, eval::ReferenceSet(1), false);
  eval::LengthScoreBuilder builder(names, scorer->width(), cfg.buckets);
  std::vector<std::string> sources;
  std::string line;
  std::size_t source_lines = 0;
  bool source_ended = false;
  eval::EvalBlock block;
  while (inputs.next(block)) {
    sources.clear();
    while (!source_ended && sources.size() < block.size()) {
      source_ended = !source_reader.next(line);
      if (!source_ended) sources.push_back(line);
    }
    source_lines += sources.size();
    if (source_ended) continue;  // the reference is still counted, for the message below
    const auto block_scorer = eval::make_metric(metric, cfg.eval, block.references, false);
    std::vector<eval::StatsMatrix> stats;
    for (const auto& system : block.systems) stats.push_back(block_scorer->segment_stats(system, common.resolved_threads()));
    builder.add(sources, stats);
  }
  while (!source_ended && source_reader.next(line)) ++source_lines;
  if (source_lines != inputs.segments()) {
    throw rnnsearch::util::Error(cfg.source, "has " + std::to_string(source_lines) + " lines, but " + reference +
                                                 " has " + std::to_string(inputs.segments()));
  }
  const auto scores = builder.finish(*scorer);
  const std::string metric_name = scores.overall.front().name;
  rnnsearch::util::AtomicFileWriter table(cfg.output);
  table.write(eval::format_length_table(scores, metric_name, cfg.decimals));
  if (!cfg.svg.empty()) {
    rnnsearch::util::AtomicFileWriter chart(cfg.svg);
    chart.write(eval::length_chart_svg(scores, metric_name));
    chart.commit();
  }
  table.commit();
  return rnnsearch::util::kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  return rnnsearch::util::run_tool("nmt-by-length", [&] { return run(argc, argv); });
}
