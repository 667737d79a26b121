#pragma once
// nmt-align symmetrize and nmt-align combine: a forward and a reverse alignment file of the
// same pairs, both source index first, made into one file of links, a line per pair.
#include <string>

#include "align/symmetrize.h"

namespace rnnsearch::align {

// nmt-align symmetrize: hard links of both directions, joined by a heuristic (align/symmetrize.h).
struct SymmetrizeFilesOptions {
  std::string forward;       // -i: links of the source-to-target model
  std::string reverse;       // -j: links of the target-to-source model, also source index first
  std::string output = "-";  // "-" = stdout; a file is written atomically
  Symmetrization heuristic = Symmetrization::kGrowDiagFinalAnd;  // -c

  // Throws util::UsageError "-i FORWARD and -j REVERSE are required".
  void validate() const;
};

// Validates `options` and symmetrizes the files line by line in step (memory stays flat);
// util::Error naming file and line for a malformed link or files of different lengths.
void symmetrize_files(const SymmetrizeFilesOptions& options);

// nmt-align combine: soft rows of both directions (--mode soft), averaged and cut at a
// threshold (align/soft_combine.h).
struct CombineFilesOptions {
  std::string forward;       // -i: soft rows of the source-to-target model
  std::string reverse;       // -j: soft rows of the target-to-source model
  std::string output = "-";  // "-" = stdout; a file is written atomically
  float threshold = 0.5f;    // a word pair is linked when the mean of its two weights reaches it

  // Throws util::UsageError "-i FORWARD and -j REVERSE are required", and "--threshold must
  // be in [0, 1], got 2".
  void validate() const;
};

// Validates `options`, reads both files whole (their line counts checked first) and writes
// the links; util::Error naming file and line for a bad number or shapes that disagree.
void combine_files(const CombineFilesOptions& options);

}  // namespace rnnsearch::align
