#pragma once
// Reads what nmt-bleu and nmt-by-length score a block of segments at a time: reference
// files (or one tab-separated file with --num-refs) and system outputs (files, or stdin
// with one tab-separated column per system), all in lockstep, each line stripped of
// trailing whitespace as sacreBLEU does. Only one block of text is in memory at once:
// every metric's corpus score needs only per-segment statistics, so scoring a million
// lines costs those statistics, not the text.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "eval/eval_options.h"
#include "eval/metric.h"

namespace rnnsearch::util {
class LineReader;
}

namespace rnnsearch::eval {

// Segments [first, first + size()) of every reference stream and every system.
struct EvalBlock {
  std::size_t first = 0;
  ReferenceSet references;                        // [stream][segment in the block]
  std::vector<std::vector<std::string>> systems;  // [system][segment in the block]

  std::size_t size() const { return references.empty() ? 0 : references.front().size(); }
};

class EvalStream {
 public:
  static constexpr std::size_t kBlockSegments = 10000;

  // Opens every file (util::Error when one cannot be opened; util::UsageError for a
  // system output given twice, except the baseline of a paired test given again) and,
  // for stdin, reads its first line, whose columns are the systems.
  explicit EvalStream(const EvalOptions& config, std::size_t block_segments = kBlockSegments);
  ~EvalStream();
  EvalStream(const EvalStream&) = delete;
  EvalStream& operator=(const EvalStream&) = delete;

  // The file names, or "System N" for stdin columns.
  const std::vector<std::string>& system_names() const { return names_; }
  int num_reference_streams() const { return static_cast<int>(ref_names_.size()); }

  // Reads the next block into `block`; false after the last one. Throws util::Error
  // naming file and line for invalid UTF-8 and wrong field counts; when no system line
  // was read ("the system output is empty"); and when one file ends before another:
  // the longer files are then counted to their ends, so the message gives both files'
  // line counts, e.g. "hyp: 1 line, but the reference ref has 5 lines; ...".
  bool next(EvalBlock& block);

  // Segments returned so far.
  std::size_t segments() const { return segments_; }

 private:
  bool read_segment(EvalBlock& block);
  [[noreturn]] void throw_count_mismatch(const std::vector<bool>& got);
  std::string system_label(std::size_t s) const;

  std::size_t block_segments_;
  int num_refs_ = 1;           // > 1: one tab-separated reference file
  bool stdin_systems_ = false;
  std::vector<std::string> ref_names_;  // per reference stream: its file
  std::vector<std::string> names_;      // per system
  // Reference readers, then system readers (one for stdin): every input read in step.
  std::vector<std::unique_ptr<util::LineReader>> readers_;
  std::size_t ref_readers_ = 0;
  std::vector<std::string> first_stdin_fields_;  // stdin's first line, read ahead
  bool have_first_stdin_ = false;
  std::size_t segments_ = 0;
  std::string line_;
};

}  // namespace rnnsearch::eval
