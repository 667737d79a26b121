#include "train/kept_models.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace rnnsearch::train {

std::vector<long> keep_last(std::vector<long>& kept, long update, int keep) {
  if (kept.empty() || kept.back() != update) kept.push_back(update);
  const std::size_t wanted = static_cast<std::size_t>(std::max(0, keep));
  std::vector<long> removed;
  if (kept.size() > wanted) {
    const auto cut = kept.begin() + static_cast<std::ptrdiff_t>(kept.size() - wanted);
    removed.assign(kept.begin(), cut);
    kept.erase(kept.begin(), cut);
  }
  return removed;
}

std::vector<std::string> find_kept_models(const std::string& model_path) {
  namespace fs = std::filesystem;
  const fs::path model(model_path);
  const std::string prefix = model.filename().string() + ".update";  // "model.bin.update"
  const fs::path directory = model.has_parent_path() ? model.parent_path() : fs::path(".");
  std::vector<std::string> found;
  std::error_code error;
  for (fs::directory_iterator it(directory, error), end; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) continue;
    if (std::all_of(name.begin() + static_cast<std::ptrdiff_t>(prefix.size()), name.end(),
                    [](char c) { return c >= '0' && c <= '9'; })) {
      found.push_back(model_path + name.substr(model.filename().string().size()));
    }
  }
  return found;
}

}  // namespace rnnsearch::train
