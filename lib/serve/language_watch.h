#pragma once
// How nmt-serve tells that a pair is sent text that does not look like its source
// language (data/language_check.h): a warning per request would be too many, and one
// short line says little, so each pair counts the source lines of its requests as they
// arrive, in windows of kWindowLines lines. A window above --language-warning gives one
// line in the log and one count in /metrics (nmt_serve_language_warnings_total{pair}):
//   a window of 100 source lines sent to en-cs does not look like the model's source
//   language (train.en): ...; is it the right file, language and preprocessing?
// A pair whose (first) model has no source profile is not checked. Thread-safe.
#include <cstddef>
#include <mutex>
#include <string>
#include <vector>

#include "data/language_check.h"

namespace rnnsearch::serve {

class LanguageWatch {
 public:
  static constexpr std::size_t kWindowLines = 100;

  // `profile` must outlive the watch; `pair` names it in the warnings ("en-cs").
  LanguageWatch(const data::SourceProfile& profile, std::string pair);
  // Counts `lines` (source pieces) and returns the warning of every window they complete
  // whose ratio is above `threshold` (0: none).
  std::vector<std::string> add(const std::vector<std::string>& lines, double threshold);

 private:
  const data::SourceProfile& profile_;
  std::string pair_;
  std::mutex mutex_;
  data::LanguageCheck window_;
  std::size_t lines_ = 0;
};

}  // namespace rnnsearch::serve
