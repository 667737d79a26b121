#pragma once
// nmt-align ibm2: IBM Model 2 links (align/ibm2.h) of the pairs of two line-aligned files of
// words. EM reads the corpus once per iteration, so it is held as word ids; the lines are
// read in step and dropped, and the links written as the last iteration finds them.
#include <string>

#include "align/command_common.h"
#include "align/ibm2.h"

namespace rnnsearch::align {

struct Ibm2FilesOptions {
  std::string source;        // -s: tokenized source sentences
  std::string target;        // -t: target sentences, line-aligned with the source
  std::string output = "-";  // links, source index first; "-" = stdout; a file is written atomically
  bool reverse = false;      // generate the source from the target (fast_align -r); links still source first
  bool progress = true;      // progress lines on stderr (never when the output is a terminal)
  // --save-table: the learned table (align/ibm2_table.h), written atomically; entries below
  // table_threshold left out (0: none).
  std::string save_table;
  double table_threshold = 0.0;
  // --load-table: align with this table instead of training (no EM; iterations, p_null,
  // tension and alpha of ibm2 are not used: the table's header gives p_null and tension).
  std::string load_table;
  Ibm2Options ibm2;

  // Throws util::UsageError "-s SOURCE and -t TARGET are required", for --save-table with
  // --load-table, --table-threshold outside [0, 1], -o and --save-table naming one file
  // (util/distinct_outputs.h), or what ibm2.validate() throws.
  void validate() const;
};

// The pairs of two line-aligned files of words as ids (the target's words first with `swap`),
// `tool` naming the progress line. util::Error naming file and line for a line without words or
// of more than kMaxIbm2Words words, or files of different lengths.
Ibm2Corpus read_word_pairs(const std::string& source, const std::string& target, bool swap,
                           const std::string& tool, bool show_progress);

// Validates `options`, reads the pairs and writes their links. Once they are written (before
// the output is committed), `notes` gets a line per EM iteration: "iteration 1: log-likelihood
// -1234.5, tension 4" (with --load-table, the one pass's). With --save-table the table is
// written after the links. util::Error naming file and line for a line without words or of more
// than kMaxIbm2Words words.
void ibm2_files(const Ibm2FilesOptions& options, const Notes& notes = {});

}  // namespace rnnsearch::align
