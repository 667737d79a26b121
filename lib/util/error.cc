#include "util/error.h"

namespace rnnsearch::util {
namespace {

std::string locate(const std::string& file, std::size_t line, const std::string& message) {
  std::string out = file;
  if (line > 0) out += ":" + std::to_string(line);
  return out + ": " + message;
}

}  // namespace

Error::Error(const std::string& message) : std::runtime_error(message), detail_(message) {}

Error::Error(const std::string& file, const std::string& message)
    : std::runtime_error(locate(file, 0, message)), file_(file), detail_(message) {}

Error::Error(const std::string& file, std::size_t line, const std::string& message)
    : std::runtime_error(locate(file, line, message)), file_(file), line_(line), detail_(message) {}

}  // namespace rnnsearch::util
