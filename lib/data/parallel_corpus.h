#pragma once
// Line-aligned parallel text read into token ids. Line counts must agree, every line is
// checked, and nothing is dropped silently: what filtering removes is counted and the
// first removed line is named.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "data/alignment.h"
#include "data/vocabulary.h"

namespace rnnsearch::data {

// What to do with a pair whose source or target has more than max_length tokens.
enum class LongPairs {
  kSkip,      // leave it out of training (counted in ParallelCorpus::skipped_long)
  kError,     // util::Error naming the file and line
  kTruncate,  // keep the first max_length tokens of each side
};

// "skip", "error", "truncate" (nmt-train --long-pairs); parse_long_pairs throws
// util::UsageError naming --long-pairs and the allowed names otherwise.
const char* long_pairs_name(LongPairs policy);
LongPairs parse_long_pairs(const std::string& name);

// The most tokens per side a training pair may have (nmt-train --max-length at most
// this): one longer sentence would make a batch of gigabytes.
constexpr std::size_t kMaxSentenceTokens = 1000;

struct CorpusOptions {
  std::size_t max_length = 50;  // tokens per side, before </s> (0 = kMaxSentenceTokens)
  LongPairs long_pairs = LongPairs::kSkip;
  bool allow_unknown = true;    // false: a token missing from the vocabulary is an error
  bool skip_empty = true;       // pairs with an empty side are left out (else an error)
  // Word alignments of the pairs (guided alignment): Pharaoh "i-j" links, source word
  // first, 0-based, over the words of the text before BPE (a word is a run of pieces
  // joined by "@@ "), one line per pair, line-aligned with the text ("" = none).
  std::string alignment_path;
};

struct ParallelCorpus {
  std::vector<std::vector<std::int32_t>> source;  // ids without </s>
  std::vector<std::vector<std::int32_t>> target;
  std::vector<std::size_t> line_numbers;          // 1-based line of each kept pair
  std::size_t lines = 0;                          // lines read from each file
  std::size_t skipped_long = 0, skipped_empty = 0;
  std::size_t first_skipped_line = 0;             // 0 when nothing was skipped
  std::size_t unknown_tokens = 0;                 // tokens mapped to <unk>
  // With CorpusOptions::alignment_path, per kept pair: links between its source and
  // target PIECES (0-based, </s> left out), every piece of a linked word with every piece
  // of the other; links to pieces a truncation removed are dropped. Empty without a file.
  std::vector<Alignment> alignments;
  std::size_t alignment_word_links = 0;           // links of the kept pairs, as the file gives them

  std::size_t size() const { return source.size(); }
  std::size_t target_tokens() const;  // with one </s> per sentence
};

// Reads both files line by line. Throws util::Error for: a file that cannot be read, an
// empty file, different line counts ("train.en has 99 lines, train.de has 100"), invalid
// UTF-8, long or empty pairs or unknown tokens when the options make them errors, and a
// corpus with no pair left. With an alignment file also for: a malformed link, a link
// outside its pair's words, and a line count that differs from the text's (every line is
// checked, those of skipped pairs included). Messages name the file and line.
ParallelCorpus read_parallel_corpus(const std::string& source_path, const std::string& target_path,
                                    const Vocabulary& source_vocabulary, const Vocabulary& target_vocabulary,
                                    const CorpusOptions& options);

// The ids of one sentence (tokens split on spaces); unknown tokens become <unk>.
std::vector<std::int32_t> to_ids(const std::string& line, const Vocabulary& vocabulary);

}  // namespace rnnsearch::data
