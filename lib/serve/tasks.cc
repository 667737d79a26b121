#include "serve/tasks.h"

#include <limits>
#include <numeric>

#include "align/hmm_params.h"
#include "align/ibm2.h"
#include "data/alignment.h"
#include "model/replicas.h"
#include "search/sentence_search.h"
#include "util/number_format.h"

namespace rnnsearch::serve {

namespace {

// The pair as loaded: its name and which load of it.
std::string pair_key(const LanguagePair& pair) {
  return pair.config().name() + "#" + std::to_string(pair.load_id());
}

// The options that change a translation, as text: sentences batch together only with the
// same (and the same pair's models).
std::string translate_key(const LanguagePair& pair, const search::TranslateOptions& c) {
  return "translate " + pair_key(pair) + " " + std::to_string(c.beam.beam_size) + " " +
         std::to_string(c.n_best) + " " + util::general_exact(c.beam.length_penalty) + " " +
         util::general_exact(c.beam.max_length_ratio) + " " + std::to_string(static_cast<int>(c.alignment)) + " " +
         std::to_string(c.replace_unknown) + std::to_string(c.word_scores) + std::to_string(c.alignment_head);
}

std::string pieces_text(const std::vector<std::string>& pieces) {
  std::string text;
  for (const auto& piece : pieces) text += (text.empty() ? "" : " ") + piece;
  return text;
}

}  // namespace

TranslateTask::TranslateTask(std::shared_ptr<LanguagePair> pair, search::TranslateOptions config)
    : pair_(std::move(pair)), config_(std::move(config)), key_(translate_key(*pair_, config_)) {}

void TranslateTask::run(std::size_t worker, const std::vector<SentenceJob*>& batch) const {
  std::vector<search::Source> sources;
  for (const SentenceJob* job : batch) sources.push_back(job->source);
  std::vector<std::vector<search::Hypothesis>> results(sources.size());
  search::translate_empty_sources(sources, config_, results);
  std::vector<std::size_t> non_empty;
  for (std::size_t i = 0; i < sources.size(); ++i) {
    if (!sources[i].words.empty()) non_empty.push_back(i);
  }
  if (!non_empty.empty()) {
    search::BeamOptions beam = search::beam_options(config_);
    beam.batch_size = static_cast<int>(batch.size());
    search::BeamSearcher& searcher = pair_->searcher(worker, key_, beam);
    search::search_batch(sources, search::ids_by_model(sources), non_empty, searcher, *pair_->members(worker)[0],
                         config_, pair_->shortlist(), results);
  }
  for (std::size_t i = 0; i < batch.size(); ++i) batch[i]->hypotheses = std::move(results[i]);
}

ScoreTask::ScoreTask(std::shared_ptr<LanguagePair> pair)
    : pair_(std::move(pair)), key_("score " + pair_key(*pair_)) {}

// As nmt-score: an empty source gives </s> probability 1 after an empty target, every
// token probability 0 after another.
void ScoreTask::run(std::size_t worker, const std::vector<SentenceJob*>& batch) const {
  const std::size_t models = pair_->models().size();
  std::vector<std::vector<std::vector<std::int32_t>>> sources(models);
  std::vector<std::vector<std::int32_t>> targets;
  std::vector<std::vector<float>> log_probs(batch.size());
  std::vector<std::size_t> non_empty;
  for (std::size_t i = 0; i < batch.size(); ++i) {
    const SentenceJob& job = *batch[i];
    for (std::size_t m = 0; m < models; ++m) sources[m].push_back(job.source.ids[m]);
    targets.emplace_back();
    for (const auto& piece : job.target) targets.back().push_back(pair_->target_vocabulary().id_or_unk(piece));
    if (job.source.words.empty()) {
      const float value = job.target.empty() ? 0.0f : -std::numeric_limits<float>::infinity();
      log_probs[i].assign(job.target.size() + 1, value);
    } else {
      non_empty.push_back(i);
    }
  }
  if (!non_empty.empty()) pair_->scorer(worker).score(sources, targets, non_empty, log_probs);
  for (std::size_t i = 0; i < batch.size(); ++i) batch[i]->token_log_probs = std::move(log_probs[i]);
}

AttentionAlignTask::AttentionAlignTask(std::shared_ptr<LanguagePair> pair, align::ExtractOptions options,
                                       std::string key)
    : pair_(std::move(pair)), options_(std::move(options)), key_("align " + pair_key(*pair_) + " " + key) {}

void AttentionAlignTask::run(std::size_t worker, const std::vector<SentenceJob*>& batch) const {
  std::vector<std::string> sources, targets;
  for (const SentenceJob* job : batch) {
    sources.push_back(pieces_text(job->source.words));
    targets.push_back(pieces_text(job->target));
  }
  model::Replicas one(*pair_->members(worker)[0], 1);
  align::ExtractOptions options = options_;
  options.threads = 1;
  options.batch_size = static_cast<int>(batch.size());
  const auto lines = align::extract_alignments(one, pair_->source_vocabulary(), pair_->target_vocabulary(), sources,
                                               targets, options);
  for (std::size_t i = 0; i < batch.size(); ++i) batch[i]->links = lines[i];
}

HmmAlignTask::HmmAlignTask(std::shared_ptr<LanguagePair> pair, align::HmmOptions options, std::string key)
    : pair_(std::move(pair)), options_(std::move(options)), key_("hmm " + pair_key(*pair_) + " " + key) {}

void HmmAlignTask::run(std::size_t, const std::vector<SentenceJob*>& batch) const {
  align::Ibm2CorpusBuilder builder;
  for (const SentenceJob* job : batch) builder.add(job->source.words, job->target);
  const align::Ibm2Corpus corpus = pair_->hmm_params()->in_file_words(builder.take());
  const align::HmmModel model = pair_->hmm_params()->model_for(corpus);
  align::hmm_decode(corpus, options_, model, [&batch](std::size_t i, const data::Alignment& links) {
    batch[i]->links = data::format_pharaoh(links);
  });
}

}  // namespace rnnsearch::serve
