#pragma once
// What the fuzz targets share: the bytes as a file for readers that take a path, the bytes
// cut into parts, and a check that aborts (a finding) when a reader breaks its promise.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rnnsearch::fuzz {

// The bytes written to a file of this process's own, removed again on destruction. A
// target that needs a second file (a source text beside an n-best list, an output to read
// back) names it apart with `suffix`.
class TempInput {
 public:
  TempInput(const std::uint8_t* data, std::size_t size, const char* suffix = "");
  ~TempInput();
  TempInput(const TempInput&) = delete;
  TempInput& operator=(const TempInput&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// `text` cut at every `separator` (a trailing separator gives a last empty part).
std::vector<std::string> split(std::string_view text, char separator);

// Prints `what` and aborts when `condition` is false: libFuzzer and the replay test report
// the abort as a crash, with the input that caused it.
void check(bool condition, const char* what);

}  // namespace rnnsearch::fuzz
