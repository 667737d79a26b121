#pragma once
// Errors the library throws. The library never prints or exits (scripts/lib-quiet.sh,
// ctest lib_quiet, checks it): the tools' entry (tools/support/tool_entry.h) turns these
// into a one-line message and an exit code.
#include <cstddef>
#include <stdexcept>
#include <string>

namespace rnnsearch::util {

// Bad input or a failed operation (exit code 1). Carries the file and, when known,
// the 1-based line, so what() reads "test.de:17: invalid UTF-8 at byte 4".
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message);
  Error(const std::string& file, const std::string& message);
  Error(const std::string& file, std::size_t line, const std::string& message);

  const std::string& file() const { return file_; }
  std::size_t line() const { return line_; }  // 0 when not tied to a line
  const std::string& detail() const { return detail_; }

 private:
  std::string file_;
  std::size_t line_ = 0;
  std::string detail_;
};

// A wrong command line (exit code 2): the message names the option and the value.
class UsageError : public std::runtime_error {
 public:
  explicit UsageError(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace rnnsearch::util
