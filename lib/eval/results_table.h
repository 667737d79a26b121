#pragma once
// The multi-system report: one row per system, one column per metric, with bootstrap
// means, 95% intervals and p-values against the baseline (the first system) when a
// paired test ran; then the metric signatures. Text is a box-drawn grid in the style
// of sacreBLEU's table; JSON is a list with one object per system.
#include <optional>
#include <string>
#include <vector>

namespace rnnsearch::eval {

struct ResultsCell {
  double score = 0.0;
  std::optional<double> p_value;  // systems other than the baseline, paired tests only
  std::optional<double> mean;     // bootstrap estimate of the true score
  std::optional<double> ci;       // half-width of its 95% interval
};

struct ResultsColumn {
  std::string metric;     // "BLEU", "chrF2", "TER", ...
  std::string signature;
  std::vector<ResultsCell> cells;  // one per system
};

struct ResultsTable {
  std::vector<std::string> systems;
  std::vector<ResultsColumn> columns;
  bool paired_bootstrap = false;
  bool paired_ar = false;
  int samples = 0;  // resamples or trials of the paired test
};

std::string format_results_text(const ResultsTable& table, int width);
std::string format_results_json(const ResultsTable& table, int width);

}  // namespace rnnsearch::eval
