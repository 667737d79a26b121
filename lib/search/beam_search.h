#pragma once
// Beam search batched over sentences and hypotheses. Every step extends all live
// hypotheses of all sentences with one decoder step. A sentence with F finished
// hypotheses keeps its best beam_size - F extensions by log-probability (ties to the
// earlier hypothesis, then the lower word id, as greedy's argmax); those ending in </s>
// or reaching the sentence's length limit are finished, the others live on, so the beam
// narrows as hypotheses finish and the sentence is done at beam_size finished ones.
// Finished hypotheses are ranked by the normalized score
//   score = log p(y | x) / |y|^alpha      (|y| counts </s>; alpha = 0: no normalization)
// A sentence may have constraints (search/target_constraints.h): its first steps take the
// prefix's tokens, one row; a banned phrase's last token is never a candidate; </s> is no
// candidate before every positive phrase is met; each row also offers the tokens that meet
// one more constraint token, and the beam is shared out by dynamic beam allocation
// (search/dynamic_beam_allocation.h). Its finished hypotheses that meet every constraint
// rank before those (cut at the length limit) that do not. A sentence without constraints
// is searched exactly as before, whatever the other sentences of its batch ask.
// With beam_size 1 this is exactly greedy decoding (search/greedy.h).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "model/rnnsearch.h"
#include "search/target_constraints.h"

namespace rnnsearch::search {

// Not checked here: the caller's options validate them (search::TranslateOptions, whose
// translation sets n_best in [1, beam_size]; beam_size and batch_size are at least 1).
struct BeamOptions {
  int beam_size = 5;
  int n_best = 1;                  // hypotheses returned per sentence (at most beam_size)
  double length_penalty = 1.0;     // alpha
  double max_length_ratio = 2.0;   // at most ratio * source length + 10 target tokens
  int batch_size = 32;             // sentences decoded together (sorted by length)
  bool attention = false;          // keep each hypothesis's attention weights (alignments, --replace-unk)
  bool word_scores = false;        // keep each hypothesis's token log-probabilities (nmt-decode --word-scores)
  // An ensemble's weights, one per model (search/ensemble.h); empty: equal weights.
  std::vector<double> weights;
};

// The most target tokens a hypothesis gets: max_length_ratio * source_length + 10,
// clamped to [1, kMaxTargetLength] (greedy decoding uses the same limit).
constexpr int kMaxTargetLength = 100000;
int target_length_limit(double max_length_ratio, std::size_t source_length);

struct Hypothesis {
  std::vector<std::int32_t> tokens;  // without </s>
  double log_probability = 0.0;      // log p(tokens </s> | source), or of tokens when cut at the limit
  double score = 0.0;                // normalized, as above
  bool complete = true;              // ended with </s>; false when cut at the length limit
  // With BeamOptions::attention, the attention weights of every step: row i holds alpha
  // over the source tokens and the source </s> (source length + 1 values) for target
  // token i, </s> included when complete. Empty otherwise.
  std::vector<std::vector<float>> attention;
  // With BeamOptions::word_scores, the log-probability of each token, </s> last when
  // complete (they sum to log_probability, added in order in double). Empty otherwise.
  std::vector<float> token_log_probs;
  // False for a hypothesis of a constrained sentence that stopped at the length limit
  // before meeting every positive constraint (search/target_constraints.h).
  bool constraints_met = true;
};

// How hypotheses are ranked: log_probability / length^alpha (length at least 1; alpha 0:
// log_probability itself). nmt-score --normalize divides the same way.
double normalized_score(double log_probability, std::size_t length, double alpha);

// The search of one thread, batch after batch, keeping its buffers from batch to batch
// (a thread pool gives each worker one). An ensemble: model m reads sources[m] (the same
// sentences in its own source vocabulary); every step uses the mean of the models'
// log-probabilities (and of their attention weights), weighted by BeamOptions::weights
// (search/ensemble.h). Throws util::Error unless the target vocabularies have the same
// size (the caller checks that they are the same words).
class BeamSearcher {
 public:
  BeamSearcher(std::vector<model::RnnSearch*> models, const BeamOptions& options);
  ~BeamSearcher();
  BeamSearcher(const BeamSearcher&) = delete;
  BeamSearcher& operator=(const BeamSearcher&) = delete;

  // Decodes the non-empty sources indices (one batch; sorted by length is fastest) into
  // results[i] for each i of indices (results has a place for every source; other
  // threads may fill other places at the same time): the n_best hypotheses, best first. With `allowed`
  // (one ascending id list per sentence, search/shortlist.h), sentence i produces only
  // the words allowed[i] (which must hold its constraints' tokens). With `constraints` (one
  // pointer per source, null for none), sentence i meets *constraints[i]. A sentence's
  // hypotheses do not depend on its batch.
  void search(const std::vector<std::vector<std::vector<std::int32_t>>>& sources,
              const std::vector<std::size_t>& indices, const std::vector<std::vector<std::int32_t>>* allowed,
              std::vector<std::vector<Hypothesis>>& results,
              const std::vector<const TargetConstraints*>* constraints = nullptr);

 private:
  struct State;  // the search's buffers (beam_search.cc)
  std::vector<model::RnnSearch*> models_;
  BeamOptions options_;
  std::unique_ptr<State> state_;
};

// For every source (ids without </s>), its n_best hypotheses, best first, in input order.
// An empty source gives one empty hypothesis.
std::vector<std::vector<Hypothesis>> beam_search(model::RnnSearch& model,
                                                 const std::vector<std::vector<std::int32_t>>& sources,
                                                 const BeamOptions& options);

// An ensemble: model m reads sources[m] (the same sentences in its own source vocabulary);
// every step uses the mean of the models' log-probabilities (and of their attention
// weights). Throws util::Error unless the target vocabularies have the same size (the
// caller checks that they are the same words). With `allowed` (one ascending id list per
// sentence, search/shortlist.h), sentence i produces only the words allowed[i]; with
// `constraints` (one pointer per source, null for none), it meets *constraints[i].
std::vector<std::vector<Hypothesis>> beam_search(const std::vector<model::RnnSearch*>& models,
                                                 const std::vector<std::vector<std::vector<std::int32_t>>>& sources,
                                                 const BeamOptions& options,
                                                 const std::vector<std::vector<std::int32_t>>* allowed = nullptr,
                                                 const std::vector<const TargetConstraints*>* constraints = nullptr);

}  // namespace rnnsearch::search
