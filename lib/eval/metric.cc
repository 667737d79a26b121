#include "eval/metric.h"

#include <algorithm>
#include <exception>
#include <thread>

#include "util/error.h"

namespace rnnsearch::eval {

std::vector<double> StatsMatrix::column_sums() const {
  std::vector<double> sums(width, 0.0);
  const std::size_t n = rows();
  for (std::size_t i = 0; i < n; ++i) {
    const double* r = row(i);
    for (std::size_t k = 0; k < width; ++k) sums[k] += r[k];
  }
  return sums;
}

StatsMatrix Metric::segment_stats(const std::vector<std::string>& hypotheses, int threads) const {
  const std::size_t n = hypotheses.size();
  if (n != num_segments()) {
    throw util::Error(std::to_string(n) + " hypotheses for " + std::to_string(num_segments()) +
                      " reference segments");
  }
  StatsMatrix stats;
  stats.width = width();
  stats.values.assign(n * stats.width, 0.0);
  // Blocks of fewer than ~500 segments are not worth a thread.
  const std::size_t blocks = std::max<std::size_t>(1, std::min<std::size_t>(threads, n / 500));
  if (blocks == 1) {
    compute_rows(hypotheses, 0, n, stats);
    return stats;
  }
  std::vector<std::thread> workers;
  std::vector<std::exception_ptr> failures(blocks);
  for (std::size_t b = 0; b < blocks; ++b) {
    workers.emplace_back([&, b] {
      try {
        compute_rows(hypotheses, n * b / blocks, n * (b + 1) / blocks, stats);
      } catch (...) {
        failures[b] = std::current_exception();
      }
    });
  }
  for (auto& w : workers) w.join();
  for (const auto& failure : failures) {
    if (failure) std::rethrow_exception(failure);  // the first block's error first
  }
  return stats;
}

}  // namespace rnnsearch::eval
