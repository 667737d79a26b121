#include "train/train_options.h"

#include <cmath>
#include <initializer_list>
#include <limits>
#include <vector>

#include "util/error.h"
#include "util/option_range.h"
#include "util/same_file.h"

namespace rnnsearch::train {

namespace {

[[noreturn]] void bad(const std::string& option, const std::string& expected, const std::string& got) {
  throw util::UsageError("--" + option + " must be " + expected + ", got " + got);
}

// The value of `values` whose name is `name`, else UsageError "--OPTION must be one of A, B, got 'NAME'".
template <class Enum>
Enum parse_name(const std::string& option, const std::string& name, std::initializer_list<Enum> values,
                const char* (*name_of)(Enum)) {
  std::string list;
  for (const Enum value : values) {
    if (name == name_of(value)) return value;
    list += list.empty() ? name_of(value) : std::string(", ") + name_of(value);
  }
  bad(option, "one of " + list, "'" + name + "'");
}

// A file nmt-train reads or writes, and the option that names it.
struct NamedFile {
  std::string option;  // "--train-sets"
  std::string given;   // the option's value
  std::string path;    // the file: `given`, or one derived from it (MODEL.ckpt)
};

std::string describe(const NamedFile& file) {
  return "--" + file.option + " " + file.given + (file.path == file.given ? "" : " (" + file.path + ")");
}

// An output that is an input (or another output) would destroy what it names: a model
// written over the training corpus, a validation's translations over the training data.
// Refused whatever --overwrite says, before anything is read or written.
void check_files_differ(const TrainOptions& c) {
  std::vector<NamedFile> inputs;
  for (const auto& [option, path] : std::vector<std::pair<std::string, std::string>>{
           {"train-sets", c.train_source}, {"train-sets", c.train_target}, {"valid-sets", c.valid_source},
           {"valid-sets", c.valid_target}, {"vocabs", c.source_vocabulary}, {"vocabs", c.target_vocabulary},
           {"guided-alignment", c.guided_alignment}, {"pretrained-model", c.pretrained_model}}) {
    if (!path.empty()) inputs.push_back({option, path, path});
  }
  std::vector<NamedFile> outputs = {{"model", c.model_path, c.model_path},
                                    {"model", c.model_path, c.checkpoint_path()},
                                    {"model", c.model_path, c.best_model_path()}};
  if (!c.valid_translation_output.empty()) {
    outputs.push_back({"valid-translation-output", c.valid_translation_output, c.valid_translation_output});
    outputs.push_back({"valid-translation-output", c.valid_translation_output, c.valid_translation_output + ".best"});
  }
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    for (const NamedFile& input : inputs) {
      if (util::same_file(outputs[i].path, input.path)) {
        throw util::UsageError(describe(outputs[i]) + " is the " + describe(input) +
                               " file: nmt-train would write over its input; choose another file");
      }
    }
    for (std::size_t k = 0; k < i; ++k) {
      if (outputs[k].option != outputs[i].option && util::same_file(outputs[i].path, outputs[k].path)) {
        throw util::UsageError(describe(outputs[i]) + " is the " + describe(outputs[k]) +
                               " file: two outputs cannot share a file; choose another");
      }
    }
  }
}

// Every numeric option within its bounds (and floats finite), before the rules that
// relate options. The bounds keep a typo from allocating gigabytes or looping for days.
void check_ranges(const TrainOptions& c) {
  using util::check_range;
  if (c.source_vocabulary_size > 0) check_range<std::size_t>("src-vocab-size", c.source_vocabulary_size, 5, model::kMaxVocabulary);
  if (c.target_vocabulary_size > 0) check_range<std::size_t>("tgt-vocab-size", c.target_vocabulary_size, 5, model::kMaxVocabulary);
  check_range<std::size_t>("max-length", c.max_length, 1, data::kMaxSentenceTokens);
  // The model's sizes now, before the corpus is read (its vocabulary sizes come later).
  check_range("dim-emb", c.model.embedding, 1, model::kMaxDimension);
  check_range("dim-enc", c.model.encoder_hidden, 1, model::kMaxDimension);
  check_range("dim-dec", c.model.decoder_hidden, 1, model::kMaxDimension);
  check_range("dim-att", c.model.attention, 1, model::kMaxDimension);
  check_range("dim-maxout", c.model.maxout, 1, model::kMaxDimension);
  check_range("alignment-head", c.model.alignment_head, 0, model::kMaxDimension);
  check_range("enc-cell-depth", c.model.encoder_depth, 1, model::kMaxCellDepth);
  check_range("dec-cell-depth", c.model.decoder_depth, 1, model::kMaxCellDepth);
  check_range("mini-batch", c.batching.sentences, 0, 100000);
  check_range("mini-batch-words", c.batching.target_tokens, 0, 10000000);
  check_range("sort-window", c.batching.sort_window, 1, 100000);
  // Finite only: a huge rate is how the tests provoke a non-finite loss.
  check_range("learning-rate", c.learning_rate, 0.0f, std::numeric_limits<float>::max());
  check_range("warmup", c.warmup, 0, 1000000000);
  check_range("lr-decay", c.decay_factor, 0.0f, 1.0f);
  check_range("lr-decay-patience", c.decay_patience, 0, 1000000);
  check_range("clip-norm", c.clip_norm, 0.0f, 1e6f);
  check_range("dropout", c.dropout, 0.0f, 0.99f);
  check_range("label-smoothing", c.label_smoothing, 0.0f, 0.99f);
  check_range("guided-alignment-weight", c.guided_alignment_weight, 0.0f, 1000.0f);
  check_range("max-epochs", c.max_epochs, 0L, 1000000000L);
  check_range("max-updates", c.max_updates, 0L, 1000000000000L);
  check_range("max-minutes", c.max_minutes, 0.0, 1e8);
  check_range("valid-freq", c.valid_freq, 1L, 1000000000000L);
  check_range("save-freq", c.save_freq, 1L, 1000000000000L);
  check_range("log-freq", c.log_freq, 1L, 1000000000000L);
  check_range("early-stopping", c.patience, 0, 1000000);
  check_range("exponential-smoothing", c.exponential_smoothing, 0.0f, 1.0f);
  check_range("keep-checkpoints", c.keep_checkpoints, 0, 1000000);
  check_range("threads", c.threads, 1, 1024);
}

}  // namespace

const char* optimizer_name(OptimizerKind kind) { return kind == OptimizerKind::kAdadelta ? "adadelta" : "adam"; }

OptimizerKind parse_optimizer(const std::string& name) {
  return parse_name("optimizer", name, {OptimizerKind::kAdam, OptimizerKind::kAdadelta}, optimizer_name);
}

const char* early_stopping_metric_name(EarlyStoppingMetric metric) {
  switch (metric) {
    case EarlyStoppingMetric::kBleu: return "bleu";
    case EarlyStoppingMetric::kCrossEntropy: return "cross-entropy";
    case EarlyStoppingMetric::kPerplexity: return "perplexity";
  }
  return "unknown";
}

EarlyStoppingMetric parse_early_stopping_metric(const std::string& name) {
  return parse_name("early-stopping-metric", name,
                    {EarlyStoppingMetric::kBleu, EarlyStoppingMetric::kCrossEntropy, EarlyStoppingMetric::kPerplexity},
                    early_stopping_metric_name);
}

const char* final_model_name(FinalModel model) { return model == FinalModel::kLast ? "last" : "best"; }

FinalModel parse_final_model(const std::string& name) {
  return parse_name("final-model", name, {FinalModel::kBest, FinalModel::kLast}, final_model_name);
}

const char* initialization_name(model::Initialization init) {
  return init == model::Initialization::kPaper ? "paper" : "xavier";
}

model::Initialization parse_initialization(const std::string& name) {
  return parse_name("init", name, {model::Initialization::kXavier, model::Initialization::kPaper}, initialization_name);
}

void TrainOptions::validate() const {
  if (train_source.empty() || train_target.empty()) throw util::UsageError("--train-sets needs a source and a target file");
  if (valid_source.empty() != valid_target.empty()) throw util::UsageError("--valid-sets needs a source and a target file");
  if (source_vocabulary.empty() != target_vocabulary.empty()) {
    throw util::UsageError("--vocabs needs a source and a target vocabulary (or neither)");
  }
  if (model_path.empty()) throw util::UsageError("--model must name a file");
  if (source_vocabulary_size > 0 && source_vocabulary_size <= 4) {
    bad("src-vocab-size", "0 or more than the 4 special tokens", std::to_string(source_vocabulary_size));
  }
  if (target_vocabulary_size > 0 && target_vocabulary_size <= 4) {
    bad("tgt-vocab-size", "0 or more than the 4 special tokens", std::to_string(target_vocabulary_size));
  }
  check_ranges(*this);
  if (batching.sentences < 1 && batching.target_tokens < 1) bad("mini-batch", "at least 1", std::to_string(batching.sentences));
  if (batching.target_tokens < 0) bad("mini-batch-words", ">= 0", std::to_string(batching.target_tokens));
  if (batching.sort_window < 1) bad("sort-window", "at least 1", std::to_string(batching.sort_window));
  if (learning_rate < 0) bad("learning-rate", ">= 0", std::to_string(learning_rate));
  if (warmup < 0) bad("warmup", ">= 0", std::to_string(warmup));
  if (!(decay_factor > 0 && decay_factor <= 1)) bad("lr-decay", "in (0, 1]", std::to_string(decay_factor));
  if (decay_patience < 0) bad("lr-decay-patience", ">= 0", std::to_string(decay_patience));
  if (clip_norm < 0) bad("clip-norm", ">= 0", std::to_string(clip_norm));
  if (!(dropout >= 0 && dropout < 1)) bad("dropout", "in [0, 1)", std::to_string(dropout));
  if (!(label_smoothing >= 0 && label_smoothing < 1)) bad("label-smoothing", "in [0, 1)", std::to_string(label_smoothing));
  if (!guided_alignment.empty() && !(guided_alignment_weight > 0 && std::isfinite(guided_alignment_weight))) {
    bad("guided-alignment-weight", "> 0 with --guided-alignment", std::to_string(guided_alignment_weight));
  }
  if (!guided_alignment.empty() && model.attention_form == nn::AttentionForm::kNone) {
    throw util::UsageError("--guided-alignment needs attention weights to guide; --attention none has none");
  }
  if (model.alignment_head < 0) bad("alignment-head", ">= 0", std::to_string(model.alignment_head));
  if (model.alignment_head > 0) {
    if (pretrained_model.empty() && !resume) {
      throw util::UsageError("--alignment-head trains a head over a trained model: give it with --pretrained-model");
    }
    if (guided_alignment.empty()) {
      throw util::UsageError("--alignment-head learns from word links: give them with --guided-alignment");
    }
    if (has_validation()) {
      throw util::UsageError("--alignment-head trains no translation, there is nothing to validate: drop --valid-sets");
    }
  }
  if (max_epochs < 0) bad("max-epochs", ">= 0", std::to_string(max_epochs));
  if (max_updates < 0) bad("max-updates", ">= 0", std::to_string(max_updates));
  if (max_minutes < 0) bad("max-minutes", ">= 0", std::to_string(max_minutes));
  if (valid_freq < 1) bad("valid-freq", "at least 1", std::to_string(valid_freq));
  if (save_freq < 1) bad("save-freq", "at least 1", std::to_string(save_freq));
  if (log_freq < 1) bad("log-freq", "at least 1", std::to_string(log_freq));
  if (patience < 0) bad("early-stopping", ">= 0", std::to_string(patience));
  if (threads < 1) bad("threads", "at least 1", std::to_string(threads));
  if (max_epochs == 0 && max_updates == 0 && max_minutes == 0 && !(has_validation() && patience > 0)) {
    throw util::UsageError("nothing would end training: give --max-epochs, --max-updates, --max-minutes, or "
                           "--valid-sets with --early-stopping");
  }
  if (model.tied_embeddings && model.maxout != model.embedding) {
    bad("tied-embeddings", "used with --dim-maxout equal to --dim-emb",
        std::to_string(model.maxout) + " and " + std::to_string(model.embedding));
  }
  check_files_differ(*this);
  math::check_precision_available(precision);
}

std::vector<std::string> TrainOptions::output_files() const {
  std::vector<std::string> files = {checkpoint_path(), model_path, best_model_path()};
  if (!valid_translation_output.empty()) {
    files.push_back(valid_translation_output);
    files.push_back(valid_translation_output + ".best");
  }
  return files;
}

std::string TrainOptions::kept_model_path(long update) const { return kept_model_path_stem() + std::to_string(update); }

std::string TrainOptions::kept_model_path_stem() const { return model_path + ".update"; }

float TrainOptions::resolved_learning_rate() const {
  if (learning_rate > 0) return learning_rate;
  return optimizer == OptimizerKind::kAdam ? 1e-3f : 1.0f;
}

}  // namespace rnnsearch::train
