#include "text/bpe_undo.h"

namespace rnnsearch::text {

std::string undo_bpe(std::string_view line, std::string_view separator) {
  if (separator.empty()) return std::string(line);
  std::string out;
  out.reserve(line.size());
  std::size_t i = 0;
  while (i < line.size()) {
    if (line.compare(i, separator.size(), separator) == 0) {
      const std::size_t after = i + separator.size();
      if (after < line.size() && line[after] == ' ') {
        i = after + 1;
        continue;
      }
      if (after == line.size()) break;
    }
    out += line[i++];
  }
  return out;
}

}  // namespace rnnsearch::text
