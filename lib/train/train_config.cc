#include "train/train_config.h"

#include <cmath>

#include "util/error.h"

namespace rnnsearch::train {

namespace {

[[noreturn]] void bad(const std::string& option, const std::string& expected, const std::string& got) {
  throw util::UsageError("--" + option + " must be " + expected + ", got " + got);
}

void one_of(const std::string& option, const std::string& value, std::initializer_list<const char*> choices) {
  std::string list;
  for (const char* choice : choices) {
    if (value == choice) return;
    list += list.empty() ? choice : std::string(", ") + choice;
  }
  bad(option, "one of " + list, "'" + value + "'");
}

}  // namespace

void TrainConfig::validate() const {
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
  one_of("long-pairs", long_pairs, {"skip", "error", "truncate"});
  one_of("init", init, {"xavier", "paper"});
  one_of("optimizer", optimizer, {"adam", "adadelta"});
  one_of("early-stopping-metric", early_stopping_metric, {"bleu", "cross-entropy", "perplexity"});
  one_of("final-model", final_model, {"best", "last"});
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
}

float TrainConfig::resolved_learning_rate() const {
  if (learning_rate > 0) return learning_rate;
  return optimizer == "adam" ? 1e-3f : 1.0f;
}

model::Initialization TrainConfig::initialization() const {
  return init == "paper" ? model::Initialization::kPaper : model::Initialization::kXavier;
}

data::LongPairs TrainConfig::long_pair_policy() const {
  if (long_pairs == "error") return data::LongPairs::kError;
  if (long_pairs == "truncate") return data::LongPairs::kTruncate;
  return data::LongPairs::kSkip;
}

}  // namespace rnnsearch::train
