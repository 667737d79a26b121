#include "train/train_arguments.h"

#include "util/error.h"

namespace rnnsearch::train {

namespace {

// The two files of --OPTION SRC TGT into `first` and `second`; none leaves them as they are.
void take_pair(const std::vector<std::string>& values, const char* option, std::string& first, std::string& second) {
  if (values.empty()) return;
  if (values.size() != 2) {
    throw util::UsageError(std::string("--") + option + " takes two files (source and target), got " +
                           std::to_string(values.size()));
  }
  first = values[0];
  second = values[1];
}

}  // namespace

TrainOptions TrainArguments::to_options() const {
  if (train_sets.empty()) throw util::UsageError("--train-sets SRC TGT is required");
  TrainOptions result = options;
  take_pair(train_sets, "train-sets", result.train_source, result.train_target);
  take_pair(valid_sets, "valid-sets", result.valid_source, result.valid_target);
  take_pair(vocabs, "vocabs", result.source_vocabulary, result.target_vocabulary);
  result.batching.shuffle = !no_shuffle;
  result.threads = common.resolved_threads();
  result.quiet = common.quiet;
  return result;
}

}  // namespace rnnsearch::train
