#include "support/temp_dir.h"

#include <unistd.h>

#include <fstream>

namespace rnnsearch::testing {

TempDir::TempDir() {
  static int counter = 0;
  path_ = std::filesystem::temp_directory_path() /
          ("rnnsearch-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  std::filesystem::create_directories(path_);
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

std::string TempDir::write(const std::string& name, const std::string& bytes) const {
  const auto p = (path_ / name).string();
  std::ofstream(p, std::ios::binary) << bytes;
  return p;
}

}  // namespace rnnsearch::testing
