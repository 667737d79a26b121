#include "serve/language_watch.h"

#include <utility>

namespace rnnsearch::serve {

LanguageWatch::LanguageWatch(const data::SourceProfile& profile, std::string pair)
    : profile_(profile), pair_(std::move(pair)), window_(profile) {}

std::vector<std::string> LanguageWatch::add(const std::vector<std::string>& lines, double threshold) {
  std::vector<std::string> warnings;
  if (profile_.empty()) return warnings;
  const std::lock_guard<std::mutex> lock(mutex_);
  for (const std::string& line : lines) {
    window_.add(line);
    if (++lines_ < kWindowLines) continue;
    const std::string name = "a window of " + std::to_string(kWindowLines) + " source lines sent to " + pair_;
    std::string warning = window_.warning(threshold, name);
    if (!warning.empty()) warnings.push_back(std::move(warning));
    window_ = data::LanguageCheck(profile_);
    lines_ = 0;
  }
  return warnings;
}

}  // namespace rnnsearch::serve
