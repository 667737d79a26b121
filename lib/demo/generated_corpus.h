#pragma once
// A demo corpus: train, valid and test splits of generated sentence pairs (demo/grammar.h),
// written as DIR/{split}.{xa,xb} (one sentence per line, raw text unless tokenized) and
// DIR/{split}.align (the gold links over the tokenized words, Pharaoh format).
//
// The held-out splits come first from the seed's random stream, so the test set depends
// only on the seed and the sizes of test and valid, not on the training size. No source
// sentence of valid or test occurs twice in them or anywhere in train.
#include <cstdint>
#include <string>
#include <vector>

#include "demo/grammar.h"

namespace rnnsearch::demo {

// The most pairs a split may have: the corpus is built in memory before it is written.
constexpr long kMaxSplitPairs = 10000000;

struct GeneratedCorpusOptions {
  std::uint64_t seed = 1;
  long train = 10000;  // sentence pairs per split
  long valid = 500;
  long test = 500;
  std::string source_language = "xa";  // file name suffixes
  std::string target_language = "xb";
  bool tokenized = false;  // write the tokenized form (punctuation split, no capitals)
  std::string output_dir;  // where write_generated_corpus writes (required there)

  // Throws util::UsageError naming the option for a size outside [0, kMaxSplitPairs], an
  // empty or identical language code, a code that names the gold links' file ("align"),
  // or no output directory.
  void validate() const;
};

struct Split {
  std::string name;  // "train", "valid", "test"
  std::vector<SentencePair> pairs;
};

// The splits in the order train, valid, test (splits of size 0 are left out).
std::vector<Split> generate_corpus(const GeneratedCorpusOptions& config);

// Writes every split into `directory` (created if missing), each file atomically.
// Returns the paths written.
std::vector<std::string> write_corpus(const std::vector<Split>& splits, const GeneratedCorpusOptions& config,
                                      const std::string& directory);

struct GeneratedCorpus {
  std::vector<Split> splits;
  std::vector<std::string> paths;  // the files written
};

// nmt-demo-corpus's library call: validates `config`, generates the corpus and writes it
// into config.output_dir.
GeneratedCorpus write_generated_corpus(const GeneratedCorpusOptions& config);

}  // namespace rnnsearch::demo
