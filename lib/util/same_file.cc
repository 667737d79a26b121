#include "util/same_file.h"

#include <filesystem>

#include "util/error.h"
#include "util/output_path.h"

namespace rnnsearch::util {
namespace {

std::filesystem::path normal_absolute(const std::string& path) {
  std::error_code error;
  const std::filesystem::path absolute = std::filesystem::absolute(path, error);
  return (error ? std::filesystem::path(path) : absolute).lexically_normal();
}

// Where writing `path` would end: symbolic links followed to the last, which need not
// exist yet (a link to an output not written so far), and the links of its folders.
std::filesystem::path final_target(const std::string& path) {
  std::string followed = path;
  try {
    followed = resolve_output(path).path;
  } catch (const Error&) {  // a loop of links, a directory: compared as given
  }
  std::error_code error;
  const std::filesystem::path absolute = normal_absolute(followed);
  const std::filesystem::path canonical = std::filesystem::weakly_canonical(absolute, error);
  return error ? absolute : canonical;
}

}  // namespace

bool same_file(const std::string& a, const std::string& b) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (fs::exists(a, error) && fs::exists(b, error)) {
    const bool same = fs::equivalent(a, b, error);
    if (!error) return same;
  }
  return final_target(a) == final_target(b);
}

}  // namespace rnnsearch::util
