#include "search/score_files.h"

#include <unistd.h>

#include <limits>
#include <memory>

#include "search/batch_schedule.h"
#include "search/beam_search.h"
#include "search/ensemble.h"
#include "search/forced_scorer.h"
#include "search/nbest_list.h"
#include "search/score_input.h"
#include "search/translator.h"
#include "search/truncated_lines.h"
#include "search/word_scores.h"
#include "text/word_counter.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/number_format.h"
#include "util/progress_meter.h"

namespace rnnsearch::search {

namespace {

// A window of pairs: per model the source ids, the target ids, and the scores.
struct Window {
  std::vector<RawPair> pairs;
  std::vector<std::vector<std::vector<std::int32_t>>> sources;  // per model, per pair
  std::vector<std::vector<std::int32_t>> targets;
  std::vector<std::vector<float>> token_log_probs;

  void clear(std::size_t models) {
    pairs.clear();
    sources.assign(models, {});
    targets.clear();
  }
};

// What the warnings at the end of input count, over the whole input in its order.
struct Tally {
  Tally(std::size_t max_length, const data::SourceProfile& profile) : language(profile), truncated(max_length, "score") {}
  data::UnknownTokens unknown;  // both sides, in the first model's vocabularies
  data::LanguageCheck language;  // the sources, under the first model's source profile
  TruncatedLines truncated;     // sources longer than max_length
};

// The pair's ids: the source truncated to max_length (with a note), the target whole.
void add_ids(const RawPair& pair, const std::vector<model::LoadedModel>& models, const util::Messages& messages,
             Tally& tally, Window& window) {
  std::vector<std::string_view> words, pieces;
  text::split_space_words(pair.source, words);
  tally.language.add(pair.source);
  text::split_space_words(pair.target, pieces);
  if (words.size() > kMaxSourcePieces || pieces.size() > kMaxSourcePieces) {
    const bool source = words.size() > kMaxSourcePieces;
    throw util::Error(source ? pair.source_file : pair.target_file, source ? pair.source_line : pair.target_line,
                      std::to_string(source ? words.size() : pieces.size()) + " pieces, more than nmt-score reads (" +
                          std::to_string(kMaxSourcePieces) + "); split the line");
  }
  if (tally.truncated.truncate(words.size(), pair.source_file, pair.source_line, messages)) {
    words.resize(tally.truncated.max_length());
  }
  for (std::size_t m = 0; m < models.size(); ++m) {
    window.sources[m].emplace_back();
    for (const auto word : words) window.sources[m].back().push_back(models[m].source_vocabulary.id_or_unk(std::string(word)));
  }
  window.targets.emplace_back();
  for (const auto piece : pieces) window.targets.back().push_back(models[0].target_vocabulary.id_or_unk(std::string(piece)));
  tally.unknown.add(data::UnknownTokens::kSource, window.sources[0].back());
  tally.unknown.add(data::UnknownTokens::kTarget, window.targets.back());
}

// Scores a window: batches sorted by source length, the longest first, each thread taking
// the next batch free. An empty source gives </s> probability 1 after an empty target,
// every token probability 0 after another.
void score_window(Window& window, std::vector<std::unique_ptr<ForcedScorer>>& scorers, int mini_batch) {
  window.token_log_probs.assign(window.pairs.size(), {});
  for (std::size_t i = 0; i < window.pairs.size(); ++i) {
    if (!window.sources[0][i].empty()) continue;
    const float value = window.targets[i].empty() ? 0.0f : -std::numeric_limits<float>::infinity();
    window.token_log_probs[i].assign(window.targets[i].size() + 1, value);
  }
  for_each_batch_longest_first(window.sources[0], mini_batch, scorers.size(),
                               [&](int thread, const std::vector<std::size_t>& batch) {
    scorers[static_cast<std::size_t>(thread)]->score(window.sources, window.targets, batch, window.token_log_probs);
  });
}

// The output line of pair i of the window.
std::string output_line(const Window& window, std::size_t i, const ScoreOptions& options, bool n_best) {
  const std::vector<float>& values = window.token_log_probs[i];
  const double score = normalized_score(sum_log_probs(values), values.size(), options.normalize);
  const RawPair& pair = window.pairs[i];
  if (n_best) {
    const NbestEntry entry{0, {}, {}, pair.features_end};
    return with_feature(pair.nbest_line, entry, options.feature_name, util::general(score));
  }
  std::string line = util::general(score);
  if (options.word_scores) {
    std::vector<std::string_view> pieces;
    text::split_space_words(pair.target, pieces);
    line += ' ' + word_scores_text(pieces, values);
  }
  return line;
}

}  // namespace

std::size_t score_files(const ScoreOptions& options, const util::Messages& messages) {
  options.validate();
  std::vector<model::LoadedModel> models = read_ensemble(options.model_paths);
  ThreadModels thread_models(models, options.threads, options.precision);
  std::vector<std::unique_ptr<ForcedScorer>> scorers;
  for (const auto& members : thread_models.members) scorers.push_back(std::make_unique<ForcedScorer>(members, options.weights));
  PairReader reader(options);
  util::AtomicFileWriter writer(options.output);
  util::ProgressMeter progress("nmt-score", "pairs", options.progress && !util::is_terminal(options.output, STDOUT_FILENO));
  const std::size_t size = static_cast<std::size_t>(options.mini_batch) * static_cast<std::size_t>(options.maxi_batch);
  std::size_t total = 0;
  Window window;
  Tally tally(options.max_length, models[0].source_profile);
  std::string source_name, target_name;  // the inputs, for the warnings
  for (;;) {
    window.clear(models.size());
    RawPair pair;
    while (window.pairs.size() < size && (window.pairs.empty() || reader.ready()) && reader.next(pair)) {
      add_ids(pair, models, messages, tally, window);
      window.pairs.push_back(std::move(pair));
    }
    if (window.pairs.empty()) break;
    score_window(window, scorers, options.mini_batch);
    for (std::size_t i = 0; i < window.pairs.size(); ++i) writer.write_line(output_line(window, i, options, reader.n_best()));
    writer.flush();
    total += window.pairs.size();
    progress.set_done(total);
    source_name = window.pairs.back().source_file;
    target_name = window.pairs.back().target_file;
  }
  progress.finish();
  writer.commit();
  tally.unknown.warn(messages, options.unknown_warning, source_name, target_name);
  tally.language.warn(messages, options.language_warning, source_name);
  tally.truncated.warn(messages, source_name, total);
  return total;
}

}  // namespace rnnsearch::search
