#pragma once
// Learning BPE merges exactly as subword-nmt's learn_bpe.py (commit 92d6139): words are
// split into characters with "</w>" on the last one; each step merges the pair with the
// highest count, ties going to the greatest pair (Python's max over (count, pair), strings
// compared by code point), and stops early when that count is below min_frequency.
//
// Speed: symbols are integer ids, an index maps each pair to the words holding it, and a
// max-heap with lazy invalidation finds the best pair; only the words holding the merged
// pair are rewritten and recounted.
//
// Counts here are exact. learn_bpe prunes rare pairs for speed and updates its counts
// incrementally; both give the same merges on the goldens (shared/golden/bpe), but its
// bookkeeping is not exact when one symbol string is built by two different merges, so
// such corpora could in principle differ. min_frequency below 1 acts as 1 here.
#include <string>
#include <vector>

#include "text/bpe_codes.h"
#include "text/word_counter.h"

namespace rnnsearch::text {

struct BpeLearnOptions {
  int symbols = 10000;       // merges to learn (--symbols)
  int min_frequency = 2;     // stop when no pair occurs this often (--min-frequency)
  bool total_symbols = false;  // subtract the distinct characters from `symbols` (--total-symbols)

  // What nmt-bpe learn reads and writes (text/bpe_files.h); learn_bpe uses none of it.
  std::vector<std::string> inputs;  // tokenized text, joint BPE when several; empty = stdin
  std::string output = "-";         // the codes file; "-" = stdout
  bool dict_input = false;          // the inputs hold "word count" lines instead of text
  bool replace_invalid = false;     // U+FFFD for invalid UTF-8 instead of an error
  int num_workers = 1;              // accepted for subword-nmt compatibility: learning runs on one thread

  // Throws util::UsageError naming the option, its range and the value received.
  void validate() const;
};

// Learns merges from word counts (order does not matter); `progress` counts the merges.
BpeCodes learn_bpe(const std::vector<WordCount>& words, const BpeLearnOptions& options,
                   util::ProgressMeter* progress = nullptr);

// Counts the words of every file in turn (joint BPE when several); "-" is stdin. The
// default reads lines as learn_bpe reads its standard input; learn_bpe -i FILE reads
// through a codecs reader instead (LineBreaks::kSplitlines).
std::vector<WordCount> count_words(const std::vector<std::string>& paths,
                                   LineBreaks breaks = LineBreaks::kUniversal,
                                   util::InvalidUtf8 invalid = util::InvalidUtf8::kError,
                                   util::ProgressMeter* progress = nullptr);

}  // namespace rnnsearch::text
