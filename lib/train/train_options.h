#pragma once
// Everything nmt-train is told: the tool binds its options to these fields (through
// train/train_arguments.h, which holds the file pairs and the enumerations' names as the
// command line gives them), whose member initializers are the defaults.
#include <cstdint>
#include <string>
#include <vector>

#include "data/batch.h"
#include "data/parallel_corpus.h"
#include "math/product_precision.h"
#include "model/model_options.h"
#include "model/rnnsearch.h"

namespace rnnsearch::train {

// The enumerations among the options, each with its names on the command line (the
// first is the default). parse_X throws util::UsageError naming the option and the names
// it takes: "--optimizer must be one of adam, adadelta, got 'sgd'". Nothing stores them:
// a checkpoint holds the optimizer's own name (nn::Optimizer::name).
enum class OptimizerKind { kAdam, kAdadelta };                         // --optimizer adam, adadelta
enum class EarlyStoppingMetric { kBleu, kCrossEntropy, kPerplexity };  // --early-stopping-metric bleu, ...
enum class FinalModel { kBest, kLast };                                // --final-model best, last

const char* optimizer_name(OptimizerKind kind);
OptimizerKind parse_optimizer(const std::string& name);
const char* early_stopping_metric_name(EarlyStoppingMetric metric);
EarlyStoppingMetric parse_early_stopping_metric(const std::string& name);
const char* final_model_name(FinalModel model);
FinalModel parse_final_model(const std::string& name);
// --init xavier, paper.
const char* initialization_name(model::Initialization init);
model::Initialization parse_initialization(const std::string& name);

struct TrainOptions {
  // Files.
  std::string train_source, train_target;
  std::string valid_source, valid_target;  // optional; both or neither
  std::string source_vocabulary, target_vocabulary;  // nmt-vocab files; built from the data when empty
  std::string model_path = "model.bin";    // the checkpoint is model_path + ".ckpt"
  std::string valid_translation_output;    // greedy translations of the last validation, BPE undone
  bool resume = false;
  bool overwrite = false;                  // start afresh even when model_path or its checkpoint exists
  // Start from this model's parameters and vocabularies instead of a random model (fine
  // tuning, e.g. with guided alignment); the optimizer and the counters start afresh.
  std::string pretrained_model;

  // Vocabulary and data.
  std::size_t source_vocabulary_size = 0;  // 0 = every token (specials included in the count)
  std::size_t target_vocabulary_size = 0;
  bool allow_unknown = false;              // tokens missing from given vocabulary files become <unk>
  std::size_t max_length = 50;             // tokens per side
  data::LongPairs long_pairs = data::LongPairs::kSkip;
  data::BatchingOptions batching;

  // Model and initialization.
  model::ModelOptions model;
  model::Initialization init = model::Initialization::kXavier;
  std::uint64_t seed = 1234;

  // Optimization.
  OptimizerKind optimizer = OptimizerKind::kAdam;
  float learning_rate = 0.0f;              // 0 = the optimizer's default (adam 1e-3, adadelta 1)
  int warmup = 0;                          // updates of linear warm-up
  float decay_factor = 0.5f;               // learning rate *= factor after decay_patience stalled validations
  int decay_patience = 2;                  // 0 = never decay
  float clip_norm = 1.0f;                  // 0 = no clipping
  float dropout = 0.2f;
  float label_smoothing = 0.0f;
  // Guided alignment: Pharaoh word links per training pair (CorpusOptions::alignment_path),
  // a cross-entropy between the attention and them added to the objective with this
  // weight (per target token, as the translation cross-entropy). "" = none.
  std::string guided_alignment;
  float guided_alignment_weight = 0.1f;    // Marian's default
  // Exponential smoothing of the parameters (nn/exponential_smoothing.h), 0 = none: the
  // smoothed copy is what validation translates and MODEL, MODEL.best and the kept models
  // hold; the checkpoint keeps both. Marian's --exponential-smoothing, 1e-4 when given
  // without a value.
  float exponential_smoothing = 0.0f;

  // Schedule.
  long max_epochs = 0;                     // 0 = no limit (a limit or early stopping must end training)
  long max_updates = 0;
  double max_minutes = 0.0;
  long valid_freq = 500;                   // updates between validations
  long save_freq = 1000;                   // updates between checkpoints
  long log_freq = 100;                     // updates between log lines (when stderr is not a terminal)
  EarlyStoppingMetric early_stopping_metric = EarlyStoppingMetric::kBleu;  // cross-entropy and perplexity rank alike
  int patience = 10;                       // stalled validations before stopping (0 = never)
  FinalModel final_model = FinalModel::kBest;  // what model_path holds at the end
  // Keep the models of the last N saves (every save_freq updates and at the end, not those
  // of a signal) as kept_model_path(update), for nmt-average; 0 = none.
  int keep_checkpoints = 0;

  int threads = 1;
  // fp32, or bf16 products with fp32 sums and fp32 parameters (math/product_precision.h):
  // refused by validate() where the CPU has no bf16; a checkpoint keeps it.
  math::Precision precision = math::Precision::kFp32;
  bool quiet = false;
  // The options as config lines (util/config_file.h), stored in MODEL, MODEL.best and
  // MODEL.ckpt for `nmt-train --dump-config -m MODEL`; "" stores none.
  std::string stored_options;

  // Throws util::UsageError naming the option, its range and the value received, and
  // when an output file (MODEL, MODEL.ckpt, MODEL.best, --valid-translation-output and
  // its .best) is an input file or another option's output (util::same_file).
  void validate() const;
  float resolved_learning_rate() const;
  bool has_validation() const { return !valid_source.empty(); }
  std::string checkpoint_path() const { return model_path + ".ckpt"; }
  std::string best_model_path() const { return model_path + ".best"; }
  // MODEL.updateN: the model saved after update N (--keep-checkpoints).
  std::string kept_model_path(long update) const;
  std::string kept_model_path_stem() const;  // MODEL.update
  // Every file a run writes: MODEL.ckpt, MODEL, MODEL.best, and --valid-translation-output
  // with its .best when given.
  std::vector<std::string> output_files() const;
};

}  // namespace rnnsearch::train
