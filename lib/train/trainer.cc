#include "train/trainer.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sys/stat.h>

#include "data/batch.h"
#include "model/model_file.h"
#include "nn/optimizer.h"
#include "train/checkpoint.h"
#include "train/data_parallel.h"
#include "train/progress.h"
#include "train/validator.h"
#include "util/atomic_file.h"
#include "util/error.h"

namespace rnnsearch::train {

namespace {

std::atomic<bool> stop_requested{false};
constexpr int kValidationBatch = 64;  // sentences per validation batch (does not change the figures)

bool file_exists(const std::string& path) {
  struct stat info;
  return ::stat(path.c_str(), &info) == 0;
}

std::string fixed(double value, int digits) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%.*f", digits, value);
  return buffer;
}

std::unique_ptr<nn::Optimizer> make_optimizer(const std::string& name) {
  if (name == "adadelta") return std::make_unique<nn::Adadelta>();
  return std::make_unique<nn::Adam>();
}

// Everything one run holds; run() is the loop.
class Trainer {
 public:
  explicit Trainer(const TrainConfig& config) : config_(config), progress_(config.quiet, config.log_freq) {}

  TrainOutcome run();

 private:
  void set_up();
  void start_fresh();
  void create_model();
  void resume();
  void log_setup();
  float learning_rate() const;
  void one_update(const std::vector<std::size_t>& batch);
  void validate();
  void save();
  std::string limit_reached() const;
  void finish_model_file();

  const TrainConfig& config_;
  Progress progress_;
  data::Vocabulary source_vocabulary_, target_vocabulary_;
  data::ParallelCorpus corpus_;
  std::unique_ptr<model::RnnSearch> model_;
  std::unique_ptr<DataParallel> workers_;
  std::unique_ptr<nn::Optimizer> optimizer_;
  std::unique_ptr<Validator> validator_;
  TrainingState state_;
  long last_saved_update_ = -1;
  std::chrono::steady_clock::time_point run_start_;
  double elapsed_at_start_ = 0.0;
  // Figures since the last progress report.
  double window_loss_ = 0.0, window_tokens_ = 0.0, window_seconds_ = 0.0;
  long window_updates_ = 0;
  double last_gradient_norm_ = 0.0;
  std::size_t batches_in_epoch_ = 0;
};

void Trainer::set_up() {
  if (config_.resume) {
    resume();
  } else {
    start_fresh();
  }
  data::CorpusOptions options;  // the corpus is read before a new model is built: its errors come first
  options.max_length = config_.max_length;
  options.long_pairs = config_.long_pair_policy();
  options.allow_unknown = config_.source_vocabulary.empty() || config_.allow_unknown ||
                          config_.source_vocabulary_size > 0 || config_.target_vocabulary_size > 0;
  options.alignment_path = config_.guided_alignment;
  corpus_ = data::read_parallel_corpus(config_.train_source, config_.train_target, source_vocabulary_,
                                       target_vocabulary_, options);
  if (!model_) create_model();
  if (config_.has_validation()) {
    validator_ = std::make_unique<Validator>(config_.valid_source, config_.valid_target, source_vocabulary_,
                                             target_vocabulary_, config_.max_length);
  }
  workers_ = std::make_unique<DataParallel>(*model_, config_.threads);
  log_setup();
}

void Trainer::start_fresh() {
  for (const std::string& path : {config_.checkpoint_path(), config_.model_path, config_.best_model_path()}) {
    if (!config_.overwrite && file_exists(path)) {
      throw util::Error(path, "exists: continue that training with --resume, or pass --overwrite to start over");
    }
  }
  if (config_.source_vocabulary.empty()) {
    source_vocabulary_ = data::Vocabulary::from_text_files({config_.train_source}, config_.source_vocabulary_size);
    target_vocabulary_ = data::Vocabulary::from_text_files({config_.train_target}, config_.target_vocabulary_size);
  } else {
    source_vocabulary_ = data::Vocabulary::from_vocab_file(config_.source_vocabulary, config_.source_vocabulary_size);
    target_vocabulary_ = data::Vocabulary::from_vocab_file(config_.target_vocabulary, config_.target_vocabulary_size);
  }
}

void Trainer::create_model() {
  // An old run's best model must not pass for this run's (--overwrite got here).
  std::remove(config_.best_model_path().c_str());
  model::ModelConfig model_config = config_.model;
  model_config.source_vocabulary = static_cast<int>(source_vocabulary_.size());
  model_config.target_vocabulary = static_cast<int>(target_vocabulary_.size());
  model_ = std::make_unique<model::RnnSearch>(model_config);
  util::Rng rng(config_.seed);
  model_->initialize(config_.initialization(), rng);
  optimizer_ = make_optimizer(config_.optimizer);
}

void Trainer::resume() {
  const std::string path = config_.checkpoint_path();
  if (!file_exists(path)) throw util::Error(path, "no checkpoint to resume from");
  LoadedCheckpoint checkpoint = read_checkpoint(path);
  model_ = std::move(checkpoint.model.model);
  source_vocabulary_ = std::move(checkpoint.model.source_vocabulary);
  target_vocabulary_ = std::move(checkpoint.model.target_vocabulary);
  state_ = checkpoint.state;
  last_saved_update_ = state_.update;
  optimizer_ = make_optimizer(config_.optimizer);
  restore_optimizer(checkpoint, *optimizer_, model_->parameters(), path);
}

void Trainer::log_setup() {
  const std::size_t skipped = corpus_.skipped_long + corpus_.skipped_empty;
  std::string line = "data: " + std::to_string(corpus_.lines) + " lines, " + std::to_string(corpus_.size()) +
                     " pairs, " + std::to_string(corpus_.target_tokens()) + " target tokens";
  if (skipped > 0) {
    line += "; skipped " + std::to_string(corpus_.skipped_long) + " longer than " + std::to_string(config_.max_length) +
            " tokens and " + std::to_string(corpus_.skipped_empty) + " with an empty side (first: " +
            config_.train_source + ":" + std::to_string(corpus_.first_skipped_line) + ")";
  }
  if (corpus_.unknown_tokens > 0) line += "; " + std::to_string(corpus_.unknown_tokens) + " tokens mapped to <unk>";
  progress_.message(line);
  if (!config_.guided_alignment.empty()) {
    std::size_t linked_pairs = 0;
    for (const auto& links : corpus_.alignments) linked_pairs += links.empty() ? 0 : 1;
    char weight[32];
    std::snprintf(weight, sizeof(weight), "%g", static_cast<double>(config_.guided_alignment_weight));
    progress_.message("guided alignment: " + std::to_string(corpus_.alignment_word_links) + " links on " +
                      std::to_string(linked_pairs) + " pairs from " + config_.guided_alignment + " (weight " +
                      weight + ")");
  }
  progress_.message("model: " + model_->config().summary() + ", " +
                    std::to_string(model_->parameters().scalar_count()) + " parameters; " +
                    std::to_string(config_.threads) + " thread(s)");
  if (config_.resume) {
    progress_.message("resuming at update " + std::to_string(state_.update) + " (epoch " +
                      std::to_string(state_.epoch + 1) + ", batch " + std::to_string(state_.batch_in_epoch) + ")");
  }
}

float Trainer::learning_rate() const {
  float rate = config_.resolved_learning_rate() * state_.learning_rate_scale;
  if (config_.warmup > 0 && state_.update < config_.warmup) {
    rate *= static_cast<float>(state_.update + 1) / static_cast<float>(config_.warmup);
  }
  return rate;
}

void Trainer::one_update(const std::vector<std::size_t>& batch) {
  const auto start = std::chrono::steady_clock::now();
  model::LossOptions options;
  options.dropout = config_.dropout;
  options.label_smoothing = config_.label_smoothing;
  if (!config_.guided_alignment.empty()) options.guided_alignment_weight = config_.guided_alignment_weight;
  const DataParallel::Gradients gradients = workers_->gradients(corpus_, batch, options, config_.seed, state_.update);
  const nn::CrossEntropySum& sum = gradients.loss;
  const double norm = gradients.norm;
  if (!std::isfinite(sum.loss) || !std::isfinite(norm)) {
    const std::string kept = last_saved_update_ < 0
                                 ? "nothing was saved"
                                 : "the files saved at update " + std::to_string(last_saved_update_) + " are kept";
    throw util::Error("update " + std::to_string(state_.update + 1) + ": the " +
                      (std::isfinite(sum.loss) ? std::string("gradient") : std::string("loss")) +
                      " is not finite; " + kept + " (try a lower --learning-rate" +
                      (config_.clip_norm > 0 ? std::string(" or --clip-norm") : std::string(", or --clip-norm 1")) + ")");
  }
  workers_->apply_update(*optimizer_, learning_rate(), norm, config_.clip_norm);
  ++state_.update;
  ++state_.batch_in_epoch;
  state_.target_tokens += static_cast<double>(sum.tokens);
  window_loss_ += sum.loss;
  window_tokens_ += static_cast<double>(sum.tokens);
  window_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ++window_updates_;
  last_gradient_norm_ = norm;
}

void Trainer::validate() {
  const auto start = std::chrono::steady_clock::now();
  const ValidationResult result = validator_->run(*workers_, kValidationBatch);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ValidationRecord record{state_.update, result.cross_entropy, result.bleu};
  state_.validations.push_back(record);
  const double score = config_.early_stopping_metric == "bleu" ? result.bleu : -result.cross_entropy;
  const bool improved = score > state_.best_score;
  if (improved) {
    state_.best_score = score;
    state_.best_update = state_.update;
    state_.stalled = 0;
    state_.stalled_since_decay = 0;
    model::write_model_file(config_.best_model_path(), model::FileKind::kModel, *model_, source_vocabulary_,
                            target_vocabulary_);
  } else {
    ++state_.stalled;
    ++state_.stalled_since_decay;
  }
  std::string line = "validation at update " + std::to_string(state_.update) + " (" +
                     fixed(state_.elapsed_seconds / 60.0, 1) + " min, took " + fixed(seconds, 1) +
                     " s): cross-entropy " + fixed(result.cross_entropy, 4) + " (perplexity " +
                     fixed(std::exp(result.cross_entropy), 2) + "), greedy BLEU " + fixed(result.bleu, 2);
  line += improved ? " (new best)" : " (stalled " + std::to_string(state_.stalled) + "/" +
                                         std::to_string(config_.patience) + ", best at update " +
                                         std::to_string(state_.best_update) + ")";
  if (!improved && config_.decay_patience > 0 && state_.stalled_since_decay >= config_.decay_patience) {
    state_.learning_rate_scale *= config_.decay_factor;
    state_.stalled_since_decay = 0;
    line += "; learning rate now " + fixed(config_.resolved_learning_rate() * state_.learning_rate_scale, 6);
  }
  progress_.message(line);
  if (!config_.valid_translation_output.empty()) {
    // This validation's translations, and those of the best model so far beside them.
    for (const std::string& path : {config_.valid_translation_output, config_.valid_translation_output + ".best"}) {
      if (!improved && path != config_.valid_translation_output) continue;
      util::AtomicFileWriter writer(path);
      for (const auto& translation : result.translations) writer.write_line(translation);
      writer.commit();
    }
  }
}

void Trainer::save() {
  last_saved_update_ = state_.update;
  write_checkpoint(config_.checkpoint_path(), *model_, source_vocabulary_, target_vocabulary_, state_, *optimizer_);
  model::write_model_file(config_.model_path, model::FileKind::kModel, *model_, source_vocabulary_, target_vocabulary_);
}

std::string Trainer::limit_reached() const {
  if (config_.max_updates > 0 && state_.update >= config_.max_updates) {
    return "--max-updates " + std::to_string(config_.max_updates);
  }
  if (config_.max_epochs > 0 && state_.epoch >= config_.max_epochs) return "--max-epochs " + std::to_string(config_.max_epochs);
  if (config_.max_minutes > 0 && state_.elapsed_seconds >= config_.max_minutes * 60.0) {
    return "--max-minutes " + fixed(config_.max_minutes, 1);
  }
  if (validator_ && config_.patience > 0 && state_.stalled >= config_.patience) {
    return "early stopping: " + std::to_string(config_.patience) + " validations without improvement";
  }
  return "";
}

void Trainer::finish_model_file() {
  if (config_.final_model != "best" || !validator_ || state_.validations.empty()) return;
  const model::LoadedModel best = model::read_model_file(config_.best_model_path());
  model::write_model_file(config_.model_path, model::FileKind::kModel, *best.model, best.source_vocabulary,
                          best.target_vocabulary);
}

TrainOutcome Trainer::run() {
  run_start_ = std::chrono::steady_clock::now();
  set_up();
  elapsed_at_start_ = state_.elapsed_seconds;
  TrainOutcome outcome;
  std::vector<std::vector<std::size_t>> batches = data::epoch_batches(corpus_, config_.batching, config_.seed, state_.epoch);
  while ((outcome.reason = limit_reached()).empty()) {
    if (state_.batch_in_epoch >= batches.size()) {
      ++state_.epoch;
      state_.batch_in_epoch = 0;
      batches = data::epoch_batches(corpus_, config_.batching, config_.seed, state_.epoch);
      continue;
    }
    batches_in_epoch_ = batches.size();
    one_update(batches[state_.batch_in_epoch]);
    state_.elapsed_seconds =
        elapsed_at_start_ + std::chrono::duration<double>(std::chrono::steady_clock::now() - run_start_).count();
    if (progress_.should_report(state_.update)) {
      ProgressFigures figures;
      figures.epoch = state_.epoch;
      figures.update = state_.update;
      figures.batch_in_epoch = state_.batch_in_epoch;
      figures.batches_in_epoch = batches.size();
      figures.loss = window_loss_ / std::max(1.0, window_tokens_);
      figures.tokens_per_second = window_tokens_ / std::max(1e-9, window_seconds_);
      figures.seconds_per_update = window_seconds_ / static_cast<double>(std::max(1L, window_updates_));
      figures.learning_rate = learning_rate();
      figures.gradient_norm = last_gradient_norm_;
      progress_.report(figures);
      window_loss_ = window_tokens_ = window_seconds_ = 0.0;
      window_updates_ = 0;
    }
    if (validator_ && state_.update % config_.valid_freq == 0) validate();
    if (stop_requested.load()) {
      save();
      progress_.message("stopped by a signal after update " + std::to_string(state_.update) + "; " +
                        config_.checkpoint_path() + " written, continue with --resume");
      outcome.interrupted = true;
      stop_requested.store(false);
      outcome.state = state_;
      return outcome;
    }
    if (state_.update % config_.save_freq == 0) save();
  }
  // No extra validation here: one off the --valid-freq grid would change the early-stopping
  // state, and a resumed run would then differ from an uninterrupted one.
  save();
  finish_model_file();
  progress_.message("training ended at update " + std::to_string(state_.update) + " (" + outcome.reason + ") after " +
                    fixed(state_.elapsed_seconds / 60.0, 1) + " minutes" +
                    (validator_ ? "; best validation at update " + std::to_string(state_.best_update) : ""));
  progress_.finish();
  outcome.state = state_;
  return outcome;
}

}  // namespace

void request_stop() { stop_requested.store(true); }

TrainOutcome run_training(const TrainConfig& config) {
  config.validate();
  Trainer trainer(config);
  return trainer.run();
}

}  // namespace rnnsearch::train
