#include "eval/evaluate.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>

#include "eval/metric_factory.h"
#include "eval/resampling.h"
#include "eval/results_table.h"
#include "eval/score_format.h"
#include "eval/signature.h"
#include "util/error.h"
#include "util/parallel.h"

namespace rnnsearch::eval {
namespace {

// sacreBLEU keys its metrics by upper-case name and prints them sorted.
std::vector<std::string> sorted_metric_names(const std::vector<std::string>& names) {
  std::map<std::string, std::string> by_upper;
  for (const auto& n : names) {
    std::string upper = n;
    std::transform(upper.begin(), upper.end(), upper.begin(), [](unsigned char c) { return std::toupper(c); });
    by_upper[upper] = n;
  }
  std::vector<std::string> out;
  for (const auto& [upper, n] : by_upper) out.push_back(n);
  return out;
}

std::uint64_t effective_seed(const EvalOptions& config) { return config.seed ? *config.seed : random_seed(); }

std::string seed_text(const EvalOptions& config) { return config.seed ? std::to_string(*config.seed) : "none"; }

// sacreBLEU warns when a BLEU hypothesis looks tokenized (100+ lines ending in " .").
bool ends_in_tokenized_period(const std::string& l) { return l.size() >= 2 && l.compare(l.size() - 2, 2, " .") == 0; }

void warn_if_tokenized(const EvalOptions& config, std::size_t count, std::vector<std::string>& warnings) {
  if (config.bleu_force) return;
  if (count >= 100) {
    warnings.push_back("That's 100 lines that end in a tokenized period ('.')");
    warnings.push_back("It looks like you forgot to detokenize your test data, which may hurt your score.");
    warnings.push_back("If you insist your data is detokenized, or don't care, you can suppress this message with --force.");
  }
}

// Per-segment statistics of every system under one metric: one system's segments on all
// threads, several systems side by side (blocks of systems on the threads).
std::vector<StatsMatrix> all_segment_stats(const Metric& metric, const std::vector<std::vector<std::string>>& systems,
                                           int threads) {
  std::vector<StatsMatrix> stats(systems.size());
  if (threads <= 1 || systems.size() == 1) {
    for (std::size_t s = 0; s < systems.size(); ++s) stats[s] = metric.segment_stats(systems[s], threads);
    return stats;
  }
  util::parallel_for(systems.size(), threads, [&](std::size_t begin, std::size_t end) {
    for (std::size_t s = begin; s < end; ++s) stats[s] = metric.segment_stats(systems[s]);
  });
  return stats;
}

// One metric's statistics of every system: all rows when `rows` was asked for, else only
// the column sums, added row by row in segment order as StatsMatrix::column_sums adds.
struct MetricStats {
  std::unique_ptr<Metric> metric;  // over no segments: for scores and the signature
  std::vector<StatsMatrix> rows;   // [system]
  std::vector<std::vector<double>> sums;  // [system]

  std::vector<double> column_sums(std::size_t s) const { return rows.empty() ? sums[s] : rows[s].column_sums(); }
};

struct Collected {
  std::vector<MetricStats> metrics;          // in the order of the names asked for
  std::vector<std::size_t> tokenized_lines;  // [system]: lines ending in " ."
};

// Reads the inputs to their end, one block at a time: each block's references build a
// metric for its segments only, whose rows are appended (or summed) per system.
Collected collect_stats(const EvalOptions& config, EvalStream& inputs, const std::vector<std::string>& names,
                        bool rows) {
  const std::size_t systems = inputs.system_names().size();
  Collected out;
  out.tokenized_lines.assign(systems, 0);
  const ReferenceSet no_segments(static_cast<std::size_t>(inputs.num_reference_streams()));
  for (const auto& name : names) {
    MetricStats m;
    m.metric = make_metric(name, config, no_segments, false);
    if (rows) {
      m.rows.resize(systems);
      for (auto& st : m.rows) st.width = m.metric->width();
    } else {
      m.sums.assign(systems, std::vector<double>(m.metric->width(), 0.0));
    }
    out.metrics.push_back(std::move(m));
  }
  EvalBlock block;
  while (inputs.next(block)) {
    for (std::size_t s = 0; s < systems; ++s) {
      for (const auto& l : block.systems[s]) out.tokenized_lines[s] += ends_in_tokenized_period(l) ? 1 : 0;
    }
    for (std::size_t k = 0; k < names.size(); ++k) {
      MetricStats& m = out.metrics[k];
      const auto metric = make_metric(names[k], config, block.references, false);
      std::vector<StatsMatrix> stats = all_segment_stats(*metric, block.systems, config.worker_threads());
      for (std::size_t s = 0; s < systems; ++s) {
        if (rows) {
          m.rows[s].values.insert(m.rows[s].values.end(), stats[s].values.begin(), stats[s].values.end());
          continue;
        }
        std::vector<double>& sums = m.sums[s];
        for (std::size_t i = 0; i < stats[s].rows(); ++i) {
          const double* r = stats[s].row(i);
          for (std::size_t c = 0; c < sums.size(); ++c) sums[c] += r[c];
        }
      }
    }
  }
  return out;
}

// One score per segment, printed a block at a time: each block's references build a
// metric for its segments, whose rows are scored by the metric over no segments (which
// holds the options and the signature) and then dropped.
void sentence_level(const EvalOptions& config, EvalStream& inputs, const EvalPrinter& print) {
  if (config.metrics.size() > 1) throw util::UsageError("--sentence-level takes one metric, got " + std::to_string(config.metrics.size()));
  const std::size_t systems = inputs.system_names().size();
  if (systems > 1) throw util::UsageError("--sentence-level scores one system, got " + std::to_string(systems));
  if (config.confidence || config.paired_bs || config.paired_ar) {
    throw util::UsageError("statistical tests are unavailable with --sentence-level");
  }
  const std::string& name = config.metrics.front();
  const ReferenceSet no_segments(static_cast<std::size_t>(inputs.num_reference_streams()));
  const auto metric = make_metric(name, config, no_segments, true);
  const std::string signature = format_signature(*metric, {}, config.short_signature);
  std::size_t tokenized_lines = 0;
  EvalBlock block;
  std::string out;
  while (inputs.next(block)) {
    const std::vector<std::string>& hypotheses = block.systems.front();
    for (const auto& l : hypotheses) tokenized_lines += ends_in_tokenized_period(l) ? 1 : 0;
    const StatsMatrix stats =
        make_metric(name, config, block.references, true)->segment_stats(hypotheses, config.worker_threads());
    out.clear();
    for (std::size_t i = 0; i < stats.rows(); ++i) {
      out += format_score(metric->score_from_stats(stats.row(i)), config.width, config.score_only, signature, false);
      out += '\n';
    }
    print.output(out);
  }
  std::vector<std::string> warnings;
  if (name == "bleu") warn_if_tokenized(config, tokenized_lines, warnings);
  for (const auto& w : warnings) print.warning(w);
}

std::string single_system(const EvalOptions& config, const Collected& collected) {
  const bool json = config.format == OutputFormat::kJson;
  std::vector<std::string> results;
  for (const MetricStats& m : collected.metrics) {
    const auto& metric = m.metric;
    const std::vector<double> sums = m.column_sums(0);
    Score score = metric->score_from_stats(sums.data());
    SignatureGlobals globals;
    if (config.confidence) {
      const auto samples = bootstrap_scores(*metric, {&m.rows.front()}, config.confidence_n, effective_seed(config),
                                            config.worker_threads());
      const Confidence c = estimate_confidence(samples.front());
      score.mean = c.mean;
      score.ci = c.ci;
      globals.bootstrap_samples = config.confidence_n;
      globals.seed = seed_text(config);
    }
    const std::string signature = format_signature(*metric, globals, json ? false : config.short_signature);
    results.push_back(format_score(score, config.width, config.score_only, signature, json));
  }
  return format_single_results(results, json);
}

std::string multi_system(const EvalOptions& config, const std::vector<std::string>& system_names,
                         const Collected& collected) {
  const bool paired = config.paired_bs || config.paired_ar;
  ResultsTable table;
  for (std::size_t s = 0; s < system_names.size(); ++s) {
    std::string name = system_names[s];
    if (paired && s == 0) name = config.inputs.empty() ? "Baseline" : "Baseline: " + name;
    if (paired && config.inputs.empty() && s > 0) name = "System " + std::to_string(s);
    table.systems.push_back(name);
  }
  table.paired_bootstrap = config.paired_bs;
  table.paired_ar = config.paired_ar;
  table.samples = config.paired_bs ? config.paired_bs_n : config.paired_ar_n;

  const std::uint64_t seed = effective_seed(config);
  for (const MetricStats& m : collected.metrics) {
    const auto& metric = m.metric;
    const std::vector<StatsMatrix>& stats = m.rows;
    ResultsColumn column;
    std::vector<double> scores;
    for (std::size_t s = 0; s < system_names.size(); ++s) {
      const std::vector<double> sums = m.column_sums(s);
      const Score score = metric->score_from_stats(sums.data());
      if (column.metric.empty()) column.metric = score.name;
      scores.push_back(score.score);
      column.cells.push_back({score.score, std::nullopt, std::nullopt, std::nullopt});
    }
    SignatureGlobals globals;
    if (paired) {
      globals.seed = seed_text(config);
      const int bs_samples = config.paired_bs ? config.paired_bs_n : 1000;
      std::vector<const StatsMatrix*> pointers;
      for (const auto& st : stats) pointers.push_back(&st);
      // Both tests report each system's bootstrap mean and 95% interval.
      const auto resampled = bootstrap_scores(*metric, pointers, bs_samples, seed, config.worker_threads());
      for (std::size_t s = 0; s < stats.size(); ++s) {
        const Confidence c = estimate_confidence(resampled[s]);
        column.cells[s].mean = c.mean;
        column.cells[s].ci = c.ci;
        if (s == 0) continue;
        if (config.paired_bs) {
          const double observed = std::fabs(scores[0] - scores[s]);
          column.cells[s].p_value = paired_bootstrap_p_value(resampled[0], resampled[s], observed);
        } else {
          column.cells[s].p_value = approximate_randomization_p_value(*metric, stats[0], stats[s], config.paired_ar_n,
                                                                      seed, config.worker_threads());
        }
      }
      if (config.paired_bs) {
        globals.bootstrap_samples = config.paired_bs_n;
      } else {
        globals.ar_trials = config.paired_ar_n;
        globals.bootstrap_samples = bs_samples;
      }
    }
    column.signature = format_signature(*metric, globals, config.short_signature);
    table.columns.push_back(std::move(column));
  }
  return config.format == OutputFormat::kJson ? format_results_json(table, config.width)
                                 : format_results_text(table, config.width);
}

}  // namespace

void evaluate(const EvalOptions& config, const EvalPrinter& print) {
  config.validate();
  EvalStream inputs(config);
  evaluate(config, inputs, print);
}

void evaluate(const EvalOptions& config, EvalStream& inputs, const EvalPrinter& print) {
  if (config.sentence_level) {
    sentence_level(config, inputs, print);
    return;
  }
  const std::size_t systems = inputs.system_names().size();
  if (systems == 1 && (config.paired_bs || config.paired_ar)) {
    throw util::UsageError("paired tests need several systems: -i BASELINE SYSTEM...");
  }
  if (systems > 1 && config.confidence) {
    throw util::UsageError("--confidence scores one system; use --paired-bs for several");
  }
  // Rows only for a test that resamples them; else sums, whatever the corpus size.
  const bool rows = config.confidence || config.paired_bs || config.paired_ar;
  const Collected collected = collect_stats(config, inputs, sorted_metric_names(config.metrics), rows);
  std::vector<std::string> warnings;
  for (const auto& name : config.metrics) {
    if (name == "bleu") {
      for (std::size_t s = 0; s < systems; ++s) warn_if_tokenized(config, collected.tokenized_lines[s], warnings);
      break;
    }
  }
  for (const auto& w : warnings) print.warning(w);
  print.output(systems == 1 ? single_system(config, collected)
                            : multi_system(config, inputs.system_names(), collected));
}

EvalReport evaluate(const EvalOptions& config, EvalStream& inputs) {
  EvalReport report;
  evaluate(config, inputs,
           {[&](const std::string& text) { report.output += text; },
            [&](const std::string& line) { report.warnings.push_back(line); }});
  return report;
}

}  // namespace rnnsearch::eval
