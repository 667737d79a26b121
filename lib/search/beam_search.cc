#include "search/beam_search.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "data/batch.h"
#include "data/vocabulary.h"
#include "util/error.h"

namespace rnnsearch::search {

namespace {

// A live hypothesis: one row of the decoder batch.
struct Live {
  int sentence = 0;  // index into the batch's sentences
  std::vector<std::int32_t> tokens;
  double log_probability = 0.0;
  std::vector<std::vector<float>> attention;  // one row per token so far
};

struct Candidate {
  int row = 0;               // the live hypothesis it extends
  std::int32_t word = 0;
  double log_probability = 0.0;
};

// Best first; equal scores go to the earlier row, then the lower word id.
bool better(const Candidate& a, const Candidate& b) {
  if (a.log_probability != b.log_probability) return a.log_probability > b.log_probability;
  if (a.row != b.row) return a.row < b.row;
  return a.word < b.word;
}

}  // namespace

int target_length_limit(double max_length_ratio, std::size_t source_length) {
  // In double, clamped before the conversion: a huge ratio or a NaN must not overflow an int.
  const double limit = max_length_ratio * static_cast<double>(source_length) + 10.0;
  if (!(limit >= 1.0)) return 1;
  return limit >= kMaxTargetLength ? kMaxTargetLength : static_cast<int>(limit);
}

namespace {

double normalized(double log_probability, std::size_t length, double alpha) {
  return alpha == 0.0 ? log_probability : log_probability / std::pow(static_cast<double>(std::max<std::size_t>(1, length)), alpha);
}

// One model of an ensemble during a batch: its encoding, its decoder state per row.
struct Member {
  model::RnnSearch* model = nullptr;
  model::EncoderOutput encoded, rows_encoded;
  math::Matrix state, next_state, log_probs, weights, selected_state;
};

// Decodes one batch of non-empty sources; results[k] for indices[k]. sources[m] are the
// sentences in model m's source vocabulary.
void search_batch(const std::vector<model::RnnSearch*>& models,
                  const std::vector<std::vector<std::vector<std::int32_t>>>& sources,
                  const std::vector<std::size_t>& indices, const BeamOptions& options,
                  std::vector<std::vector<Hypothesis>>& results) {
  const int B = static_cast<int>(indices.size()), K = options.beam_size;
  std::vector<Member> members(models.size());
  std::vector<int> row_sentences(static_cast<std::size_t>(B));
  std::iota(row_sentences.begin(), row_sentences.end(), 0);
  for (std::size_t m = 0; m < models.size(); ++m) {
    const data::Batch batch = data::make_batch(sources[m], nullptr, indices);
    members[m].model = models[m];
    models[m]->encode(batch.source, batch.source_mask, members[m].encoded);
    members[m].state = members[m].encoded.initial_state;
    model::select_sentences(members[m].encoded, row_sentences, members[m].rows_encoded);
  }

  std::vector<int> limit(static_cast<std::size_t>(B));
  for (int b = 0; b < B; ++b) {
    limit[b] = target_length_limit(options.max_length_ratio, sources[0][indices[b]].size());
  }
  std::vector<std::vector<Hypothesis>> finished(static_cast<std::size_t>(B));
  std::vector<Live> live(static_cast<std::size_t>(B));
  for (int b = 0; b < B; ++b) live[b].sentence = b;
  math::Matrix mean_log_probs, mean_weights;  // an ensemble's averages

  for (int step = 0; !live.empty(); ++step) {
    std::vector<std::int32_t> previous;
    for (const Live& h : live) previous.push_back(h.tokens.empty() ? data::Vocabulary::kBos : h.tokens.back());
    // An ensemble averages the members' log-probabilities (and attention weights) per step.
    for (Member& member : members) {
      member.model->decoder_step(member.rows_encoded, previous, member.state, member.log_probs, member.next_state,
                                 member.weights);
    }
    if (members.size() > 1) {
      mean_log_probs = members[0].log_probs;
      mean_weights = members[0].weights;
      for (std::size_t m = 1; m < members.size(); ++m) {
        mean_log_probs += members[m].log_probs;
        mean_weights += members[m].weights;
      }
      mean_log_probs /= static_cast<float>(members.size());
      mean_weights /= static_cast<float>(members.size());
    }
    const math::Matrix& log_probs = members.size() > 1 ? mean_log_probs : members[0].log_probs;
    const math::Matrix& weights = members.size() > 1 ? mean_weights : members[0].weights;

    // Candidates per sentence: each live row's K best words, then the sentence's K best.
    std::vector<std::vector<Candidate>> per_sentence(static_cast<std::size_t>(B));
    std::vector<int> words(static_cast<std::size_t>(log_probs.cols()));
    for (int r = 0; r < static_cast<int>(live.size()); ++r) {
      std::iota(words.begin(), words.end(), 0);
      const auto row = log_probs.row(r);
      const int take = std::min<int>(K, static_cast<int>(words.size()));
      std::partial_sort(words.begin(), words.begin() + take, words.end(), [&](int a, int b) {
        return row(a) != row(b) ? row(a) > row(b) : a < b;
      });
      for (int k = 0; k < take; ++k) {
        per_sentence[static_cast<std::size_t>(live[r].sentence)].push_back(
            {r, words[static_cast<std::size_t>(k)], live[r].log_probability + static_cast<double>(row(words[k]))});
      }
    }
    // Each sentence's beam is as wide as it has hypotheses still to finish: its best
    // `width` candidates either finish (</s>, or the length limit) or live on.
    std::vector<Live> next;
    std::vector<int> parents;
    for (int b = 0; b < B; ++b) {
      auto& candidates = per_sentence[static_cast<std::size_t>(b)];
      std::sort(candidates.begin(), candidates.end(), better);
      const std::size_t width = static_cast<std::size_t>(K) - finished[static_cast<std::size_t>(b)].size();
      for (std::size_t k = 0; k < std::min(width, candidates.size()); ++k) {
        const Candidate& c = candidates[k];
        const Live& parent = live[static_cast<std::size_t>(c.row)];
        const bool ends = c.word == data::Vocabulary::kEos;
        std::vector<std::vector<float>> attention;  // copied only when asked for: it grows with every step
        if (options.attention) {
          const auto alpha = weights.row(c.row).head(static_cast<Eigen::Index>(sources[0][indices[b]].size() + 1));
          attention = parent.attention;
          attention.emplace_back(alpha.data(), alpha.data() + alpha.size());
        }
        if (ends || step + 1 >= limit[b]) {
          Hypothesis h;
          h.tokens = parent.tokens;
          if (!ends) h.tokens.push_back(c.word);
          h.log_probability = c.log_probability;
          h.complete = ends;
          h.attention = std::move(attention);
          h.score = normalized(c.log_probability, h.tokens.size() + (ends ? 1 : 0), options.length_penalty);
          finished[static_cast<std::size_t>(b)].push_back(std::move(h));
          continue;
        }
        Live extended{b, parent.tokens, c.log_probability, std::move(attention)};
        extended.tokens.push_back(c.word);
        next.push_back(std::move(extended));
        parents.push_back(c.row);
      }
    }
    live.swap(next);
    if (live.empty()) break;
    row_sentences.clear();
    for (const Live& h : live) row_sentences.push_back(h.sentence);
    for (Member& member : members) {
      member.selected_state.resize(static_cast<Eigen::Index>(live.size()), member.next_state.cols());
      for (std::size_t i = 0; i < live.size(); ++i) {
        member.selected_state.row(static_cast<Eigen::Index>(i)) = member.next_state.row(parents[i]);
      }
      member.state.swap(member.selected_state);
      model::select_sentences(member.encoded, row_sentences, member.rows_encoded);
    }
  }
  for (int b = 0; b < B; ++b) {
    auto& hypotheses = finished[static_cast<std::size_t>(b)];
    std::stable_sort(hypotheses.begin(), hypotheses.end(),
                     [](const Hypothesis& x, const Hypothesis& y) { return x.score > y.score; });
    if (static_cast<int>(hypotheses.size()) > options.n_best) hypotheses.resize(static_cast<std::size_t>(options.n_best));
    results[indices[b]] = std::move(hypotheses);
  }
}

}  // namespace

std::vector<std::vector<Hypothesis>> beam_search(const std::vector<model::RnnSearch*>& models,
                                                 const std::vector<std::vector<std::vector<std::int32_t>>>& sources,
                                                 const BeamOptions& options) {
  if (options.beam_size < 1 || options.n_best < 1 || options.n_best > options.beam_size) {
    throw util::Error("beam search needs 1 <= n-best <= beam size, got n-best " + std::to_string(options.n_best) +
                      " and beam size " + std::to_string(options.beam_size));
  }
  if (models.empty() || sources.size() != models.size()) {
    throw util::Error("beam search: " + std::to_string(models.size()) + " models for " + std::to_string(sources.size()) +
                      " source sets");
  }
  for (std::size_t m = 1; m < models.size(); ++m) {
    if (models[m]->config().target_vocabulary != models[0]->config().target_vocabulary ||
        sources[m].size() != sources[0].size()) {
      throw util::Error("beam search: the models of an ensemble need the same target vocabulary and sentences");
    }
  }
  std::vector<std::vector<Hypothesis>> results(sources[0].size());
  for (std::size_t i = 0; i < sources[0].size(); ++i) {
    if (sources[0][i].empty()) results[i].push_back(Hypothesis{});
  }
  for (const auto& indices : data::batches_by_length(sources[0], options.batch_size)) {
    search_batch(models, sources, indices, options, results);
  }
  return results;
}

std::vector<std::vector<Hypothesis>> beam_search(model::RnnSearch& model,
                                                 const std::vector<std::vector<std::int32_t>>& sources,
                                                 const BeamOptions& options) {
  return beam_search(std::vector<model::RnnSearch*>{&model}, {sources}, options);
}

}  // namespace rnnsearch::search
