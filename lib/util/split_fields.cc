#include "util/split_fields.h"

namespace rnnsearch::util {

std::vector<std::string_view> split_fields(std::string_view line, char separator) {
  std::vector<std::string_view> parts;
  for (std::size_t begin = 0;;) {
    const std::size_t end = line.find(separator, begin);
    parts.push_back(line.substr(begin, end == std::string_view::npos ? std::string_view::npos : end - begin));
    if (end == std::string_view::npos) return parts;
    begin = end + 1;
  }
}

}  // namespace rnnsearch::util
