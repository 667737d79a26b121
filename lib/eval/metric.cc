#include "eval/metric.h"

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

}  // namespace rnnsearch::eval
