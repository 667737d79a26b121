#pragma once
// The loop every line-to-line tool runs: read lines, transform each, write exactly one
// output line per input line, in order. Several threads transform batches of lines;
// when either end is a terminal, lines are handled and flushed one at a time so an
// interactive user (or a pipe waiting on each answer) sees every result at once. A batch
// also ends where the input pauses, and each batch is flushed, so tools chained in a pipe
// answer a line as soon as it arrives.
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace rnnsearch::util {

struct LinePipelineOptions {
  int threads = 1;
  bool replace_invalid = false;   // U+FFFD for invalid UTF-8 instead of an error
  std::size_t batch_lines = 4096;  // lines per thread per batch
  bool line_by_line = false;       // one line at a time, flushed (as for a terminal)
  // Shows a count of lines done under this tool name when the progress output is live
  // (util::ProgressMeter; a tool's stderr on a terminal) and neither end is a terminal;
  // empty (as under --quiet) shows nothing.
  std::string progress_tool;

  // Throws UsageError for batch_lines outside [1, 1000000] (--batch-lines).
  void validate() const;
};

// Applies `transform` to every line of `input` ("-" = stdin) and writes the results to
// `output` ("-" = stdout; a file is written atomically). `transform` must be safe to
// call from several threads at once. An exception from `transform` is reported as
// util::Error naming the input and the line. Validates `options` first. Returns the number
// of lines.
std::size_t map_lines(const std::string& input, const std::string& output, const LinePipelineOptions& options,
                      const std::function<std::string(std::string_view)>& transform);

}  // namespace rnnsearch::util
