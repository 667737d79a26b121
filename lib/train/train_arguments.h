#pragma once
// nmt-train's command line as its options give it, before it becomes TrainOptions: the
// file pairs as lists of files, the enumerations by name, --no-shuffle and the common
// options. The tool binds its options here; to_options() does the rest.
#include <string>
#include <vector>

#include "data/parallel_corpus.h"
#include "train/train_options.h"
#include "util/cli.h"

namespace rnnsearch::train {

struct TrainArguments {
  TrainOptions options;  // every option but those below binds to its field here
  util::CommonOptions common;
  std::vector<std::string> train_sets, valid_sets, vocabs;  // source and target each
  bool no_shuffle = !options.batching.shuffle;
  // The enumerations by name; the defaults are the names of TrainOptions' defaults.
  std::string long_pairs = data::long_pairs_name(options.long_pairs);
  std::string attention = nn::attention_form_name(options.model.attention_form);
  std::string init = initialization_name(options.init);
  std::string optimizer = optimizer_name(options.optimizer);
  std::string early_stopping_metric = early_stopping_metric_name(options.early_stopping_metric);
  std::string final_model = final_model_name(options.final_model);

  // `options` with the pairs split, the names parsed, and threads and quiet from `common`.
  // Throws util::UsageError "--train-sets SRC TGT is required", "--vocabs takes two files
  // (source and target), got 3", or the parse function's (parse_optimizer...). The result
  // is not validated yet: run_training does that.
  TrainOptions to_options() const;
};

}  // namespace rnnsearch::train
