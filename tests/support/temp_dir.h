#pragma once
// A fresh directory under the system temp dir for one test, removed afterwards.
#include <filesystem>
#include <string>

namespace rnnsearch::testing {

class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  // Writes `bytes` to `name` inside the directory and returns the file's path.
  std::string write(const std::string& name, const std::string& bytes) const;

 private:
  std::filesystem::path path_;
};

}  // namespace rnnsearch::testing
