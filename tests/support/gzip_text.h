#pragma once
// Reading the shared gzip corpora (Multi30k, golden inputs) in tests and benchmarks,
// through the system's gzip; plus the median that benchmarks report.
#include <string>
#include <vector>

namespace rnnsearch::testing {

// The decompressed bytes of a .gz file (empty when it cannot be read).
std::string gunzip_text(const std::string& path);
// Its lines, without "\n".
std::vector<std::string> gunzip_lines(const std::string& path);
// Median of a non-empty sample.
double median(std::vector<double> values);

}  // namespace rnnsearch::testing
