#pragma once
// A line cut at every separator into views of it ("a\tb\t" -> "a", "b", ""): the fields of
// the tools' tab- and space-separated file formats.
#include <string_view>
#include <vector>

namespace rnnsearch::util {

std::vector<std::string_view> split_fields(std::string_view line, char separator);

}  // namespace rnnsearch::util
