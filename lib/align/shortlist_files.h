#pragma once
// nmt-shortlist: a lexical shortlist (data/shortlist_file.h) from an IBM Model 2 table
// (align/ibm2_table.h, nmt-align ibm2 --save-table of the BPE'd training text, source -s,
// target -t, forward direction) and the model's target vocabulary file (nmt-vocab's
// "piece count" lines, most frequent first): the `first` most frequent target pieces, and
// for each source piece of the table its `best` most probable target pieces t(f | e) with
// t >= threshold (ties to the piece first in byte order). Target pieces missing from the
// vocabulary file are left out (the model cannot produce them), NULL's row is not used.
#include <string>

namespace rnnsearch::align {

struct ShortlistOptions {
  std::string table;         // --table (required)
  std::string target_vocab;  // --target-vocab (required)
  std::string output = "-";  // -o: "-" = stdout; a file is written atomically
  int first = 100;           // most frequent target pieces always allowed
  int best = 100;            // target pieces per source piece
  double threshold = 0.0;    // least t(f | e) of a listed piece

  // util::UsageError "--table and --target-vocab are required", or naming the option
  // outside its range: first [0, 10^7], best [0, 10^6], threshold [0, 1].
  void validate() const;
};

// Validates `options`, reads the table and the vocabulary, writes the shortlist. util::Error
// naming file and line for bad input, or for a table of the reverse direction.
void shortlist_files(const ShortlistOptions& options);

}  // namespace rnnsearch::align
