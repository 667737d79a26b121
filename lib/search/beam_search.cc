#include "search/beam_search.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "data/batch.h"
#include "data/vocabulary.h"
#include "math/vector_ops.h"
#include "search/dynamic_beam_allocation.h"
#include "search/ensemble.h"
#include "search/shortlist.h"
#include "util/error.h"

namespace rnnsearch::search {

int target_length_limit(double max_length_ratio, std::size_t source_length) {
  // In double, clamped before the conversion: a huge ratio or a NaN must not overflow an int.
  const double limit = max_length_ratio * static_cast<double>(source_length) + 10.0;
  if (!(limit >= 1.0)) return 1;
  return limit >= kMaxTargetLength ? kMaxTargetLength : static_cast<int>(limit);
}

double normalized_score(double log_probability, std::size_t length, double alpha) {
  return alpha == 0.0 ? log_probability : log_probability / std::pow(static_cast<double>(std::max<std::size_t>(1, length)), alpha);
}

namespace {

struct Candidate {
  int row = 0;               // the live hypothesis it extends
  std::int32_t word = 0;
  double log_probability = 0.0;
  float step = 0.0f;         // the word's own log-probability at this step
  ConstraintState state;     // a constrained sentence's: after the word
};

// Best first; equal scores go to the earlier row, then the lower word id.
bool better(const Candidate& a, const Candidate& b) {
  if (a.log_probability != b.log_probability) return a.log_probability > b.log_probability;
  if (a.row != b.row) return a.row < b.row;
  return a.word < b.word;
}

// One model of an ensemble during a batch: its encoding, its decoder state per row.
struct Member {
  model::RnnSearch* model = nullptr;
  model::EncoderOutput encoded;  // the batch's sentences; the live rows read them through row_sentence
  math::Matrix state, next_state, log_probs, weights, selected_state;
  model::OutputColumns columns;  // with a shortlist: the output layer's columns of the batch's U
};

// Everything a search keeps from step to step and from batch to batch: the vectors'
// capacity only grows (the members' matrices take each step's rows, reallocating only
// when their size changes). Hypotheses are back-pointers: step t's decoder rows (the
// live hypotheses then) are history entries step_begin[t] .. step_begin[t + 1] - 1, each
// with its last token (<s> at step 0) and its parent row of step t - 1; with
// BeamOptions::attention, step_weights holds the weight matrix of every step from
// weight_begin[t] on.
struct Workspace {
  std::vector<Member> members;
  math::Matrix mean_log_probs, mean_weights;  // an ensemble's averages
  std::vector<float> factors;                  // its weights (search/ensemble.h: member_factors)
  std::vector<const math::Matrix*> parts;
  std::vector<int> row_sentence, next_sentence;        // per live row: its sentence of the batch
  std::vector<double> row_log_prob, next_log_prob;     // per live row
  std::vector<std::int32_t> previous;                  // the decoder's input tokens
  std::vector<std::int32_t> history_token;
  std::vector<int> history_parent;
  std::vector<float> history_step;                     // with BeamOptions::word_scores: each token's log-probability
  std::vector<std::size_t> step_begin, weight_begin;
  std::vector<float> step_weights;
  std::size_t weight_columns = 0;                      // the batch's source positions
  std::vector<Candidate> candidates;                   // the current sentence's
  std::vector<std::int32_t> top_words;                 // one row's best, best first
  std::vector<int> path;                               // a hypothesis's rows, step by step
  // With a shortlist (search/shortlist.h): the batch's U and sentences' allowed columns;
  // log-probabilities are over U's compact columns, column c for word shortlist.ids[c].
  const BatchShortlist* restriction = nullptr;
  BatchShortlist shortlist;
  std::vector<const std::vector<int>*> row_allowed;    // per live row: its sentence's allowed columns
  // With constraints: per sentence of the batch (null: none), and per live row its state.
  std::vector<const TargetConstraints*> sentence_constraints;
  std::vector<ConstraintState> row_state, next_state;
  std::vector<std::int32_t> advancing;                 // one row's tokens that meet one more constraint token
  std::vector<int> banks;
  std::vector<std::size_t> kept;
  std::vector<Candidate> chosen;
};

// Every member encodes the batch (sentence b is row b) and starts from its initial state.
void encode_batch(const std::vector<model::RnnSearch*>& models,
                  const std::vector<std::vector<std::vector<std::int32_t>>>& sources,
                  const std::vector<std::size_t>& indices, Workspace& w) {
  w.members.resize(models.size());
  for (std::size_t m = 0; m < models.size(); ++m) {
    const data::Batch batch = data::make_batch(sources[m], nullptr, indices);
    Member& member = w.members[m];
    member.model = models[m];
    models[m]->encode(batch.source, batch.source_mask, member.encoded);
    member.state = member.encoded.initial_state;
  }
}

// One decoder step of every member for the live rows (their last tokens in w.previous).
// An ensemble combines the members' log-probabilities and attention weights (search/ensemble.h).
void decoder_step(Workspace& w, math::Matrix*& log_probs, const math::Matrix*& weights) {
  if (w.restriction) {
    w.row_allowed.clear();
    for (const int b : w.row_sentence) w.row_allowed.push_back(&w.restriction->allowed[static_cast<std::size_t>(b)]);
  }
  for (Member& member : w.members) {
    if (w.restriction) {
      member.model->decoder_step(member.encoded, &w.row_sentence, w.previous, member.state, member.columns,
                                 w.row_allowed, member.log_probs, member.next_state, member.weights);
    } else {
      member.model->decoder_step(member.encoded, &w.row_sentence, w.previous, member.state, member.log_probs,
                                 member.next_state, member.weights);
    }
  }
  log_probs = &w.members[0].log_probs;
  weights = &w.members[0].weights;
  if (w.members.size() == 1) return;
  w.parts.clear();
  for (const Member& member : w.members) w.parts.push_back(&member.log_probs);
  combine_members(w.parts, w.factors, w.mean_log_probs);
  w.parts.clear();
  for (const Member& member : w.members) w.parts.push_back(&member.weights);
  combine_members(w.parts, w.factors, w.mean_weights);
  log_probs = &w.mean_log_probs;
  weights = &w.mean_weights;
}

// Puts `column` (of value `value`) into top, kept sorted best first, at most `take` long;
// a value equal to one already kept ranks after it (columns come in increasing order).
template <typename Row>
void keep_best(const Row& row, std::int32_t column, float value, int take, std::vector<std::int32_t>& top) {
  if (static_cast<int>(top.size()) == take) {
    if (!(value > row(top.back()))) return;
    top.pop_back();
  }
  auto at = top.end();
  while (at != top.begin() && value > row(*(at - 1))) --at;
  top.insert(at, column);
}

// The `take` best of a row's columns (all, or the ascending list `columns`) into top
// (best first: the higher value, then the lower column), in one pass. A block of 16
// columns is skipped at once when none beats the worst kept value (exactly what
// keep_best would do with each of them: that value only rises).
template <typename Row>
void top_columns(const Row& row, const std::vector<int>* columns, int take, std::vector<std::int32_t>& top) {
  top.clear();
  constexpr std::int32_t kBlock = 16;
  const auto count = static_cast<std::int32_t>(columns ? columns->size() : static_cast<std::size_t>(row.size()));
  const float* values = row.data();
  const int* listed = columns ? columns->data() : nullptr;
  const auto column = [&](std::int32_t k) { return listed ? listed[k] : k; };
  std::int32_t k = 0;
  for (; k + kBlock <= count; k += kBlock) {
    if (static_cast<int>(top.size()) == take) {
      const float worst = values[top.back()];
      if (listed) {
        bool any = false;
        for (std::int32_t i = 0; i < kBlock; ++i) any |= values[listed[k + i]] > worst;
        if (!any) continue;
      } else {  // every block up to the next with a better value, skipped at the CPU's width
        k = math::next_block_above(values, k, count, worst);
        if (k + kBlock > count) break;
      }
    }
    for (std::int32_t i = k; i < k + kBlock; ++i) keep_best(row, column(i), values[column(i)], take, top);
  }
  for (; k < count; ++k) keep_best(row, column(k), values[column(k)], take, top);
}

// Candidates of the live rows [begin, end) of one sentence: each row's K best words,
// extending its log-probability; the best `width` of them first, in `better` order. With a
// shortlist, column c is word ids[c] and only the row's allowed columns are read (the
// others are -infinity), and a column at -infinity is no candidate.
// Row r's K best words as candidates (w.top_words their columns). Without a shortlist a
// plain sentence's words at -infinity are candidates still (never better than a finite
// one); a constrained sentence's are not (they are banned).
void row_candidates(const math::Matrix& log_probs, int r, int K, bool skip_infinite, Workspace& w) {
  const int take = std::min<int>(K, static_cast<int>(log_probs.cols()));
  const auto row = log_probs.row(r);
  const std::vector<int>* allowed = w.restriction ? w.row_allowed[static_cast<std::size_t>(r)] : nullptr;
  top_columns(row, allowed, take, w.top_words);
  for (const std::int32_t column : w.top_words) {
    if ((w.restriction || skip_infinite) && std::isinf(row(column))) continue;  // as the full layer would rank it: never
    const std::int32_t word = w.restriction ? w.restriction->ids[static_cast<std::size_t>(column)] : column;
    w.candidates.push_back(
        {r, word, w.row_log_prob[static_cast<std::size_t>(r)] + static_cast<double>(row(column)), row(column), {}});
  }
}

// The best `width` of the candidates first, in `better` order; the rest dropped.
void keep_best_candidates(std::size_t width, Workspace& w) {
  const auto keep = static_cast<std::ptrdiff_t>(std::min(width, w.candidates.size()));
  std::partial_sort(w.candidates.begin(), w.candidates.begin() + keep, w.candidates.end(), better);
  w.candidates.resize(static_cast<std::size_t>(keep));
}

void sentence_candidates(const math::Matrix& log_probs, int begin, int end, int K, std::size_t width, Workspace& w) {
  w.candidates.clear();
  for (int r = begin; r < end; ++r) row_candidates(log_probs, r, K, false, w);
  keep_best_candidates(width, w);
}

// The column of `word` in the step's log-probabilities (-1: not in the batch's shortlist).
int word_column(std::int32_t word, const Workspace& w) {
  if (!w.restriction) return word;
  const auto& ids = w.restriction->ids;
  const auto at = std::lower_bound(ids.begin(), ids.end(), word);
  return at != ids.end() && *at == word ? static_cast<int>(at - ids.begin()) : -1;
}

float word_value(const math::Matrix& log_probs, int r, std::int32_t word, const Workspace& w) {
  const int column = word_column(word, w);
  return column < 0 ? -std::numeric_limits<float>::infinity() : log_probs(r, column);
}

void ban_word(math::Matrix& log_probs, int r, std::int32_t word, const Workspace& w) {
  const int column = word_column(word, w);
  if (column >= 0) log_probs(r, column) = -std::numeric_limits<float>::infinity();
}

// True when the hypothesis of live row r (of step `step`) ends with the tokens `phrase`
// begins with, all but its last: the last would complete it.
bool ends_with_start_of(const std::vector<std::int32_t>& phrase, int r, int step, const Workspace& w) {
  auto t = static_cast<std::size_t>(step);
  std::size_t entry = w.step_begin[t] + static_cast<std::size_t>(r);
  for (std::size_t k = phrase.size() - 1; k-- > 0;) {
    if (t == 0 || w.history_token[entry] != phrase[k]) return false;  // step 0's token is <s>
    entry = w.step_begin[t - 1] + static_cast<std::size_t>(w.history_parent[entry]);
    --t;
  }
  return true;
}

// A constrained sentence's candidates from its live rows [begin, end) at `step`: the
// prefix's token while the prefix lasts; else each row's K best words once banned phrases
// and (before every positive phrase is met) </s> are taken out, with the words that meet
// one more constraint token, shared out by dynamic beam allocation.
void constrained_candidates(math::Matrix& log_probs, int begin, int end, int step, const TargetConstraints& c, int K,
                            std::size_t width, Workspace& w) {
  w.candidates.clear();
  const auto state_of = [&w](int r) -> const ConstraintState& { return w.row_state[static_cast<std::size_t>(r)]; };
  const auto add = [&](int r, std::int32_t word, float value) {
    w.candidates.push_back({r, word, w.row_log_prob[static_cast<std::size_t>(r)] + static_cast<double>(value), value,
                            advance(c, state_of(r), word)});
  };
  if (static_cast<std::size_t>(step) < c.prefix.size()) {
    const std::int32_t word = c.prefix[static_cast<std::size_t>(step)];
    for (int r = begin; r < end; ++r) add(r, word, word_value(log_probs, r, word, w));
    if (w.candidates.size() > width) w.candidates.resize(width);
    return;
  }
  for (int r = begin; r < end; ++r) {
    if (!all_met(c, state_of(r))) ban_word(log_probs, r, data::Vocabulary::kEos, w);
    for (const auto& phrase : c.avoid) {
      if (ends_with_start_of(phrase, r, step, w)) ban_word(log_probs, r, phrase.back(), w);
    }
    const std::size_t first = w.candidates.size();
    row_candidates(log_probs, r, K, true, w);
    for (std::size_t i = first; i < w.candidates.size(); ++i) w.candidates[i].state = advance(c, state_of(r), w.candidates[i].word);
    advancing_tokens(c, state_of(r), w.advancing);
    for (const std::int32_t word : w.advancing) {
      const float value = word_value(log_probs, r, word, w);
      const auto listed = [&](const Candidate& x) { return x.word == word; };
      if (std::isinf(value) || std::any_of(w.candidates.begin() + static_cast<std::ptrdiff_t>(first), w.candidates.end(), listed)) continue;
      add(r, word, value);
    }
  }
  if (c.positive.empty()) return keep_best_candidates(width, w);
  std::sort(w.candidates.begin(), w.candidates.end(), better);
  w.banks.clear();
  for (const Candidate& x : w.candidates) w.banks.push_back(x.state.met_tokens);
  allocate_beam(w.banks, c.positive_tokens(), width, w.kept);
  w.chosen.clear();
  for (const std::size_t i : w.kept) w.chosen.push_back(w.candidates[i]);
  w.candidates.swap(w.chosen);
}

// The beams of one batch: per sentence its source length, its target length limit and
// its finished hypotheses.
struct Beams {
  std::vector<std::size_t> source_lengths;
  std::vector<int> limit;
  std::vector<std::vector<Hypothesis>> finished;
};

// The hypothesis that ends with candidate c of step `step`: its tokens and, when asked,
// its attention rows, walked back through the parents.
Hypothesis finish(const Candidate& c, int step, bool ends, std::size_t source_length, const BeamOptions& options,
                  Workspace& w) {
  w.path.resize(static_cast<std::size_t>(step) + 1);
  int row = c.row;
  for (int t = step; t >= 0; --t) {
    w.path[static_cast<std::size_t>(t)] = row;
    row = w.history_parent[w.step_begin[static_cast<std::size_t>(t)] + static_cast<std::size_t>(row)];
  }
  Hypothesis h;
  h.tokens.reserve(static_cast<std::size_t>(step) + 1);
  for (int t = 1; t <= step; ++t) {
    const auto at = static_cast<std::size_t>(t);
    h.tokens.push_back(w.history_token[w.step_begin[at] + static_cast<std::size_t>(w.path[at])]);
  }
  if (!ends) h.tokens.push_back(c.word);
  h.log_probability = c.log_probability;
  h.complete = ends;
  h.score = normalized_score(c.log_probability, h.tokens.size() + (ends ? 1 : 0), options.length_penalty);
  if (options.word_scores) {
    for (int t = 1; t <= step; ++t) {
      const auto at = static_cast<std::size_t>(t);
      h.token_log_probs.push_back(w.history_step[w.step_begin[at] + static_cast<std::size_t>(w.path[at])]);
    }
    h.token_log_probs.push_back(c.step);
  }
  if (options.attention) {
    const std::size_t columns = w.weight_columns;
    h.attention.resize(static_cast<std::size_t>(step) + 1);
    for (int t = 0; t <= step; ++t) {
      const auto at = static_cast<std::size_t>(t);
      const float* alpha = w.step_weights.data() + w.weight_begin[at] + static_cast<std::size_t>(w.path[at]) * columns;
      h.attention[at].assign(alpha, alpha + source_length + 1);
    }
  }
  return h;
}

// Each sentence's beam is as wide as it has hypotheses still to finish: its best `width`
// candidates either finish (</s>, or the length limit) or live on as the rows of the next
// step, whose tokens and parents go into the history.
void advance_beams(math::Matrix& log_probs, int step, const BeamOptions& options, Beams& beams, Workspace& w) {
  w.next_sentence.clear();
  w.next_log_prob.clear();
  w.next_state.clear();
  w.step_begin.push_back(w.history_token.size());
  const int rows = static_cast<int>(w.row_sentence.size());
  for (int begin = 0, end = 0; begin < rows; begin = end) {  // a sentence's rows are adjacent
    const int b = w.row_sentence[static_cast<std::size_t>(begin)];
    while (end < rows && w.row_sentence[static_cast<std::size_t>(end)] == b) ++end;
    const auto s = static_cast<std::size_t>(b);
    const std::size_t width = static_cast<std::size_t>(options.beam_size) - beams.finished[s].size();
    const TargetConstraints* constraints = w.sentence_constraints[s];
    if (constraints) {
      constrained_candidates(log_probs, begin, end, step, *constraints, options.beam_size, width, w);
    } else {
      sentence_candidates(log_probs, begin, end, options.beam_size, width, w);
    }
    for (const Candidate& c : w.candidates) {
      const bool ends = c.word == data::Vocabulary::kEos;
      if (ends || step + 1 >= beams.limit[s]) {
        beams.finished[s].push_back(finish(c, step, ends, beams.source_lengths[s], options, w));
        if (constraints) beams.finished[s].back().constraints_met = all_met(*constraints, c.state);
        continue;
      }
      w.next_state.push_back(c.state);
      w.next_sentence.push_back(b);
      w.next_log_prob.push_back(c.log_probability);
      w.history_token.push_back(c.word);
      w.history_parent.push_back(c.row);
      if (options.word_scores) w.history_step.push_back(c.step);
    }
  }
  w.row_sentence.swap(w.next_sentence);
  w.row_log_prob.swap(w.next_log_prob);
  w.row_state.swap(w.next_state);
}

// Every member's decoder state follows the live rows to their parents.
void follow_parents(Workspace& w) {
  const int* parents = w.history_parent.data() + w.step_begin.back();  // the live rows' old rows
  const auto rows = static_cast<Eigen::Index>(w.history_parent.size() - w.step_begin.back());
  for (Member& member : w.members) {
    member.selected_state.resize(rows, member.next_state.cols());
    for (Eigen::Index i = 0; i < rows; ++i) {
      member.selected_state.row(i) = member.next_state.row(parents[i]);
    }
    member.state.swap(member.selected_state);
  }
  w.previous.assign(w.history_token.begin() + static_cast<std::ptrdiff_t>(w.step_begin.back()), w.history_token.end());
}

// The first step's rows: sentence b's <s> in row b, without a parent.
Beams start_beams(const std::vector<std::vector<std::int32_t>>& sources, const std::vector<std::size_t>& indices,
                  const std::vector<const TargetConstraints*>* constraints, const BeamOptions& options, Workspace& w) {
  const std::size_t B = indices.size();
  Beams beams;
  beams.finished.resize(B);
  w.row_sentence.clear();
  w.sentence_constraints.assign(B, nullptr);
  w.row_state.clear();
  for (std::size_t b = 0; b < B; ++b) {
    beams.source_lengths.push_back(sources[indices[b]].size());
    beams.limit.push_back(target_length_limit(options.max_length_ratio, beams.source_lengths[b]));
    w.row_sentence.push_back(static_cast<int>(b));
    const TargetConstraints* c = constraints ? (*constraints)[indices[b]] : nullptr;
    if (c && !c->empty()) w.sentence_constraints[b] = c;
    w.row_state.push_back(c ? initial_state(*c) : ConstraintState{});
  }
  w.row_log_prob.assign(B, 0.0);
  w.previous.assign(B, data::Vocabulary::kBos);
  w.history_token.assign(B, data::Vocabulary::kBos);
  w.history_parent.assign(B, -1);
  w.history_step.assign(options.word_scores ? B : 0, 0.0f);
  w.step_begin.assign(1, 0);
  w.weight_begin.clear();
  w.step_weights.clear();
  return beams;
}

// The batch's shortlist: U of its sentences' allowed sets, each member's output columns of U.
void restrict_output(const std::vector<std::vector<std::int32_t>>& allowed, const std::vector<std::size_t>& indices,
                     Workspace& w) {
  std::vector<const std::vector<std::int32_t>*> sets;
  for (const std::size_t i : indices) sets.push_back(&allowed[i]);
  w.shortlist = batch_shortlist(sets);
  for (Member& member : w.members) {
    member.columns.ids = w.shortlist.ids;
    member.model->gather_output_columns(member.columns);
  }
}

// Decodes one batch of non-empty sources; results[k] for indices[k]. sources[m] are the
// sentences in model m's source vocabulary.
void search_batch(const std::vector<model::RnnSearch*>& models,
                  const std::vector<std::vector<std::vector<std::int32_t>>>& sources,
                  const std::vector<std::size_t>& indices, const BeamOptions& options,
                  const std::vector<std::vector<std::int32_t>>* allowed,
                  const std::vector<const TargetConstraints*>* constraints, Workspace& w,
                  std::vector<std::vector<Hypothesis>>& results) {
  encode_batch(models, sources, indices, w);
  w.restriction = allowed ? &w.shortlist : nullptr;
  if (allowed) restrict_output(*allowed, indices, w);
  Beams beams = start_beams(sources[0], indices, constraints, options, w);
  math::Matrix* log_probs = nullptr;
  const math::Matrix* weights = nullptr;
  for (int step = 0; !w.row_sentence.empty(); ++step) {
    decoder_step(w, log_probs, weights);
    if (options.attention) {  // row-major: the step's rows one after another
      w.weight_begin.push_back(w.step_weights.size());
      w.weight_columns = static_cast<std::size_t>(weights->cols());
      w.step_weights.insert(w.step_weights.end(), weights->data(), weights->data() + weights->size());
    }
    advance_beams(*log_probs, step, options, beams, w);
    if (w.row_sentence.empty()) break;
    follow_parents(w);
  }
  for (std::size_t b = 0; b < indices.size(); ++b) {
    auto& hypotheses = beams.finished[b];
    std::stable_sort(hypotheses.begin(), hypotheses.end(), [](const Hypothesis& x, const Hypothesis& y) {
      if (x.constraints_met != y.constraints_met) return x.constraints_met;
      return x.score > y.score;
    });
    if (static_cast<int>(hypotheses.size()) > options.n_best) hypotheses.resize(static_cast<std::size_t>(options.n_best));
    results[indices[b]] = std::move(hypotheses);
  }
}

// One model's vocabulary checks, the same for every search.
void check_models(const std::vector<model::RnnSearch*>& models) {
  if (models.empty()) throw util::Error("beam search: no model");
  for (std::size_t m = 1; m < models.size(); ++m) {
    if (models[m]->config().target_vocabulary != models[0]->config().target_vocabulary) {
      throw util::Error("beam search: the models of an ensemble need the same target vocabulary");
    }
  }
}

}  // namespace

struct BeamSearcher::State {
  Workspace workspace;
};

BeamSearcher::BeamSearcher(std::vector<model::RnnSearch*> models, const BeamOptions& options)
    : models_(std::move(models)), options_(options), state_(std::make_unique<State>()) {
  check_models(models_);
  check_ensemble_weights(options_.weights, models_.size());
  state_->workspace.factors = member_factors(options_.weights);
}

BeamSearcher::~BeamSearcher() = default;

void BeamSearcher::search(const std::vector<std::vector<std::vector<std::int32_t>>>& sources,
                          const std::vector<std::size_t>& indices, const std::vector<std::vector<std::int32_t>>* allowed,
                          std::vector<std::vector<Hypothesis>>& results,
                          const std::vector<const TargetConstraints*>* constraints) {
  if (sources.size() != models_.size()) {
    throw util::Error("beam search: " + std::to_string(models_.size()) + " models for " +
                      std::to_string(sources.size()) + " source sets");
  }
  for (const auto& set : sources) {
    if (set.size() != sources[0].size()) throw util::Error("beam search: the models of an ensemble need the same sentences");
  }
  if (allowed && allowed->size() != sources[0].size()) {
    throw util::Error("beam search: " + std::to_string(allowed->size()) + " allowed sets for " +
                      std::to_string(sources[0].size()) + " sentences");
  }
  if (results.size() != sources[0].size()) {
    throw util::Error("beam search: " + std::to_string(results.size()) + " results for " +
                      std::to_string(sources[0].size()) + " sentences");
  }
  if (constraints && constraints->size() != sources[0].size()) {
    throw util::Error("beam search: " + std::to_string(constraints->size()) + " constraint sets for " +
                      std::to_string(sources[0].size()) + " sentences");
  }
  search_batch(models_, sources, indices, options_, allowed, constraints, state_->workspace, results);
}

std::vector<std::vector<Hypothesis>> beam_search(const std::vector<model::RnnSearch*>& models,
                                                 const std::vector<std::vector<std::vector<std::int32_t>>>& sources,
                                                 const BeamOptions& options,
                                                 const std::vector<std::vector<std::int32_t>>* allowed,
                                                 const std::vector<const TargetConstraints*>* constraints) {
  BeamSearcher searcher(models, options);
  if (sources.size() != models.size()) {
    throw util::Error("beam search: " + std::to_string(models.size()) + " models for " + std::to_string(sources.size()) +
                      " source sets");
  }
  std::vector<std::vector<Hypothesis>> results(sources[0].size());
  for (std::size_t i = 0; i < results.size(); ++i) {
    if (sources[0][i].empty()) results[i].push_back(Hypothesis{});
  }
  for (const auto& indices : data::batches_by_length(sources[0], options.batch_size)) {
    searcher.search(sources, indices, allowed, results, constraints);
  }
  return results;
}

std::vector<std::vector<Hypothesis>> beam_search(model::RnnSearch& model,
                                                 const std::vector<std::vector<std::int32_t>>& sources,
                                                 const BeamOptions& options) {
  return beam_search(std::vector<model::RnnSearch*>{&model}, {sources}, options);
}

}  // namespace rnnsearch::search
