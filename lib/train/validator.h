#pragma once
// Validation during training: cross-entropy per target token of the validation pairs
// (no dropout), and BLEU (sacreBLEU's 13a, through eval::Bleu) of greedy translations
// with BPE undone against the validation targets with BPE undone. Every validation line
// is translated, empty lines included, so the translations line up with the files.
// Across processes the work is shared by the threads of all of them, and every process
// ends with the same result (the translations gathered, the loss summed).
#include <string>
#include <vector>

#include "data/parallel_corpus.h"
#include "data/vocabulary.h"
#include "train/data_parallel.h"

namespace rnnsearch::train {

struct ValidationResult {
  double cross_entropy = 0.0;  // nats per target token
  std::size_t tokens = 0;
  double bleu = 0.0;
  std::vector<std::string> translations;  // BPE undone, one per validation line
};

class Validator {
 public:
  Validator(const std::string& source_path, const std::string& target_path, const data::Vocabulary& source_vocabulary,
            const data::Vocabulary& target_vocabulary, std::size_t max_length);

  ValidationResult run(DataParallel& workers, int batch_size) const;
  std::size_t lines() const { return sources_.size(); }

 private:
  const data::Vocabulary& target_vocabulary_;
  data::ParallelCorpus corpus_;                  // pairs for the cross-entropy
  std::vector<std::vector<std::int32_t>> sources_;  // every line, for translation
  std::vector<std::string> references_;          // every target line, BPE undone
};

}  // namespace rnnsearch::train
