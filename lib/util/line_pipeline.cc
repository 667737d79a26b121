#include "util/line_pipeline.h"

#include <unistd.h>

#include <cstdio>
#include <memory>
#include <vector>

#include "util/atomic_file.h"
#include "util/error.h"
#include "util/line_reader.h"
#include "util/option_range.h"
#include "util/parallel.h"
#include "util/progress_meter.h"

namespace rnnsearch::util {
namespace {

// Runs transform over lines[begin, end) into results, turning exceptions into errors
// that name the input and the line.
void transform_range(const std::function<std::string(std::string_view)>& transform,
                     const std::vector<std::string>& lines, std::vector<std::string>& results, std::size_t begin,
                     std::size_t end, std::size_t first_line_number, const std::string& input_name) {
  for (std::size_t i = begin; i < end; ++i) {
    try {
      results[i] = transform(lines[i]);
    } catch (const Error& e) {
      if (e.line()) throw;
      throw Error(input_name, first_line_number + i, e.detail());
    } catch (const std::exception& e) {
      throw Error(input_name, first_line_number + i, e.what());
    }
  }
}

}  // namespace

void LinePipelineOptions::validate() const { check_range<std::size_t>("batch-lines", batch_lines, 1, 1000000); }

std::size_t map_lines(const std::string& input, const std::string& output, const LinePipelineOptions& options,
                      const std::function<std::string(std::string_view)>& transform) {
  options.validate();
  LineReader reader(input, options.replace_invalid ? InvalidUtf8::kReplace : InvalidUtf8::kError);
  AtomicFileWriter writer(output);
  const bool interactive =
      options.line_by_line || is_terminal(input, STDIN_FILENO) || is_terminal(output, STDOUT_FILENO);
  const int threads = interactive ? 1 : std::max(1, options.threads);
  const std::size_t batch = interactive ? 1 : options.batch_lines * static_cast<std::size_t>(threads);

  ProgressMeter progress(options.progress_tool, "lines", !interactive && !options.progress_tool.empty());
  std::vector<std::string> lines, results;
  std::size_t total = 0;
  std::string line;
  for (;;) {
    lines.clear();
    // A batch also ends where the input pauses (a pipe with nothing to read yet), so
    // streaming input is answered at once, as nmt-decode does.
    while (lines.size() < batch && (lines.empty() || reader.ready()) && reader.next(line)) lines.push_back(line);
    if (lines.empty()) break;
    results.assign(lines.size(), std::string());
    const std::size_t first = total + 1;
    parallel_for(lines.size(), threads, [&](std::size_t begin, std::size_t end) {
      transform_range(transform, lines, results, begin, end, first, reader.name());
    });
    for (const auto& r : results) writer.write_line(r);
    writer.flush();
    total += lines.size();
    progress.set_done(total);
  }
  progress.finish();
  writer.commit();
  return total;
}

}  // namespace rnnsearch::util
