#include "train/train_arguments.h"

#include <sstream>

#include "model/model_file.h"
#include "util/config_options.h"
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

// `effective` (config lines) with resume and overwrite false.
std::string options_to_store(const std::string& effective) {
  std::string stored;
  std::istringstream lines(effective);
  for (std::string line; std::getline(lines, line);) {
    if (line == "resume = true" || line == "overwrite = true") line.replace(line.size() - 4, 4, "false");
    stored += line + "\n";
  }
  return stored;
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
  result.stored_options = options_to_store(common.effective_options);
  return result;
}

std::optional<std::string> stored_options_to_dump(const boost::program_options::variables_map& command_line) {
  std::vector<std::string> named;
  for (const auto& entry : command_line) {
    if (util::given(command_line, entry.first)) named.push_back(entry.first);
  }
  if (named != std::vector<std::string>{"dump-config", "model"}) return std::nullopt;
  const std::string path = command_line["model"].as<std::string>();
  std::string stored = model::read_model_file(path).training_options;
  if (stored.empty()) {
    throw util::Error(path, "stores no training options (nmt-train stores them from model format version 4 on)");
  }
  return stored;
}

}  // namespace rnnsearch::train
