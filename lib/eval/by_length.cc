#include "eval/by_length.h"

#include <memory>

#include "eval/eval_stream.h"
#include "eval/length_chart.h"
#include "eval/metric_factory.h"
#include "util/atomic_file.h"
#include "util/distinct_outputs.h"
#include "util/error.h"
#include "util/line_reader.h"

namespace rnnsearch::eval {

void ByLengthOptions::validate() const {
  if (source.empty()) throw util::UsageError("--source is required");
  if (reference.empty()) throw util::UsageError("give one --reference file");
  if (eval.inputs.empty()) throw util::UsageError("--input needs at least one system's translations");
  if (!names.empty() && names.size() != eval.inputs.size()) {
    throw util::UsageError("--names gives " + std::to_string(names.size()) + " names for " +
                           std::to_string(eval.inputs.size()) + " systems");
  }
  if (metric != "bleu" && metric != "chrf" && metric != "ter") {
    throw util::UsageError("--metric must be bleu, chrf or ter, got '" + metric + "'");
  }
  if (decimals < 0 || decimals > 6) {
    throw util::UsageError("--decimals must be in [0, 6], got " + std::to_string(decimals));
  }
  buckets.validate();
  util::check_distinct_outputs({{"-o", output}, {"--svg", svg}});
}

namespace {

// The source lines that go with the next block of references and systems.
class SourceBlocks {
 public:
  explicit SourceBlocks(const std::string& path) : reader_(path) {}

  // Up to `count` lines into `sources`; false once the source has ended (the lines read
  // are still counted).
  bool next(std::size_t count, std::vector<std::string>& sources) {
    sources.clear();
    while (!ended_ && sources.size() < count) {
      ended_ = !reader_.next(line_);
      if (!ended_) sources.push_back(line_);
    }
    lines_ += sources.size();
    return !ended_;
  }
  // Counts the lines left; returns all the lines the source has.
  std::size_t count_to_end() {
    while (!ended_ && reader_.next(line_)) ++lines_;
    ended_ = true;
    return lines_;
  }

 private:
  util::LineReader reader_;
  std::string line_;
  std::size_t lines_ = 0;
  bool ended_ = false;
};

LengthScores score_files(const ByLengthOptions& options, const EvalOptions& eval) {
  SourceBlocks source(options.source);
  EvalStream inputs(eval);
  const std::vector<std::string> names = options.names.empty() ? inputs.system_names() : options.names;
  const auto scorer = make_metric(options.metric, eval, ReferenceSet(1), false);
  LengthScoreBuilder builder(names, scorer->width(), options.buckets);
  std::vector<std::string> sources;
  EvalBlock block;
  while (inputs.next(block)) {
    if (!source.next(block.size(), sources)) continue;  // the reference is still counted, for the message below
    const auto block_scorer = make_metric(options.metric, eval, block.references, false);
    std::vector<StatsMatrix> stats;
    for (const auto& system : block.systems) stats.push_back(block_scorer->segment_stats(system, eval.threads));
    builder.add(sources, stats);
  }
  const std::size_t source_lines = source.count_to_end();
  if (source_lines != inputs.segments()) {
    throw util::Error(options.source, "has " + std::to_string(source_lines) + " lines, but " + options.reference +
                                          " has " + std::to_string(inputs.segments()));
  }
  return builder.finish(*scorer);
}

}  // namespace

void evaluate_by_length(const ByLengthOptions& options) {
  options.validate();
  EvalOptions eval = options.eval;
  eval.references = {options.reference};
  eval.metrics = {options.metric};
  const LengthScores scores = score_files(options, eval);
  const std::string metric_name = scores.overall.front().name;
  util::AtomicFileWriter table(options.output);
  table.write(format_length_table(scores, metric_name, options.decimals));
  std::vector<util::AtomicFileWriter*> outputs = {&table};
  std::unique_ptr<util::AtomicFileWriter> chart;
  if (!options.svg.empty()) {
    chart = std::make_unique<util::AtomicFileWriter>(options.svg);
    chart->write(length_chart_svg(scores, metric_name));
    outputs.push_back(chart.get());
  }
  util::commit_together(outputs);  // the chart is not left without its table, nor the table without it
}

}  // namespace rnnsearch::eval
