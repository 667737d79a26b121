#include "text/nonbreaking_prefixes.h"

#include <algorithm>

#include "text/nonbreaking_prefix_lists.h"
#include "util/error.h"
#include "util/read_file.h"
#include "util/utf8.h"

namespace rnnsearch::text {
namespace {

constexpr std::string_view kNumericOnly = "#NUMERIC_ONLY#";

bool is_ascii_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

// A prefix file is UTF-8 text, as the tokenized input is: util::Error "PATH:LINE: invalid
// UTF-8 at byte N" (N in the line) for the first line that is not.
void check_utf8_lines(std::string_view text, const std::string& path) {
  for (std::size_t line = 1; !text.empty(); ++line) {
    const std::size_t end = std::min(text.find('\n'), text.size());
    const std::size_t bad = util::find_invalid_utf8(text.substr(0, end));
    if (bad != std::string_view::npos) throw util::Error(path, line, "invalid UTF-8 at byte " + std::to_string(bad + 1));
    text.remove_prefix(std::min(end + 1, text.size()));
  }
}

}  // namespace

void NonbreakingPrefixes::add_line(std::string_view line) {
  // tokenizer.perl skips empty lines, comment lines and (Perl truthiness) the line "0".
  if (line.empty() || line == "0" || line.front() == '#') return;
  // "(.*)\s+#NUMERIC_ONLY#": the greedy group ends at the white space just before the
  // last marker that white space precedes. A later line overrides an earlier one.
  std::size_t at = line.size();
  while ((at = line.rfind(kNumericOnly, at)) != std::string_view::npos && at > 0) {
    if (is_ascii_space(line[at - 1])) {
      prefixes_[std::string(line.substr(0, at - 1))] = true;
      return;
    }
    --at;
  }
  prefixes_[std::string(line)] = false;
}

NonbreakingPrefixes NonbreakingPrefixes::from_text(std::string_view text) {
  NonbreakingPrefixes result;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    result.add_line(text.substr(0, end));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return result;
}

NonbreakingPrefixes NonbreakingPrefixes::from_file(const std::string& path) {
  const std::string text = util::read_file(path, "the nonbreaking prefix file");
  check_utf8_lines(text, path);
  return from_text(text);
}

NonbreakingPrefixes NonbreakingPrefixes::built_in(const std::string& language) {
  return from_text(built_in_prefix_list(language));
}

bool NonbreakingPrefixes::contains(std::string_view word) const {
  return prefixes_.find(word) != prefixes_.end();
}

bool NonbreakingPrefixes::numeric_only(std::string_view word) const {
  const auto it = prefixes_.find(word);
  return it != prefixes_.end() && it->second;
}

}  // namespace rnnsearch::text
