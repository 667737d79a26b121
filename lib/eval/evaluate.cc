#include "eval/evaluate.h"

#include <algorithm>
#include <cmath>
#include <future>
#include <map>
#include <memory>

#include "eval/metric_factory.h"
#include "eval/resampling.h"
#include "eval/results_table.h"
#include "eval/score_format.h"
#include "eval/signature.h"
#include "util/error.h"

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

std::uint64_t effective_seed(const EvalConfig& config) { return config.seed ? *config.seed : random_seed(); }

std::string seed_text(const EvalConfig& config) { return config.seed ? std::to_string(*config.seed) : "none"; }

// sacreBLEU warns when a BLEU hypothesis looks tokenized (100+ lines ending in " .").
void warn_if_tokenized(const EvalConfig& config, const std::vector<std::string>& lines,
                       std::vector<std::string>& warnings) {
  if (config.bleu_force) return;
  std::size_t count = 0;
  for (const auto& l : lines) {
    if (l.size() >= 2 && l.compare(l.size() - 2, 2, " .") == 0) ++count;
  }
  if (count >= 100) {
    warnings.push_back("That's 100 lines that end in a tokenized period ('.')");
    warnings.push_back("It looks like you forgot to detokenize your test data, which may hurt your score.");
    warnings.push_back("If you insist your data is detokenized, or don't care, you can suppress this message with --force.");
  }
}

// Per-segment statistics of every system under one metric, systems in parallel.
std::vector<StatsMatrix> all_segment_stats(const Metric& metric, const std::vector<SystemOutput>& systems,
                                           int threads) {
  std::vector<StatsMatrix> stats(systems.size());
  if (threads <= 1 || systems.size() == 1) {
    for (std::size_t s = 0; s < systems.size(); ++s) stats[s] = metric.segment_stats(systems[s].lines, threads);
    return stats;
  }
  std::vector<std::future<StatsMatrix>> jobs;
  for (const auto& system : systems) {
    jobs.push_back(std::async(std::launch::async, [&metric, &system] { return metric.segment_stats(system.lines); }));
  }
  for (std::size_t s = 0; s < systems.size(); ++s) stats[s] = jobs[s].get();
  return stats;
}

std::string sentence_level(const EvalConfig& config, const EvalInputs& inputs) {
  if (config.metrics.size() > 1) throw util::UsageError("--sentence-level takes one metric, got " + std::to_string(config.metrics.size()));
  if (inputs.systems.size() > 1) throw util::UsageError("--sentence-level scores one system, got " + std::to_string(inputs.systems.size()));
  if (config.confidence || config.paired_bs || config.paired_ar) {
    throw util::UsageError("statistical tests are unavailable with --sentence-level");
  }
  const auto metric = make_metric(config.metrics.front(), config, inputs.references, true);
  const StatsMatrix stats = metric->segment_stats(inputs.systems.front().lines, config.threads);
  const std::string signature = format_signature(*metric, {}, config.short_signature);
  std::string out;
  for (std::size_t i = 0; i < stats.rows(); ++i) {
    out += format_score(metric->score_from_stats(stats.row(i)), config.width, config.score_only, signature, false);
    out += '\n';
  }
  return out;
}

std::string single_system(const EvalConfig& config, const EvalInputs& inputs) {
  const bool json = config.format == "json";
  std::vector<std::string> results;
  for (const auto& name : sorted_metric_names(config.metrics)) {
    const auto metric = make_metric(name, config, inputs.references, false);
    const StatsMatrix stats = metric->segment_stats(inputs.systems.front().lines, config.threads);
    const std::vector<double> sums = stats.column_sums();
    Score score = metric->score_from_stats(sums.data());
    SignatureGlobals globals;
    if (config.confidence) {
      const auto samples = bootstrap_scores(*metric, {&stats}, config.confidence_n, effective_seed(config), config.threads);
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

std::string multi_system(const EvalConfig& config, const EvalInputs& inputs) {
  if (config.confidence) throw util::UsageError("--confidence scores one system; use --paired-bs for several");
  const bool paired = config.paired_bs || config.paired_ar;
  ResultsTable table;
  for (std::size_t s = 0; s < inputs.systems.size(); ++s) {
    std::string name = inputs.systems[s].name;
    if (paired && s == 0) name = config.inputs.empty() ? "Baseline" : "Baseline: " + name;
    if (paired && config.inputs.empty() && s > 0) name = "System " + std::to_string(s);
    table.systems.push_back(name);
  }
  table.paired_bootstrap = config.paired_bs;
  table.paired_ar = config.paired_ar;
  table.samples = config.paired_bs ? config.paired_bs_n : config.paired_ar_n;

  const std::uint64_t seed = effective_seed(config);
  for (const auto& name : sorted_metric_names(config.metrics)) {
    const auto metric = make_metric(name, config, inputs.references, false);
    const std::vector<StatsMatrix> stats = all_segment_stats(*metric, inputs.systems, config.threads);
    ResultsColumn column;
    std::vector<double> scores;
    for (const auto& st : stats) {
      const std::vector<double> sums = st.column_sums();
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
      const auto resampled = bootstrap_scores(*metric, pointers, bs_samples, seed, config.threads);
      for (std::size_t s = 0; s < stats.size(); ++s) {
        const Confidence c = estimate_confidence(resampled[s]);
        column.cells[s].mean = c.mean;
        column.cells[s].ci = c.ci;
        if (s == 0) continue;
        if (config.paired_bs) {
          const double observed = std::fabs(scores[0] - scores[s]);
          column.cells[s].p_value = paired_bootstrap_p_value(resampled[0], resampled[s], observed);
        } else {
          column.cells[s].p_value =
              approximate_randomization_p_value(*metric, stats[0], stats[s], config.paired_ar_n, seed, config.threads);
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
  return config.format == "json" ? format_results_json(table, config.width)
                                 : format_results_text(table, config.width);
}

}  // namespace

EvalReport evaluate(const EvalConfig& config, const EvalInputs& inputs) {
  EvalReport report;
  for (const auto& name : config.metrics) {
    if (name == "bleu") {
      for (const auto& system : inputs.systems) warn_if_tokenized(config, system.lines, report.warnings);
      break;
    }
  }
  if (config.sentence_level) {
    report.output = sentence_level(config, inputs);
  } else if (inputs.systems.size() == 1) {
    if (config.paired_bs || config.paired_ar) {
      throw util::UsageError("paired tests need several systems: -i BASELINE SYSTEM...");
    }
    report.output = single_system(config, inputs);
  } else {
    report.output = multi_system(config, inputs);
  }
  return report;
}

}  // namespace rnnsearch::eval
