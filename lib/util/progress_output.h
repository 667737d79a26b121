#pragma once
// Where progress lines go (util::ProgressMeter, train::Progress). The library writes
// nothing itself: the tools' entry (tools/support/tool_entry.h) sets an output that writes
// to stderr before the tool's work starts; without one, as in the library's tests,
// progress is computed and dropped.
#include <functional>
#include <string>

namespace rnnsearch::util {

struct ProgressOutput {
  // The lines may be redrawn in place ("\r\033[K" then the line): stderr is a terminal.
  bool live = false;
  // Writes the text as it is, control sequences and newlines included; empty: dropped.
  std::function<void(const std::string&)> write;
};

// Set once, before any thread reports progress.
void set_progress_output(ProgressOutput output);
const ProgressOutput& progress_output();

}  // namespace rnnsearch::util
