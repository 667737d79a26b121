#pragma once
// Checkpoint averaging (nmt-average): a model whose every parameter is the element-wise
// mean of the same parameter in several models of one training run, e.g. the models
// nmt-train --keep-checkpoints kept. The models must have the same configuration and
// vocabularies; the result has them too.
#include <string>
#include <vector>

#include "model/model_file.h"

namespace rnnsearch::model {

struct AverageOptions {
  std::vector<std::string> models;  // model files (a checkpoint's model part is read too)
  std::string output;               // written atomically

  // Throws util::UsageError when there is no model or no output.
  void validate() const;
};

// Throws util::Error naming `path` when `other` differs from `first` (read from
// `first_path`) in configuration, vocabularies or parameter shapes.
void check_same_model(const LoadedModel& first, const std::string& first_path, const LoadedModel& other,
                      const std::string& path);

// Reads the models one at a time, sums each parameter in double, writes the mean (rounded
// to float once) with the first model's configuration and vocabularies to
// options.output. Nothing is written when a model fails to read or to match.
void average_models(const AverageOptions& options);

}  // namespace rnnsearch::model
