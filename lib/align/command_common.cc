#include "align/command_common.h"

#include "util/line_reader.h"

namespace rnnsearch::align {

std::pair<std::vector<std::string>, std::vector<std::string>> read_paired_lines(const std::string& first,
                                                                                const std::string& second) {
  auto a = util::read_lines(first);
  auto b = util::read_lines(second);
  if (a.size() != b.size()) util::throw_line_count_mismatch(first, a.size(), second, b.size());
  return {std::move(a), std::move(b)};
}

}  // namespace rnnsearch::align
