#include "search/beam_search.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "data/batch.h"
#include "data/vocabulary.h"
#include "search/shortlist.h"
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
  model::OutputColumns columns;  // with a shortlist: the output layer's columns of the batch's U
};

// Every member encodes the batch (sentence b is row b) and starts from its initial state.
std::vector<Member> encode_batch(const std::vector<model::RnnSearch*>& models,
                                 const std::vector<std::vector<std::vector<std::int32_t>>>& sources,
                                 const std::vector<std::size_t>& indices) {
  std::vector<Member> members(models.size());
  std::vector<int> row_sentences(indices.size());
  std::iota(row_sentences.begin(), row_sentences.end(), 0);
  for (std::size_t m = 0; m < models.size(); ++m) {
    const data::Batch batch = data::make_batch(sources[m], nullptr, indices);
    members[m].model = models[m];
    models[m]->encode(batch.source, batch.source_mask, members[m].encoded);
    members[m].state = members[m].encoded.initial_state;
    model::select_sentences(members[m].encoded, row_sentences, members[m].rows_encoded);
  }
  return members;
}

// One decoder step of every member for the live rows. An ensemble averages the members'
// log-probabilities (and attention weights) into `mean`; a single model's are its own.
struct StepOutput {
  math::Matrix mean_log_probs, mean_weights;
  const math::Matrix* log_probs = nullptr;  // [rows x target vocabulary]
  const math::Matrix* weights = nullptr;    // [rows x source positions]
};

// With a shortlist, log-probabilities are over its compact columns (search/shortlist.h).
void decoder_step(std::vector<Member>& members, const std::vector<Live>& live, const BatchShortlist* shortlist,
                  StepOutput& out) {
  std::vector<std::int32_t> previous;
  std::vector<const std::vector<int>*> allowed;
  for (const Live& h : live) {
    previous.push_back(h.tokens.empty() ? data::Vocabulary::kBos : h.tokens.back());
    if (shortlist) allowed.push_back(&shortlist->allowed[static_cast<std::size_t>(h.sentence)]);
  }
  for (Member& member : members) {
    if (shortlist) {
      member.model->decoder_step(member.rows_encoded, previous, member.state, member.columns, allowed,
                                 member.log_probs, member.next_state, member.weights);
      continue;
    }
    member.model->decoder_step(member.rows_encoded, previous, member.state, member.log_probs, member.next_state,
                               member.weights);
  }
  if (members.size() > 1) {
    out.mean_log_probs = members[0].log_probs;
    out.mean_weights = members[0].weights;
    for (std::size_t m = 1; m < members.size(); ++m) {
      out.mean_log_probs += members[m].log_probs;
      out.mean_weights += members[m].weights;
    }
    out.mean_log_probs /= static_cast<float>(members.size());
    out.mean_weights /= static_cast<float>(members.size());
  }
  out.log_probs = members.size() > 1 ? &out.mean_log_probs : &members[0].log_probs;
  out.weights = members.size() > 1 ? &out.mean_weights : &members[0].weights;
}

// Candidates per sentence: each live row's K best words, extending its log-probability.
// With a shortlist, column c is word shortlist->ids[c], and a column it masks (-infinity)
// is no candidate.
std::vector<std::vector<Candidate>> row_candidates(const math::Matrix& log_probs, const std::vector<Live>& live,
                                                   int sentences, int K, const BatchShortlist* shortlist) {
  std::vector<std::vector<Candidate>> per_sentence(static_cast<std::size_t>(sentences));
  std::vector<int> words(static_cast<std::size_t>(log_probs.cols()));
  for (int r = 0; r < static_cast<int>(live.size()); ++r) {
    std::iota(words.begin(), words.end(), 0);
    const auto row = log_probs.row(r);
    const int take = std::min<int>(K, static_cast<int>(words.size()));
    std::partial_sort(words.begin(), words.begin() + take, words.end(), [&](int a, int b) {
      return row(a) != row(b) ? row(a) > row(b) : a < b;
    });
    for (int k = 0; k < take; ++k) {
      const int column = words[static_cast<std::size_t>(k)];
      if (shortlist && std::isinf(row(column))) continue;
      const std::int32_t word = shortlist ? shortlist->ids[static_cast<std::size_t>(column)] : column;
      per_sentence[static_cast<std::size_t>(live[r].sentence)].push_back(
          {r, word, live[r].log_probability + static_cast<double>(row(column))});
    }
  }
  return per_sentence;
}

// The beams of one batch: the live hypotheses (a decoder row each) and every sentence's
// finished ones.
struct Beams {
  std::vector<std::size_t> source_lengths;  // per sentence
  std::vector<int> limit;                   // target tokens per sentence (target_length_limit)
  std::vector<std::vector<Hypothesis>> finished;
  std::vector<Live> live;
};

Beams start_beams(const std::vector<std::vector<std::int32_t>>& sources, const std::vector<std::size_t>& indices,
                  const BeamOptions& options) {
  const std::size_t B = indices.size();
  Beams beams;
  beams.finished.resize(B);
  beams.live.resize(B);
  for (std::size_t b = 0; b < B; ++b) {
    beams.source_lengths.push_back(sources[indices[b]].size());
    beams.limit.push_back(target_length_limit(options.max_length_ratio, beams.source_lengths[b]));
    beams.live[b].sentence = static_cast<int>(b);
  }
  return beams;
}

// Each sentence's beam is as wide as it has hypotheses still to finish: its best `width`
// candidates either finish (</s>, or the length limit) or live on. The new live rows
// replace beams.live; parents[i] is the old row that new row i extends.
void advance_beams(std::vector<std::vector<Candidate>>& per_sentence, const math::Matrix& weights, int step,
                   const BeamOptions& options, Beams& beams, std::vector<int>& parents) {
  std::vector<Live> next;
  parents.clear();
  for (std::size_t b = 0; b < per_sentence.size(); ++b) {
    auto& candidates = per_sentence[b];
    std::sort(candidates.begin(), candidates.end(), better);
    const std::size_t width = static_cast<std::size_t>(options.beam_size) - beams.finished[b].size();
    for (std::size_t k = 0; k < std::min(width, candidates.size()); ++k) {
      const Candidate& c = candidates[k];
      const Live& parent = beams.live[static_cast<std::size_t>(c.row)];
      const bool ends = c.word == data::Vocabulary::kEos;
      std::vector<std::vector<float>> attention;  // copied only when asked for: it grows with every step
      if (options.attention) {
        const auto alpha = weights.row(c.row).head(static_cast<Eigen::Index>(beams.source_lengths[b] + 1));
        attention = parent.attention;
        attention.emplace_back(alpha.data(), alpha.data() + alpha.size());
      }
      if (ends || step + 1 >= beams.limit[b]) {
        Hypothesis h;
        h.tokens = parent.tokens;
        if (!ends) h.tokens.push_back(c.word);
        h.log_probability = c.log_probability;
        h.complete = ends;
        h.attention = std::move(attention);
        h.score = normalized(c.log_probability, h.tokens.size() + (ends ? 1 : 0), options.length_penalty);
        beams.finished[b].push_back(std::move(h));
        continue;
      }
      Live extended{static_cast<int>(b), parent.tokens, c.log_probability, std::move(attention)};
      extended.tokens.push_back(c.word);
      next.push_back(std::move(extended));
      parents.push_back(c.row);
    }
  }
  beams.live.swap(next);
}

// Every member's decoder state and encoding rows follow the live rows to their parents.
// row_sentences is scratch, kept by the caller from step to step.
void follow_parents(const std::vector<Live>& live, const std::vector<int>& parents, std::vector<Member>& members,
                    std::vector<int>& row_sentences) {
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

// Decodes one batch of non-empty sources; results[k] for indices[k]. sources[m] are the
// sentences in model m's source vocabulary.
void search_batch(const std::vector<model::RnnSearch*>& models,
                  const std::vector<std::vector<std::vector<std::int32_t>>>& sources,
                  const std::vector<std::size_t>& indices, const BeamOptions& options,
                  const std::vector<std::vector<std::int32_t>>* allowed,
                  std::vector<std::vector<Hypothesis>>& results) {
  const int B = static_cast<int>(indices.size());
  std::vector<Member> members = encode_batch(models, sources, indices);
  BatchShortlist shortlist;
  if (allowed) {
    std::vector<const std::vector<std::int32_t>*> sets;
    for (const std::size_t i : indices) sets.push_back(&(*allowed)[i]);
    shortlist = batch_shortlist(sets);
    for (Member& member : members) {
      member.columns.ids = shortlist.ids;
      member.model->gather_output_columns(member.columns);
    }
  }
  Beams beams = start_beams(sources[0], indices, options);
  StepOutput out;
  std::vector<int> parents, row_sentences;  // reused from step to step
  for (int step = 0; !beams.live.empty(); ++step) {
    const BatchShortlist* restriction = allowed ? &shortlist : nullptr;
    decoder_step(members, beams.live, restriction, out);
    auto per_sentence = row_candidates(*out.log_probs, beams.live, B, options.beam_size, restriction);
    advance_beams(per_sentence, *out.weights, step, options, beams, parents);
    if (beams.live.empty()) break;
    follow_parents(beams.live, parents, members, row_sentences);
  }
  for (int b = 0; b < B; ++b) {
    auto& hypotheses = beams.finished[static_cast<std::size_t>(b)];
    std::stable_sort(hypotheses.begin(), hypotheses.end(),
                     [](const Hypothesis& x, const Hypothesis& y) { return x.score > y.score; });
    if (static_cast<int>(hypotheses.size()) > options.n_best) hypotheses.resize(static_cast<std::size_t>(options.n_best));
    results[indices[b]] = std::move(hypotheses);
  }
}

}  // namespace

std::vector<std::vector<Hypothesis>> beam_search(const std::vector<model::RnnSearch*>& models,
                                                 const std::vector<std::vector<std::vector<std::int32_t>>>& sources,
                                                 const BeamOptions& options,
                                                 const std::vector<std::vector<std::int32_t>>* allowed) {
  if (models.empty() || sources.size() != models.size()) {
    throw util::Error("beam search: " + std::to_string(models.size()) + " models for " + std::to_string(sources.size()) +
                      " source sets");
  }
  if (allowed && allowed->size() != sources[0].size()) {
    throw util::Error("beam search: " + std::to_string(allowed->size()) + " allowed sets for " +
                      std::to_string(sources[0].size()) + " sentences");
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
    search_batch(models, sources, indices, options, allowed, results);
  }
  return results;
}

std::vector<std::vector<Hypothesis>> beam_search(model::RnnSearch& model,
                                                 const std::vector<std::vector<std::int32_t>>& sources,
                                                 const BeamOptions& options) {
  return beam_search(std::vector<model::RnnSearch*>{&model}, {sources}, options);
}

}  // namespace rnnsearch::search
