#pragma once
// The pairs nmt-score reads (search/score_files.h): two line-aligned files, "source<TAB>target"
// lines, or a Moses n-best list with its source file.
#include <cstddef>
#include <memory>
#include <string>

#include "search/score_files.h"
#include "util/line_reader.h"

namespace rnnsearch::search {

struct RawPair {
  std::string source, target;
  std::string source_file, target_file;  // where each came from, for messages
  std::size_t source_line = 0, target_line = 0;
  std::string nbest_line;                // n-best input: the whole line
  std::size_t features_end = 0;          // where the new feature goes in it
};

class PairReader {
 public:
  // Opens the files of `options` (validated).
  explicit PairReader(const ScoreOptions& options);
  // The next pair; false at the end. Throws util::Error naming file and line for input that
  // does not make a pair (and for an n-best entry that has the feature to add already).
  bool next(RawPair& pair);
  // True when next() would not wait (util::LineReader::ready).
  bool ready() const;
  bool n_best() const { return nbest_ != nullptr; }

 private:
  bool next_nbest(RawPair& pair);
  std::unique_ptr<util::LineReader> source_, target_, input_, nbest_;
  std::string line_;
  std::string feature_name_;  // n-best input: the feature to add, which no entry may have yet
};

}  // namespace rnnsearch::search
