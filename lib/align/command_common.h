#pragma once
// What the nmt-align commands' library entry points (align/*_files.h) share: the notes they
// hand back to the tool instead of printing, and two line-aligned files read whole.
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace rnnsearch::align {

// Receives a line for the user (without its line end), about work that still goes on:
// "note: ...", "warning: ...", an EM iteration's numbers. The tool prints it, or not (-q).
using Notes = std::function<void(const std::string& line)>;

// All lines of `first` and of `second`; util::Error (util::throw_line_count_mismatch) when
// their numbers of lines differ.
std::pair<std::vector<std::string>, std::vector<std::string>> read_paired_lines(const std::string& first,
                                                                                const std::string& second);

}  // namespace rnnsearch::align
