#include "search/greedy.h"

#include <algorithm>

#include "data/batch.h"
#include "search/beam_search.h"
#include "data/vocabulary.h"

namespace rnnsearch::search {

std::vector<std::vector<std::int32_t>> greedy_translate(model::RnnSearch& model,
                                                        const std::vector<std::vector<std::int32_t>>& sources,
                                                        const GreedyOptions& options) {
  std::vector<std::vector<std::int32_t>> translations(sources.size());
  model::EncoderOutput encoded;
  math::Matrix state, next_state, log_probs, weights;
  std::vector<int> limit;  // these three reused from batch to batch
  std::vector<std::int32_t> previous;
  std::vector<bool> done;
  for (const auto& indices : data::batches_by_length(sources, options.batch_size)) {
    const data::Batch batch = data::make_batch(sources, nullptr, indices);
    model.encode(batch.source, batch.source_mask, encoded);
    const int B = batch.sentences;
    limit.assign(static_cast<std::size_t>(B), 0);
    int longest = 0;
    for (int b = 0; b < B; ++b) {
      limit[b] = target_length_limit(options.max_length_ratio, sources[indices[b]].size());
      longest = std::max(longest, limit[b]);
    }
    previous.assign(static_cast<std::size_t>(B), data::Vocabulary::kBos);
    done.assign(static_cast<std::size_t>(B), false);
    state = encoded.initial_state;
    int unfinished = B;
    for (int step = 0; step < longest && unfinished > 0; ++step) {
      model.decoder_step(encoded, nullptr, previous, state, log_probs, next_state, weights);
      for (int b = 0; b < B; ++b) {
        if (done[b]) continue;
        Eigen::Index best = 0;
        log_probs.row(b).maxCoeff(&best);
        const auto word = static_cast<std::int32_t>(best);
        previous[b] = word;
        if (word == data::Vocabulary::kEos || step + 1 >= limit[b]) {
          done[b] = true;
          --unfinished;
        }
        if (word != data::Vocabulary::kEos) translations[indices[b]].push_back(word);
      }
      state.swap(next_state);
    }
  }
  return translations;
}

}  // namespace rnnsearch::search
