#include "util/same_file.h"

#include <filesystem>

namespace rnnsearch::util {
namespace {

std::filesystem::path normal_absolute(const std::string& path) {
  std::error_code error;
  const std::filesystem::path absolute = std::filesystem::absolute(path, error);
  return (error ? std::filesystem::path(path) : absolute).lexically_normal();
}

}  // namespace

bool same_file(const std::string& a, const std::string& b) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (fs::exists(a, error) && fs::exists(b, error)) {
    const bool same = fs::equivalent(a, b, error);
    if (!error) return same;
  }
  return normal_absolute(a) == normal_absolute(b);
}

}  // namespace rnnsearch::util
