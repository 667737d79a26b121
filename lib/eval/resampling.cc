#include "eval/resampling.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "util/parallel.h"
#include "util/rng.h"

namespace rnnsearch::eval {
namespace {

// Resample k's own generator, so results do not depend on how samples meet threads.
util::Rng resample_rng(std::uint64_t seed, std::uint64_t k) { return util::Rng(seed ^ (0xD1B54A32D192ED03ull * (k + 1))); }

// Runs body(k) for k in [0, count) on `threads` threads, each taking a contiguous block.
template <typename Body>
void for_each_index(int count, int threads, Body body) {
  util::parallel_for(static_cast<std::size_t>(std::max(count, 0)), threads, [&](std::size_t begin, std::size_t end) {
    for (auto k = static_cast<int>(begin); k < static_cast<int>(end); ++k) body(k);
  });
}

}  // namespace

Confidence estimate_confidence(std::vector<double> scores) {
  Confidence out;
  if (scores.empty()) return out;
  std::sort(scores.begin(), scores.end());
  const std::size_t n = scores.size();
  const std::size_t lower = n / 40;
  const std::size_t upper = n - lower - 1;
  out.ci = 0.5 * (scores[upper] - scores[lower]);
  double sum = 0.0;
  for (double s : scores) sum += s;
  out.mean = sum / static_cast<double>(n);
  return out;
}

std::vector<std::vector<double>> bootstrap_scores(const Metric& metric,
                                                  const std::vector<const StatsMatrix*>& systems,
                                                  int samples, std::uint64_t seed, int threads) {
  std::vector<std::vector<double>> scores(systems.size(), std::vector<double>(samples, 0.0));
  if (systems.empty()) return scores;
  const std::size_t n = systems.front()->rows();
  const std::size_t width = systems.front()->width;
  for_each_index(samples, threads, [&](int k) {
    util::Rng rng = resample_rng(seed, static_cast<std::uint64_t>(k));
    std::vector<std::vector<double>> sums(systems.size(), std::vector<double>(width, 0.0));
    for (std::size_t draw = 0; draw < n; ++draw) {
      const std::size_t i = rng.below(n);
      for (std::size_t s = 0; s < systems.size(); ++s) {
        const double* row = systems[s]->row(i);
        double* sum = sums[s].data();
        for (std::size_t c = 0; c < width; ++c) sum[c] += row[c];
      }
    }
    for (std::size_t s = 0; s < systems.size(); ++s) scores[s][k] = metric.score_from_stats(sums[s].data()).score;
  });
  return scores;
}

double paired_bootstrap_p_value(const std::vector<double>& baseline, const std::vector<double>& system,
                                double observed_difference) {
  const std::size_t n = baseline.size();
  std::vector<double> diffs(n);
  double mean = 0.0;
  for (std::size_t k = 0; k < n; ++k) {
    diffs[k] = std::fabs(system[k] - baseline[k]);
    mean += diffs[k];
  }
  mean /= static_cast<double>(n);
  std::size_t exceed = 0;
  for (double d : diffs) exceed += (d - mean) > observed_difference;
  return static_cast<double>(exceed + 1) / static_cast<double>(n + 1);
}

double approximate_randomization_p_value(const Metric& metric, const StatsMatrix& baseline,
                                         const StatsMatrix& system, int trials, std::uint64_t seed,
                                         int threads) {
  const std::vector<double> base_sums = baseline.column_sums();
  const std::vector<double> sys_sums = system.column_sums();
  const double observed =
      std::fabs(metric.score_from_stats(base_sums.data()).score - metric.score_from_stats(sys_sums.data()).score);
  const std::size_t n = baseline.rows();
  const std::size_t width = baseline.width;
  std::vector<char> exceeds(static_cast<std::size_t>(trials), 0);
  for_each_index(trials, threads, [&](int k) {
    util::Rng rng = resample_rng(seed, static_cast<std::uint64_t>(k));
    std::vector<double> a(width, 0.0), b(width, 0.0);
    for (std::size_t i = 0; i < n; ++i) {
      const bool swap = rng.next() >> 63;
      const double* x = baseline.row(i);
      const double* y = system.row(i);
      if (swap) std::swap(x, y);
      for (std::size_t c = 0; c < width; ++c) {
        a[c] += x[c];
        b[c] += y[c];
      }
    }
    const double diff = std::fabs(metric.score_from_stats(a.data()).score - metric.score_from_stats(b.data()).score);
    exceeds[static_cast<std::size_t>(k)] = diff > observed;
  });
  std::size_t count = 0;
  for (char e : exceeds) count += static_cast<std::size_t>(e);
  return static_cast<double>(count + 1) / static_cast<double>(trials + 1);
}

std::uint64_t random_seed() {
  std::random_device device;
  return (static_cast<std::uint64_t>(device()) << 32) ^ device();
}

}  // namespace rnnsearch::eval
