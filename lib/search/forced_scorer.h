#pragma once
// The log-probability of given translations, force-decoded on the inference path: each
// step of a batch runs model::RnnSearch::decoder_step (the products nmt-decode's search
// runs, math::RowStableProducts: a row's numbers do not depend on the other rows) for the
// sentences still reading their target, and keeps the (ensemble-combined, search/ensemble.h)
// log-probability of the given token, </s> last. Summed in order in double, these are the
// log_probability beam search gives the same translation (search/beam_search.h), bit for
// bit, whatever the batch.
#include <cstdint>
#include <memory>
#include <vector>

#include "model/rnnsearch.h"

namespace rnnsearch::search {

class ForcedScorer {
 public:
  // `weights`: the ensemble's, one per model, or empty (equal; search/ensemble.h).
  ForcedScorer(std::vector<model::RnnSearch*> models, const std::vector<double>& weights);
  ~ForcedScorer();
  ForcedScorer(const ForcedScorer&) = delete;
  ForcedScorer& operator=(const ForcedScorer&) = delete;

  // For each i of indices (non-empty sources; one batch): into token_log_probs[i] the
  // log-probability of every token of targets[i] (ids without </s>), then of </s>.
  // sources[m] are the sentences in model m's source vocabulary. Other threads may fill
  // other places of token_log_probs at the same time.
  void score(const std::vector<std::vector<std::vector<std::int32_t>>>& sources,
             const std::vector<std::vector<std::int32_t>>& targets, const std::vector<std::size_t>& indices,
             std::vector<std::vector<float>>& token_log_probs);

 private:
  struct State;  // the buffers kept from batch to batch (forced_scorer.cc)
  std::vector<model::RnnSearch*> models_;
  std::unique_ptr<State> state_;
};

// The sum of `token_log_probs` in order, in double (as beam search adds them).
double sum_log_probs(const std::vector<float>& token_log_probs);

}  // namespace rnnsearch::search
