#include "fuzz_input.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace rnnsearch::fuzz {

TempInput::TempInput(const std::uint8_t* data, std::size_t size, const char* suffix) {
  // One name per process: the fuzzer runs one input at a time, and separate fuzz runs
  // (or ctest -j) do not share it.
  const char* dir = std::getenv("TMPDIR");
  path_ = std::string(dir && *dir ? dir : "/tmp") + "/rnnsearch-fuzz-" + std::to_string(getpid()) + suffix;
  std::FILE* f = std::fopen(path_.c_str(), "wb");
  if (!f || (size > 0 && std::fwrite(data, 1, size, f) != size) || std::fclose(f) != 0) {
    std::perror(path_.c_str());
    std::abort();
  }
}

TempInput::~TempInput() { std::remove(path_.c_str()); }

std::vector<std::string> split(std::string_view text, char separator) {
  std::vector<std::string> parts;
  std::size_t begin = 0;
  for (;;) {
    const std::size_t end = text.find(separator, begin);
    if (end == std::string_view::npos) break;
    parts.emplace_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  parts.emplace_back(text.substr(begin));
  return parts;
}

void check(bool condition, const char* what) {
  if (condition) return;
  std::fprintf(stderr, "fuzz check failed: %s\n", what);
  std::abort();
}

}  // namespace rnnsearch::fuzz
