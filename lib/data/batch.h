#pragma once
// Mini-batches in the layout the model reads: T positions of B right-padded sentences,
// ids and rows ordered t*B + b, masks [T x B] (1 = real token, 0 = padding).
//   source:        x_1 .. x_L </s>            (padded with <pad>)
//   target_input:  <s> y_1 .. y_M             (what the decoder reads at each step)
//   target_output: y_1 .. y_M </s>            (what it must predict)
//   guide:         with alignments, the gold attention of each target_output position
//                  over the source pieces: uniform over the source pieces linked to it
#include <cstddef>
#include <cstdint>
#include <vector>

#include "data/parallel_corpus.h"
#include "math/types.h"

namespace rnnsearch::data {

struct Batch {
  int sentences = 0;      // B
  int source_length = 0;  // S (longest source + 1)
  int target_length = 0;  // T (longest target + 1)
  std::vector<std::int32_t> source;         // S*B
  math::Matrix source_mask;                 // [S x B]
  std::vector<std::int32_t> target_input;   // T*B
  std::vector<std::int32_t> target_output;  // T*B
  math::Matrix target_mask;                 // [T x B]
  // Gold attention, only when the corpus has alignments (else 0 x 0): [(T*B) x S], row
  // t*B + b for target position t of sentence b; rows sum to 1, or are 0 (a target piece
  // without links, </s>, padding).
  math::Matrix guide;
  std::vector<std::size_t> indices;         // corpus index of each sentence

  std::size_t target_tokens() const;  // real target tokens (</s> included)
};

// The batch of corpus sentences `indices`, in that order. Source-only batches (for
// translation) leave the target fields empty; `alignments` (piece links per sentence, as
// ParallelCorpus::alignments) fill the guide. Throws util::Error for a link outside its pair.
Batch make_batch(const std::vector<std::vector<std::int32_t>>& source,
                 const std::vector<std::vector<std::int32_t>>* target, const std::vector<std::size_t>& indices,
                 const std::vector<Alignment>* alignments = nullptr);
inline Batch make_batch(const ParallelCorpus& corpus, const std::vector<std::size_t>& indices) {
  return make_batch(corpus.source, &corpus.target, indices, corpus.alignments.empty() ? nullptr : &corpus.alignments);
}

// The non-empty sentences, sorted by length (stable), cut into groups of batch_size
// indices: how translation, alignment and validation batch a fixed set of sentences.
std::vector<std::vector<std::size_t>> batches_by_length(const std::vector<std::vector<std::int32_t>>& sentences,
                                                        int batch_size);

struct BatchingOptions {
  int sentences = 64;         // sentences per batch (when target_tokens is 0)
  int target_tokens = 0;      // > 0: batches of about this many target tokens (padding included)
  int sort_window = 20;       // batches per window sorted by length (1 = no sorting)
  bool shuffle = true;
};

// The batches of one epoch: the corpus shuffled with a generator seeded by (seed, epoch),
// cut into windows of sort_window batches, each sorted by (target, source) length and cut
// into batches, then the batch order shuffled. The same (seed, epoch) always gives the
// same batches, so training resumes at a batch index.
std::vector<std::vector<std::size_t>> epoch_batches(const ParallelCorpus& corpus, const BatchingOptions& options,
                                                    std::uint64_t seed, long epoch);

}  // namespace rnnsearch::data
