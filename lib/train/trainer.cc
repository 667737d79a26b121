#include "train/trainer.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <string_view>
#include <sys/stat.h>
#include <vector>

#include <boost/archive/binary_iarchive.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/utility.hpp>
#include <boost/serialization/vector.hpp>

#include "data/batch.h"
#include "model/model_file.h"
#include "nn/exponential_smoothing.h"
#include "nn/optimizer.h"
#include "train/checkpoint.h"
#include "train/data_parallel.h"
#include "train/kept_models.h"
#include "train/progress.h"
#include "train/resumed_options.h"
#include "train/validator.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/hash.h"
#include "util/number_format.h"
#include "util/temp_name.h"

namespace rnnsearch::train {

namespace {

std::atomic<int> stop_signal{0};  // the signal request_stop() was given; 0 = none
static_assert(std::atomic<int>::is_always_lock_free);  // read and written in a signal handler
constexpr int kValidationBatch = 64;  // sentences per validation batch (does not change the figures)

bool file_exists(const std::string& path) {
  struct stat info;
  return ::stat(path.c_str(), &info) == 0;
}

std::unique_ptr<nn::Optimizer> make_optimizer(OptimizerKind kind) {
  if (kind == OptimizerKind::kAdadelta) return std::make_unique<nn::Adadelta>();
  return std::make_unique<nn::Adam>();
}

// Everything one run holds; run() is the loop.
class Trainer {
 public:
  Trainer(const TrainOptions& config, const ProcessGroup& group)
      : config_(config),
        group_(group),
        progress_(config.quiet || !group.is_root(), config.log_freq),
        stored_options_(config.stored_options) {}

  TrainOutcome run();

 private:
  void set_up();
  void remove_stale_temp_files();
  void check_output_names() const;
  void start_fresh();
  void create_model();
  void check_alignment_head() const;
  void resume();
  void restore_smoothing(LoadedCheckpoint& checkpoint, const std::string& path);
  void start_smoothing();
  void swap_smoothed(bool replicas);
  void start_from_pretrained();
  void share_vocabularies();
  void share_training();
  void check_same_corpus() const;
  void log_setup();
  float learning_rate() const;
  void one_update(const std::vector<std::size_t>& batch);
  ValidationResult run_validator(double& seconds);
  void validate();
  double score_of(const ValidationRecord& record) const;
  double last_score();
  int stop_agreed();
  void check_same_parameters() const;
  void save(bool keep);
  void write_models(bool keep);
  std::string limit_reached() const;
  double run_seconds_left(std::size_t batches_in_epoch) const;
  void finish_model_file();

  const TrainOptions& config_;
  const ProcessGroup& group_;
  Progress progress_;
  std::string stored_options_;  // what the files record: config_'s, with a resumption's changes
  data::Vocabulary source_vocabulary_, target_vocabulary_;
  data::SourceProfile source_profile_;  // of the training source: a fresh run's, else the file's it goes on from
  data::ParallelCorpus corpus_;
  std::unique_ptr<model::RnnSearch> model_;
  std::unique_ptr<DataParallel> workers_;
  std::unique_ptr<nn::Optimizer> optimizer_;
  std::unique_ptr<nn::ExponentialSmoothing> smoothing_;  // --exponential-smoothing; null without
  std::unique_ptr<Validator> validator_;
  TrainingState state_;
  long last_saved_update_ = -1;
  std::chrono::steady_clock::time_point run_start_;
  double elapsed_at_start_ = 0.0;
  long updates_at_start_ = 0;
  // Figures since the last progress report.
  double window_loss_ = 0.0, window_tokens_ = 0.0, window_seconds_ = 0.0;
  long window_updates_ = 0;
  double last_gradient_norm_ = 0.0;
  std::size_t batches_in_epoch_ = 0;
};

// Rank 0 starts or resumes and hands vocabularies, model, optimizer and state to the
// others; every process reads the corpus and the validation set. A step that fails on
// any process fails on all of them (ProcessGroup::together).
void Trainer::set_up() {
  group_.together([&] {
    if (!group_.is_root()) return;
    check_output_names();
    remove_stale_temp_files();
    if (config_.resume) {
      resume();
    } else {
      start_fresh();
    }
  });
  share_vocabularies();
  group_.together([&] {
    data::CorpusOptions options;  // the corpus is read before a new model is built: its errors come first
    options.max_length = config_.max_length;
    options.long_pairs = config_.long_pairs;
    options.allow_unknown = config_.source_vocabulary.empty() || config_.allow_unknown ||
                            config_.source_vocabulary_size > 0 || config_.target_vocabulary_size > 0;
    options.alignment_path = config_.guided_alignment;
    corpus_ = data::read_parallel_corpus(config_.train_source, config_.train_target, source_vocabulary_,
                                         target_vocabulary_, options);
    if (group_.is_root() && !model_) {
      create_model();
      source_profile_ = data::profile_of_file(config_.train_source);
    }
    if (config_.has_validation()) {
      validator_ = std::make_unique<Validator>(config_.valid_source, config_.valid_target, source_vocabulary_,
                                               target_vocabulary_, config_.max_length);
    }
  });
  group_.together([&] {
    if (group_.is_root()) check_alignment_head();
  });
  check_same_corpus();
  share_training();
  start_smoothing();
  workers_ = std::make_unique<DataParallel>(*model_, config_.threads, group_);
  log_setup();
}

namespace {

template <class T>
std::string to_bytes(const T& value) {
  std::ostringstream out;
  {
    boost::archive::binary_oarchive archive(out);
    archive << value;
  }
  return out.str();
}

template <class T>
void from_bytes(const std::string& bytes, T& value) {
  std::istringstream in(bytes);
  boost::archive::binary_iarchive archive(in);
  archive >> value;
}

// What rank 0 sends the other processes besides the parameter and optimizer values.
struct SharedTraining {
  model::ModelOptions model;
  TrainingState state;
  long last_saved_update = -1;
  long optimizer_steps = 0;
  std::vector<std::int64_t> optimizer_shapes;  // rows, cols per state matrix

  template <class Archive>
  void serialize(Archive& archive, unsigned /*version*/) {
    archive & model & state & last_saved_update & optimizer_steps & optimizer_shapes;
  }
};

}  // namespace

void Trainer::share_vocabularies() {
  if (group_.size() == 1) return;
  std::string bytes;
  if (group_.is_root()) bytes = to_bytes(std::make_pair(source_vocabulary_.tokens(), target_vocabulary_.tokens()));
  group_.broadcast(bytes);
  if (group_.is_root()) return;
  std::pair<std::vector<std::string>, std::vector<std::string>> tokens;
  from_bytes(bytes, tokens);
  source_vocabulary_ = data::Vocabulary(tokens.first);
  target_vocabulary_ = data::Vocabulary(tokens.second);
}

// Every process must see the same pairs, or their global batches would differ.
void Trainer::check_same_corpus() const {
  if (group_.size() == 1) return;
  std::uint64_t hash = corpus_.size();
  for (const auto* side : {&corpus_.source, &corpus_.target}) {
    for (const auto& sentence : *side) {
      hash = hash * 0x100000001B3ull ^ util::hash_bytes(std::string_view(reinterpret_cast<const char*>(sentence.data()),
                                                                         sentence.size() * sizeof(std::int32_t)));
    }
  }
  const std::string mine = std::to_string(corpus_.size()) + " pairs, fingerprint " + std::to_string(hash);
  const std::vector<std::string> all = group_.all_gather(mine);
  for (std::size_t k = 1; k < all.size(); ++k) {
    if (all[k] != all[0]) {
      throw GroupFailure(config_.train_source, "rank " + std::to_string(k) + " read other training pairs (" + all[k] +
                                                   ") than rank 0 (" + all[0] +
                                                   "): every process needs the same files at the same paths");
    }
  }
}

// Rank 0's model (config and values), optimizer state and trainer state on every process.
void Trainer::share_training() {
  if (group_.size() == 1) return;
  SharedTraining header;
  std::string bytes;
  if (group_.is_root()) {
    header.model = model_->config();
    header.state = state_;
    header.last_saved_update = last_saved_update_;
    header.optimizer_steps = optimizer_->steps();
    for (const math::Matrix* m : optimizer_->state()) {
      header.optimizer_shapes.push_back(m->rows());
      header.optimizer_shapes.push_back(m->cols());
    }
    bytes = to_bytes(header);
  }
  group_.broadcast(bytes);
  if (!group_.is_root()) {
    from_bytes(bytes, header);
    model_ = std::make_unique<model::RnnSearch>(header.model);
    state_ = header.state;
    last_saved_update_ = header.last_saved_update;
    optimizer_ = make_optimizer(config_.optimizer);
    optimizer_->set_steps(header.optimizer_steps);
    if (!header.optimizer_shapes.empty()) optimizer_->allocate_state(model_->parameters());
  }
  for (nn::Parameter* parameter : model_->parameters().all()) {
    group_.broadcast(parameter->value.data(), static_cast<std::size_t>(parameter->value.size()));
  }
  const auto matrices = optimizer_->state();
  group_.together([&] {
    if (matrices.size() * 2 != header.optimizer_shapes.size()) {
      throw util::Error("optimizer state of " + std::to_string(matrices.size()) + " matrices, rank 0 has " +
                        std::to_string(header.optimizer_shapes.size() / 2));
    }
    for (std::size_t i = 0; i < matrices.size(); ++i) {
      if (matrices[i]->rows() != header.optimizer_shapes[2 * i] || matrices[i]->cols() != header.optimizer_shapes[2 * i + 1]) {
        throw util::Error("optimizer state matrix " + std::to_string(i) + " differs in shape from rank 0's");
      }
    }
  });
  for (math::Matrix* m : matrices) group_.broadcast(m->data(), static_cast<std::size_t>(m->size()));
}

// A run killed outright (SIGKILL, a crash) leaves the temporary file of the save it was
// writing, 48 MB for a checkpoint of the Multi30k model, and nothing else would ever
// remove it. Only files named as util::AtomicFileWriter names them, of dead processes.
void Trainer::remove_stale_temp_files() {
  std::vector<std::string> removed;
  for (const std::string& output : config_.output_files()) {
    for (std::string& file : util::remove_stale_temp_files(output)) removed.push_back(std::move(file));
  }
  for (std::string& file : util::remove_stale_numbered_temp_files(config_.kept_model_path_stem())) {
    removed.push_back(std::move(file));
  }
  for (const std::string& file : removed) {
    progress_.message("removed " + file + ", the temporary file of a run that was killed");
  }
}

// A name the file system cannot take would otherwise fail only at the first save after
// the work, with no checkpoint to resume from. A kept model's name is checked with as
// many digits as --max-updates has (a billion updates without a limit).
void Trainer::check_output_names() const {
  for (const std::string& output : config_.output_files()) util::check_file_name_fits(output);
  if (config_.keep_checkpoints > 0) {
    util::check_file_name_fits(config_.kept_model_path(config_.max_updates > 0 ? config_.max_updates : 999999999L));
  }
}

void Trainer::start_fresh() {
  for (const std::string& path : config_.output_files()) {
    if (!config_.overwrite && file_exists(path)) {
      throw util::Error(path, "exists: continue that training with --resume, or pass --overwrite to start over");
    }
  }
  for (const std::string& path : find_kept_models(config_.model_path)) {  // an earlier run's --keep-checkpoints
    if (!config_.overwrite) {
      throw util::Error(path, "exists: continue that training with --resume, or pass --overwrite to start over");
    }
    std::remove(path.c_str());
  }
  if (!config_.pretrained_model.empty()) {
    start_from_pretrained();
    return;
  }
  if (config_.source_vocabulary.empty()) {
    source_vocabulary_ = data::Vocabulary::from_text_files({config_.train_source}, config_.source_vocabulary_size);
    target_vocabulary_ = data::Vocabulary::from_text_files({config_.train_target}, config_.target_vocabulary_size);
  } else {
    source_vocabulary_ = data::Vocabulary::from_vocab_file(config_.source_vocabulary, config_.source_vocabulary_size);
    target_vocabulary_ = data::Vocabulary::from_vocab_file(config_.target_vocabulary, config_.target_vocabulary_size);
  }
}

void Trainer::start_from_pretrained() {
  const std::string& path = config_.pretrained_model;
  model::LoadedModel pretrained = model::read_model_file(path);
  if (!config_.source_vocabulary.empty()) {
    const auto source = data::Vocabulary::from_vocab_file(config_.source_vocabulary, config_.source_vocabulary_size);
    const auto target = data::Vocabulary::from_vocab_file(config_.target_vocabulary, config_.target_vocabulary_size);
    if (!(source == pretrained.source_vocabulary) || !(target == pretrained.target_vocabulary)) {
      throw util::Error(path, "has other vocabularies than --vocabs " + config_.source_vocabulary + " " +
                                  config_.target_vocabulary + "; fine-tuning keeps the pretrained model's");
    }
  }
  source_vocabulary_ = std::move(pretrained.source_vocabulary);
  target_vocabulary_ = std::move(pretrained.target_vocabulary);
  model_ = std::move(pretrained.model);
  source_profile_ = std::move(pretrained.source_profile);
  const int head = config_.model.alignment_head;
  if (head > 0 && !model_->has_alignment_head()) {
    // The same model with a new, randomly initialized alignment head.
    model::ModelOptions with_head = model_->config();
    with_head.alignment_head = head;
    auto fresh = std::make_unique<model::RnnSearch>(with_head);
    util::Rng rng(config_.seed);
    fresh->initialize(config_.init, rng);
    fresh->copy_matching_parameters_from(*model_);
    model_ = std::move(fresh);
  }
  std::remove(config_.best_model_path().c_str());
  optimizer_ = make_optimizer(config_.optimizer);
}

// --alignment-head N trains the head of a model that has one of that size, and nothing
// else; a model with a head is only ever trained that way.
void Trainer::check_alignment_head() const {
  const int wanted = config_.model.alignment_head, has = model_->config().alignment_head;
  const std::string& path = config_.resume ? config_.checkpoint_path() : config_.pretrained_model;
  if (wanted != has) {
    throw util::Error(path, has > 0 ? "has an alignment head of " + std::to_string(has) +
                                          ": train it further with --alignment-head " + std::to_string(has)
                                    : "has no alignment head, --alignment-head " + std::to_string(wanted) +
                                          " asks to train one; start from the model with --pretrained-model");
  }
}

void Trainer::create_model() {
  // An old run's best model must not pass for this run's (--overwrite got here).
  std::remove(config_.best_model_path().c_str());
  model::ModelOptions model_config = config_.model;
  model_config.source_vocabulary = static_cast<int>(source_vocabulary_.size());
  model_config.target_vocabulary = static_cast<int>(target_vocabulary_.size());
  model_ = std::make_unique<model::RnnSearch>(model_config);
  util::Rng rng(config_.seed);
  model_->initialize(config_.init, rng);
  optimizer_ = make_optimizer(config_.optimizer);
}

void Trainer::resume() {
  const std::string path = config_.checkpoint_path();
  if (!file_exists(path)) throw util::Error(path, "no checkpoint to resume from");
  LoadedCheckpoint checkpoint = read_checkpoint(path);
  model_ = std::move(checkpoint.model.model);
  source_vocabulary_ = std::move(checkpoint.model.source_vocabulary);
  target_vocabulary_ = std::move(checkpoint.model.target_vocabulary);
  source_profile_ = std::move(checkpoint.model.source_profile);
  state_ = checkpoint.state;
  last_saved_update_ = state_.update;
  if (!checkpoint.model.training_options.empty()) {  // none before model format version 4
    std::string changed;
    stored_options_ =
        resumed_stored_options(checkpoint.model.training_options, config_.stored_options, state_.update, changed);
    if (!changed.empty()) progress_.message("resumed with " + changed);
  }
  optimizer_ = make_optimizer(config_.optimizer);
  restore_optimizer(checkpoint, *optimizer_, model_->parameters(), path);
  restore_smoothing(checkpoint, path);
  if (state_.precision != math::precision_name(config_.precision)) {  // the run would not be the uninterrupted one
    throw util::Error(path, "was trained with --precision " + state_.precision + ", resumed with --precision " +
                                math::precision_name(config_.precision) + ": resume with the same precision");
  }
}

namespace {

std::string smoothing_phrase(float decay) {
  return decay > 0.0f ? "with --exponential-smoothing " + util::general(decay) : "without --exponential-smoothing";
}

}  // namespace

// The run would not be the uninterrupted one with another decay (--pretrained-model
// starts a new run from the model instead).
void Trainer::restore_smoothing(LoadedCheckpoint& checkpoint, const std::string& path) {
  if (checkpoint.smoothing_decay != config_.exponential_smoothing) {
    throw util::Error(path, "was trained " + smoothing_phrase(checkpoint.smoothing_decay) + ", resumed " +
                                smoothing_phrase(config_.exponential_smoothing) + ": resume with the same");
  }
  if (config_.exponential_smoothing <= 0.0f) return;
  smoothing_ = std::make_unique<nn::ExponentialSmoothing>(config_.exponential_smoothing);
  try {
    smoothing_->restore(model_->parameters(), std::move(checkpoint.smoothed));
  } catch (const util::Error& e) {
    throw util::Error(path, std::string("damaged checkpoint: ") + e.what());
  }
}

// A fresh run's smoothed copy starts as the first parameters; every process takes rank 0's.
void Trainer::start_smoothing() {
  if (config_.exponential_smoothing <= 0.0f) return;
  if (!smoothing_) {
    smoothing_ = std::make_unique<nn::ExponentialSmoothing>(config_.exponential_smoothing);
    smoothing_->reset(model_->parameters());
  }
  if (group_.size() == 1) return;
  for (math::Matrix& m : smoothing_->values()) group_.broadcast(m.data(), static_cast<std::size_t>(m.size()));
}

// Exchanges the parameters with their smoothed copy in the master (and gives the replicas
// the master's values, for a validation), if there is one: once before validating or
// writing a model, once after.
void Trainer::swap_smoothed(bool replicas) {
  if (!smoothing_) return;
  smoothing_->swap_with(model_->parameters());
  if (replicas) workers_->copy_master_to_replicas();
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
    const std::string weight = util::general(static_cast<double>(config_.guided_alignment_weight));
    progress_.message("guided alignment: " + std::to_string(corpus_.alignment_word_links) + " links on " +
                      std::to_string(linked_pairs) + " pairs from " + config_.guided_alignment + " (weight " +
                      weight + ")");
  }
  progress_.message("model: " + model_->config().summary() + ", " +
                    std::to_string(model_->parameters().scalar_count()) + " parameters; " +
                    std::to_string(config_.threads) + " thread(s)" +
                    (config_.precision == math::Precision::kBf16 ? ", bf16 products" : "") +
                    (group_.size() > 1 ? " in each of " + std::to_string(group_.size()) + " processes" : ""));
  if (group_.size() > 1) {
    const std::vector<std::string> processes = group_.all_gather(group_.describe());
    std::string line = "processes (MPI): each update's batch is cut into " + std::to_string(workers_->workers()) +
                       " parts and the gradients summed over all; ";
    for (std::size_t k = 0; k < processes.size(); ++k) line += (k ? ", " : "") + processes[k];
    progress_.message(line);
  }
  if (smoothing_) {
    progress_.message("exponential smoothing of the parameters, decay " + util::general(smoothing_->decay()) +
                      ": validation and the model files use the smoothed copy");
  }
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
  options.alignment_head_only = config_.model.alignment_head > 0;
  options.precision = config_.precision;
  const DataParallel::Gradients gradients = workers_->gradients(corpus_, batch, options, config_.seed, state_.update);
  const nn::CrossEntropySum& sum = gradients.loss;
  const double norm = gradients.norm;
  if (!std::isfinite(sum.loss) || !std::isfinite(norm)) {  // sums over all processes: all of them stop here

    const std::string kept = last_saved_update_ < 0
                                 ? "nothing was saved"
                                 : "the files saved at update " + std::to_string(last_saved_update_) + " are kept";
    throw GroupFailure("update " + std::to_string(state_.update + 1) + ": the " +
                      (std::isfinite(sum.loss) ? std::string("gradient") : std::string("loss")) +
                      " is not finite; " + kept + " (try a lower --learning-rate" +
                      (config_.clip_norm > 0 ? std::string(" or --clip-norm") : std::string(", or --clip-norm 1")) + ")");
  }
  if (smoothing_) smoothing_->begin_step(state_.update);
  workers_->apply_update(*optimizer_, learning_rate(), norm, config_.clip_norm, smoothing_.get());
  ++state_.update;
  ++state_.batch_in_epoch;
  state_.target_tokens += static_cast<double>(sum.tokens);
  window_loss_ += sum.loss;
  window_tokens_ += static_cast<double>(sum.tokens);
  window_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ++window_updates_;
  last_gradient_norm_ = norm;
}

namespace {

std::string validation_figures(const ValidationResult& result) {
  return "cross-entropy " + util::fixed(result.cross_entropy, 4) + " (perplexity " +
         util::fixed(std::exp(result.cross_entropy), 2) + "), greedy BLEU " + util::fixed(result.bleu, 2);
}

}  // namespace

// The validation set's figures for the parameters (their smoothed copy, when there is one).
ValidationResult Trainer::run_validator(double& seconds) {
  const auto start = std::chrono::steady_clock::now();
  swap_smoothed(true);
  ValidationResult result = validator_->run(*workers_, kValidationBatch);
  swap_smoothed(true);
  seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

// Higher is better: BLEU, or minus the cross-entropy (perplexity ranks models alike).
double Trainer::score_of(const ValidationRecord& record) const {
  return config_.early_stopping_metric == EarlyStoppingMetric::kBleu ? record.bleu : -record.cross_entropy;
}

void Trainer::validate() {
  double seconds = 0.0;
  const ValidationResult result = run_validator(seconds);
  ValidationRecord record{state_.update, result.cross_entropy, result.bleu};
  state_.validations.push_back(record);
  const double score = score_of(record);
  const bool improved = score > state_.best_score;  // every process holds the same result
  if (improved) {
    state_.best_score = score;
    state_.best_update = state_.update;
    state_.stalled = 0;
    state_.stalled_since_decay = 0;
    if (group_.is_root()) {
      swap_smoothed(false);  // the file holds what was validated
      model::write_model_file(config_.best_model_path(), model::FileKind::kModel, *model_, source_vocabulary_,
                              target_vocabulary_, stored_options_, source_profile_);
      swap_smoothed(false);
    }
  } else {
    ++state_.stalled;
    ++state_.stalled_since_decay;
  }
  std::string line = "validation at update " + std::to_string(state_.update) + " (" +
                     util::fixed(state_.elapsed_seconds / 60.0, 1) + " min, took " + util::fixed(seconds, 1) +
                     " s): " + validation_figures(result);
  line += improved ? " (new best)" : " (stalled " + std::to_string(state_.stalled) + "/" +
                                         std::to_string(config_.patience) + ", best at update " +
                                         std::to_string(state_.best_update) + ")";
  if (!improved && config_.decay_patience > 0 && state_.stalled_since_decay >= config_.decay_patience) {
    state_.learning_rate_scale *= config_.decay_factor;
    state_.stalled_since_decay = 0;
    line += "; learning rate now " + util::fixed(config_.resolved_learning_rate() * state_.learning_rate_scale, 6);
  }
  progress_.message(line);
  if (!config_.valid_translation_output.empty() && group_.is_root()) {
    // This validation's translations, and those of the best model so far beside them.
    for (const std::string& path : {config_.valid_translation_output, config_.valid_translation_output + ".best"}) {
      if (!improved && path != config_.valid_translation_output) continue;
      util::AtomicFileWriter writer(path);
      for (const auto& translation : result.translations) writer.write_line(translation);
      writer.commit();
    }
  }
}

// The signal that asked any process to stop (so all stop after the same update, and
// report the same signal: the lowest rank's), 0 when none did; and every process takes
// rank 0's clock, so --max-minutes ends them after the same update too.
int Trainer::stop_agreed() {
  const int mine = stop_signal.load();
  if (group_.size() == 1) return mine;
  double values[2] = {mine != 0 ? 1.0 : 0.0, group_.is_root() ? state_.elapsed_seconds : 0.0};
  group_.sum(values, 2);
  state_.elapsed_seconds = values[1];
  if (values[0] == 0.0) return 0;
  for (const std::string& signal : group_.all_gather(std::to_string(mine))) {
    if (signal != "0") return std::stoi(signal);
  }
  return 0;
}

// The all-reduce gives every process the same sums, so their parameters stay equal; a
// launcher mixing builds or machines that round differently would break that silently.
void Trainer::check_same_parameters() const {
  if (group_.size() == 1) return;
  std::uint64_t hash = 0;
  for (const nn::Parameter* parameter : model_->parameters().all()) {
    hash = hash * 0x100000001B3ull ^ util::hash_bytes(std::string_view(reinterpret_cast<const char*>(parameter->value.data()),
                                                                       static_cast<std::size_t>(parameter->value.size()) * sizeof(float)));
  }
  std::string root_hash = std::to_string(hash);
  group_.broadcast(root_hash);
  double differ = root_hash == std::to_string(hash) ? 0.0 : 1.0;
  group_.sum(&differ, 1);
  if (differ > 0.0) {
    throw GroupFailure("update " + std::to_string(state_.update) + ": the parameters of " +
                       std::to_string(static_cast<int>(differ)) + " process(es) differ from rank 0's; nothing saved "
                       "(are all processes running the same build on machines that compute alike?)");
  }
}

// `keep`: a save on the --save-freq grid or at the end of a run, whose model
// --keep-checkpoints keeps (not one a signal asked for off the grid, which an
// uninterrupted run would not have made).
void Trainer::save(bool keep) {
  check_same_parameters();
  last_saved_update_ = state_.update;
  keep = keep && config_.keep_checkpoints > 0 &&
         (state_.kept_updates.empty() || state_.kept_updates.back() != state_.update);
  const std::vector<long> dropped =
      keep ? keep_last(state_.kept_updates, state_.update, config_.keep_checkpoints) : std::vector<long>{};
  if (!group_.is_root()) return;
  state_.precision = math::precision_name(config_.precision);
  write_models(keep);
  write_checkpoint(config_.checkpoint_path(), *model_, source_vocabulary_, target_vocabulary_, state_, *optimizer_,
                   stored_options_, source_profile_, smoothing_.get());
  for (const long update : dropped) std::remove(config_.kept_model_path(update).c_str());
}

// MODEL, and with `keep` MODEL.updateU, with the smoothed parameters when there are.
void Trainer::write_models(bool keep) {
  swap_smoothed(false);
  model::write_model_file(config_.model_path, model::FileKind::kModel, *model_, source_vocabulary_, target_vocabulary_,
                          stored_options_, source_profile_);
  if (keep) {
    model::write_model_file(config_.kept_model_path(state_.update), model::FileKind::kModel, *model_,
                            source_vocabulary_, target_vocabulary_, stored_options_, source_profile_);
  }
  swap_smoothed(false);
}

// Time to the first of --max-updates, --max-epochs and --max-minutes, at this run's pace so
// far (validations and checkpoints included); -1 when none is set.
double Trainer::run_seconds_left(std::size_t batches_in_epoch) const {
  RunPosition position;
  position.update = state_.update;
  position.epoch = state_.epoch;
  position.batch_in_epoch = state_.batch_in_epoch;
  position.batches_in_epoch = batches_in_epoch;
  position.elapsed_seconds = state_.elapsed_seconds;
  position.seconds_per_update = (state_.elapsed_seconds - elapsed_at_start_) /
                                static_cast<double>(std::max(1L, state_.update - updates_at_start_));
  return seconds_to_run_end(RunLimits{config_.max_updates, config_.max_epochs, config_.max_minutes}, position);
}

std::string Trainer::limit_reached() const {
  if (config_.max_updates > 0 && state_.update >= config_.max_updates) {
    return "--max-updates " + std::to_string(config_.max_updates);
  }
  if (config_.max_epochs > 0 && state_.epoch >= config_.max_epochs) return "--max-epochs " + std::to_string(config_.max_epochs);
  if (config_.max_minutes > 0 && state_.elapsed_seconds >= config_.max_minutes * 60.0) {
    return "--max-minutes " + util::fixed(config_.max_minutes, 1);
  }
  if (validator_ && config_.patience > 0 && state_.stalled >= config_.patience) {
    return "early stopping: " + std::to_string(config_.patience) + " validations without improvement";
  }
  return "";
}

// What the last parameters score on valid: the grid's figure when the last update was
// validated, else a validation of its own. That one changes no training state, and the
// checkpoint is written before it, so a resumed or extended run is still the
// uninterrupted one.
double Trainer::last_score() {
  if (!state_.validations.empty() && state_.validations.back().update == state_.update) {
    return score_of(state_.validations.back());
  }
  double seconds = 0.0;
  const ValidationResult result = run_validator(seconds);
  progress_.message("final validation at update " + std::to_string(state_.update) + " (took " +
                    util::fixed(seconds, 1) + " s): " + validation_figures(result));
  return score_of(ValidationRecord{state_.update, result.cross_entropy, result.bleu});
}

// MODEL holds the last parameters (save() wrote them); with --final-model best it becomes
// the best validated model unless the last scores higher on valid. The line
// names the update MODEL holds and why.
void Trainer::finish_model_file() {
  const long last = state_.update;
  long chosen = last;
  std::string why = "the last update; no validation set";
  if (validator_) {
    const double score = last_score();
    const std::string best = "the best validated, update " + std::to_string(state_.best_update);
    if (config_.final_model == FinalModel::kLast) {
      why = "the last update; --final-model last";
    } else if (state_.validations.empty() || state_.best_update == last) {
      why = state_.validations.empty() ? "the last update, validated only at the end" : "the last update, the best validated";
    } else if (score > state_.best_score) {
      why = "the last update; better on valid than " + best;
    } else {  // a tie is no improvement, as for early stopping
      chosen = state_.best_update;
      why = "the best validated; the last update, " + std::to_string(last) + ", is " +
            (score == state_.best_score ? "no better" : "worse") + " on valid";
      if (group_.is_root()) {
        const model::LoadedModel model = model::read_model_file(config_.best_model_path());
        model::write_model_file(config_.model_path, model::FileKind::kModel, *model.model, model.source_vocabulary,
                                model.target_vocabulary, model.training_options, model.source_profile);
      }
    }
  }
  progress_.message("final model: update " + std::to_string(chosen) + " (" + why + ")");
}

TrainOutcome Trainer::run() {
  run_start_ = std::chrono::steady_clock::now();
  set_up();
  elapsed_at_start_ = state_.elapsed_seconds;
  updates_at_start_ = state_.update;
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
      figures.run_seconds_left = run_seconds_left(batches.size());
      progress_.report(figures);
      window_loss_ = window_tokens_ = window_seconds_ = 0.0;
      window_updates_ = 0;
    }
    if (validator_ && state_.update % config_.valid_freq == 0) validate();
    if (const int signal = stop_agreed()) {
      save(state_.update % config_.save_freq == 0);
      progress_.message("stopped by a signal after update " + std::to_string(state_.update) + "; " +
                        config_.checkpoint_path() + " written, continue with --resume");
      finish_model_file();
      outcome.interrupted = true;
      outcome.signal = signal;
      stop_signal.store(0);
      outcome.state = state_;
      return outcome;
    }
    if (state_.update % config_.save_freq == 0) save(true);
  }
  save(true);
  progress_.message("training ended at update " + std::to_string(state_.update) + " (" + outcome.reason + ") after " +
                    util::fixed(state_.elapsed_seconds / 60.0, 1) + " minutes, " + util::fixed(state_.target_tokens, 0) +
                    " target tokens seen" +
                    (validator_ ? "; best validation at update " + std::to_string(state_.best_update) : ""));
  finish_model_file();
  progress_.finish();
  outcome.state = state_;
  return outcome;
}

}  // namespace

void request_stop(int signal) { stop_signal.store(signal); }

TrainOutcome run_training(const TrainOptions& config) {
  const ProcessGroup alone;
  return run_training(config, alone);
}

TrainOutcome run_training(const TrainOptions& config, const ProcessGroup& group) {
  config.validate();
  Trainer trainer(config, group);
  return trainer.run();
}

}  // namespace rnnsearch::train
