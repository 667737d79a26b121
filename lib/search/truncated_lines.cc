#include "search/truncated_lines.h"

#include "util/number_format.h"

namespace rnnsearch::search {

bool TruncatedLines::truncate(std::size_t tokens, const std::string& input, std::size_t line,
                              const util::Messages& messages) {
  if (max_length_ == 0 || tokens <= max_length_) return false;
  messages.note("warning: " + input + ":" + std::to_string(line) + ": " + std::to_string(tokens) + " tokens, " + verb_ +
                "d after truncation to the first " + std::to_string(max_length_));
  if (count_++ == 0) first_line_ = line;
  return true;
}

void TruncatedLines::warn(const util::Messages& messages, const std::string& input, std::size_t lines) const {
  if (count_ == 0) return;
  const std::string limit = std::to_string(max_length_);
  messages.warn(util::grouped(count_) + " of " + util::grouped(lines) + " source lines in " + input +
                " had more than --max-length " + limit + " tokens and were " + verb_ + "d truncated to their first " +
                limit + " (the first: line " + std::to_string(first_line_) + "); --max-length 0 " + verb_ +
                "s whole lines");
}

}  // namespace rnnsearch::search
