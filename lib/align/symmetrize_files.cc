#include "align/symmetrize_files.h"

#include <vector>

#include "align/command_common.h"
#include "align/soft_combine.h"
#include "data/alignment.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/line_reader.h"
#include "util/option_range.h"

namespace rnnsearch::align {

void SymmetrizeFilesOptions::validate() const {
  if (forward.empty() || reverse.empty()) throw util::UsageError("-i FORWARD and -j REVERSE are required");
}

void symmetrize_files(const SymmetrizeFilesOptions& options) {
  options.validate();
  util::LineReader forward_reader(options.forward), reverse_reader(options.reverse);
  util::AtomicFileWriter writer(options.output);
  std::string a, b;
  for (std::size_t line = 1; util::next_in_step(forward_reader, a, reverse_reader, b); ++line) {
    writer.write_line(data::format_pharaoh(symmetrize(
        data::parse_pharaoh(a, options.forward, line), data::parse_pharaoh(b, options.reverse, line), options.heuristic)));
  }
  writer.commit();
}

void CombineFilesOptions::validate() const {
  if (forward.empty() || reverse.empty()) throw util::UsageError("-i FORWARD and -j REVERSE are required");
  util::check_range("threshold", threshold, 0.0f, 1.0f);
}

void combine_files(const CombineFilesOptions& options) {
  options.validate();
  const auto [a, b] = read_paired_lines(options.forward, options.reverse);
  std::vector<std::string> out;
  for (std::size_t i = 0; i < a.size(); ++i) {
    out.push_back(data::format_pharaoh(combine_soft(parse_soft_rows(a[i], options.forward, i + 1),
                                                    parse_soft_rows(b[i], options.reverse, i + 1), options.threshold,
                                                    options.reverse, i + 1)));
  }
  util::AtomicFileWriter writer(options.output);
  for (const auto& line : out) writer.write_line(line);
  writer.commit();
}

}  // namespace rnnsearch::align
