#include "search/forced_scorer.h"

#include "data/batch.h"
#include "data/vocabulary.h"
#include "search/ensemble.h"
#include "util/error.h"

namespace rnnsearch::search {

namespace {

struct Member {
  model::EncoderOutput encoded;
  math::Matrix state, next_state, log_probs, weights;
};

}  // namespace

struct ForcedScorer::State {
  std::vector<Member> members;
  std::vector<float> factors;
  std::vector<const math::Matrix*> parts;
  math::Matrix combined;
  std::vector<int> row_sentence, next_sentence;  // per live row: its place in the batch
  std::vector<std::int32_t> previous;
};

ForcedScorer::ForcedScorer(std::vector<model::RnnSearch*> models, const std::vector<double>& weights)
    : models_(std::move(models)), state_(std::make_unique<State>()) {
  if (models_.empty()) throw util::Error("forced scoring: no model");
  check_ensemble_weights(weights, models_.size());
  state_->factors = member_factors(weights);
  state_->members.resize(models_.size());
}

ForcedScorer::~ForcedScorer() = default;

void ForcedScorer::score(const std::vector<std::vector<std::vector<std::int32_t>>>& sources,
                         const std::vector<std::vector<std::int32_t>>& targets,
                         const std::vector<std::size_t>& indices, std::vector<std::vector<float>>& token_log_probs) {
  State& w = *state_;
  for (std::size_t m = 0; m < models_.size(); ++m) {
    const data::Batch batch = data::make_batch(sources[m], nullptr, indices);
    models_[m]->encode(batch.source, batch.source_mask, w.members[m].encoded);
    w.members[m].state = w.members[m].encoded.initial_state;
  }
  w.row_sentence.resize(indices.size());
  w.previous.assign(indices.size(), data::Vocabulary::kBos);
  for (std::size_t b = 0; b < indices.size(); ++b) {
    w.row_sentence[b] = static_cast<int>(b);
    token_log_probs[indices[b]].clear();
  }
  for (std::size_t t = 0; !w.row_sentence.empty(); ++t) {
    w.parts.clear();
    for (std::size_t m = 0; m < models_.size(); ++m) {
      Member& member = w.members[m];
      models_[m]->decoder_step(member.encoded, &w.row_sentence, w.previous, member.state, member.log_probs,
                               member.next_state, member.weights);
      w.parts.push_back(&member.log_probs);
    }
    const math::Matrix* log_probs = w.parts[0];
    if (models_.size() > 1) {
      combine_members(w.parts, w.factors, w.combined);
      log_probs = &w.combined;
    }
    // Each row takes its token's value; rows with tokens left live on, with their states.
    w.next_sentence.clear();
    w.previous.clear();
    for (std::size_t r = 0; r < w.row_sentence.size(); ++r) {
      const std::size_t i = indices[static_cast<std::size_t>(w.row_sentence[r])];
      const bool more = t < targets[i].size();
      const std::int32_t token = more ? targets[i][t] : data::Vocabulary::kEos;
      token_log_probs[i].push_back((*log_probs)(static_cast<Eigen::Index>(r), token));
      if (!more) continue;
      for (Member& member : w.members) {
        member.state.row(static_cast<Eigen::Index>(w.next_sentence.size())) = member.next_state.row(static_cast<Eigen::Index>(r));
      }
      w.next_sentence.push_back(w.row_sentence[r]);
      w.previous.push_back(token);
    }
    for (Member& member : w.members) member.state.conservativeResize(static_cast<Eigen::Index>(w.next_sentence.size()), Eigen::NoChange);
    w.row_sentence.swap(w.next_sentence);
  }
}

double sum_log_probs(const std::vector<float>& token_log_probs) {
  double sum = 0.0;
  for (const float value : token_log_probs) sum += static_cast<double>(value);
  return sum;
}

}  // namespace rnnsearch::search
