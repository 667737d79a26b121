#include "eval/metric.h"

#include <algorithm>

#include "util/error.h"
#include "util/parallel.h"

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
  util::parallel_for(n, static_cast<int>(blocks),
                     [&](std::size_t begin, std::size_t end) { compute_rows(hypotheses, begin, end, stats); });
  return stats;
}

}  // namespace rnnsearch::eval
