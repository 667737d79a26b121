#pragma once
// A tool's output split into its lines (without the newlines), for CLI tests.
#include <string>
#include <vector>

namespace rnnsearch::testing {

std::vector<std::string> lines_of(const std::string& text);

}  // namespace rnnsearch::testing
