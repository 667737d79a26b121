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
  // --sentences FIRST-LAST: score only sentences (lines) FIRST to LAST, 1-based and
  // inclusive; 0-0 scores them all. Both published protocols of the WPT-2003 English-French
  // test set are subsets: Liang et al. (2006) tune on the 37 trial sentences and the first 100
  // test sentences (1-100) and report the last 347 (101-447).
  std::size_t first_sentence = 0, last_sentence = 0;

  // Throws util::UsageError "-g GOLD and -a ALIGNMENT are required", or for a range whose
  // FIRST is 0 or above LAST.
  void validate() const;
  bool scores_sentence(std::size_t number) const {
    return first_sentence == 0 || (number >= first_sentence && number <= last_sentence);
  }
};

// "FIRST-LAST" (1 <= FIRST <= LAST) into the options; util::UsageError naming --sentences.
void parse_sentence_range(const std::string& text, EvalFilesOptions& options);

// Validates `options` and scores the alignment file. A shared-task gold numbering fewer
// sentences than the alignment file has lines scores the lines past them against no links
// ("warning: ..." to `notes`); otherwise different counts are util::Error, as is a malformed
// line (naming file and line). NULL links left out are told as "note: ...". A --sentences
// range past the last sentence is util::Error naming both files.
AlignmentScores eval_files(const EvalFilesOptions& options, const Notes& notes = {});

}  // namespace rnnsearch::align
