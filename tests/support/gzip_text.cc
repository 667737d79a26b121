#include "support/gzip_text.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace rnnsearch::testing {

// Throws when gzip cannot run or fails (a missing or corrupt file): an empty text would
// let a caller's check pass on nothing.
std::string gunzip_text(const std::string& path) {
  std::string out;
  FILE* pipe = popen(("gzip -dc '" + path + "' 2>/dev/null").c_str(), "r");
  if (!pipe) throw std::runtime_error("cannot run gzip -dc " + path);
  char buf[65536];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) out.append(buf, n);
  if (pclose(pipe) != 0) throw std::runtime_error("gzip -dc " + path + " failed");
  return out;
}

std::vector<std::string> gunzip_lines(const std::string& path) {
  const std::string text = gunzip_text(path);
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t nl = text.find('\n', start);
    if (nl == std::string::npos) nl = text.size();
    lines.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

}  // namespace rnnsearch::testing
