#pragma once
// model.bin.ckpt: the model file (model/model_file.h) of kind checkpoint, whose payload
// goes on with the trainer's state, the optimizer's (name, step count, moments) and the
// exponential smoothing's (decay, 0 = none, and the smoothed copy of every parameter;
// checkpoints written before it end after the optimizer's state). Its model part holds
// the run's training options and source profile as the model file does, and the parameters training goes
// on with, not the smoothed ones.
#include <memory>
#include <string>

#include "model/model_file.h"
#include "nn/exponential_smoothing.h"
#include "nn/optimizer.h"
#include "train/training_state.h"

namespace rnnsearch::train {

void write_checkpoint(const std::string& path, const model::RnnSearch& model, const data::Vocabulary& source_vocabulary,
                      const data::Vocabulary& target_vocabulary, const TrainingState& state, nn::Optimizer& optimizer,
                      const std::string& training_options, const data::SourceProfile& source_profile,
                      const nn::ExponentialSmoothing* smoothing = nullptr);

struct LoadedCheckpoint {
  model::LoadedModel model;
  TrainingState state;
  std::string optimizer_name;
  long optimizer_steps = 0;
  std::vector<math::Matrix> optimizer_state;
  float smoothing_decay = 0.0f;         // --exponential-smoothing of the run, 0 = none
  std::vector<math::Matrix> smoothed;   // per parameter, empty when none
};

// Throws util::Error naming the file when it is not a whole checkpoint.
LoadedCheckpoint read_checkpoint(const std::string& path);

// Moves a loaded optimizer state into `optimizer` after checking that it fits (same
// optimizer, same shapes); a fresh optimizer sizes its state on the first step, so this
// runs one zero-gradient preparation first.
void restore_optimizer(const LoadedCheckpoint& checkpoint, nn::Optimizer& optimizer, nn::ParameterRegistry& parameters,
                       const std::string& path);

}  // namespace rnnsearch::train
