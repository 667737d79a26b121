#pragma once
// nmt-align eval: precision, recall and AER (align/aer.h) of an alignment file against a gold
// file in either format align/gold_file.h reads. Pharaoh gold is read line by line in step
// with the alignments; the shared-task format numbers its sentences, so it is read whole
// (gold sets are small).
#include <string>

#include "align/aer.h"
#include "align/command_common.h"

namespace rnnsearch::align {

struct EvalFilesOptions {
  std::string gold;       // -g: Pharaoh i-j / i?j lines, or 'SENT SRC_POS TGT_POS [S|P]' lines
  std::string alignment;  // -a: links to score, line-aligned with the gold file

  // Throws util::UsageError "-g GOLD and -a ALIGNMENT are required".
  void validate() const;
};

// Validates `options` and scores the alignment file. A shared-task gold numbering fewer
// sentences than the alignment file has lines scores the lines past them against no links
// ("warning: ..." to `notes`); otherwise different counts are util::Error, as is a malformed
// line (naming file and line). NULL links left out are told as "note: ...".
AlignmentScores eval_files(const EvalFilesOptions& options, const Notes& notes = {});

}  // namespace rnnsearch::align
