#pragma once
// Token vocabularies as subword-nmt's get_vocab.py writes them: "token count" per line,
// most frequent first, ties in first-occurrence order. Tokens are counted the way
// get_vocab reads (see word_counter.h: Python splitlines, strip, split on " ").
#include <cstdint>
#include <iosfwd>
#include <string>
#include <unordered_map>
#include <vector>

#include "text/word_counter.h"

namespace rnnsearch::text {

struct VocabOptions {
  std::int64_t min_count = 0;  // drop tokens seen fewer times (0 keeps all)
  std::size_t max_size = 0;    // keep at most this many entries (0 = no limit)

  // Throws util::UsageError for a negative --min-count (or one past 10^18).
  void validate() const;
};

// The counts sorted as get_vocab sorts them, then filtered by `options`.
std::vector<WordCount> sorted_vocab(const std::vector<WordCount>& counts, const VocabOptions& options = {});
// Validates `options`, counts every file in turn ("-" = stdin) and sorts.
std::vector<WordCount> build_vocab(const std::vector<std::string>& paths, const VocabOptions& options = {},
                                   util::InvalidUtf8 invalid = util::InvalidUtf8::kError,
                                   util::ProgressMeter* progress = nullptr);
// Writes "token count\n" lines.
void write_vocab(std::ostream& out, const std::vector<WordCount>& vocab);

// Reads a "token count" file as apply_bpe reads it (each line stripped of "\r\n ", then
// exactly two fields split on one space, the count an integer); errors name file:line.
std::vector<WordCount> read_vocab(const std::string& path);
// The same as a map for BpeApplyOptions::vocabulary. A token listed twice keeps its
// highest count: apply_bpe knows a token when any of its lines reaches the threshold.
std::unordered_map<std::string, std::int64_t> read_vocab_map(const std::string& path);

}  // namespace rnnsearch::text
