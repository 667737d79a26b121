#pragma once
// nmt-train's command line as its options give it, before it becomes TrainOptions: the
// file pairs as lists of files, --no-shuffle and the common options. The tool binds its
// options here (the enumerations straight to their fields, util::enum_value); to_options()
// does the rest.
#include <string>
#include <vector>

#include "train/train_options.h"
#include "util/cli.h"

namespace rnnsearch::train {

struct TrainArguments {
  TrainOptions options;  // every option but those below binds to its field here
  util::CommonOptions common;
  std::vector<std::string> train_sets, valid_sets, vocabs;  // source and target each
  bool no_shuffle = !options.batching.shuffle;

  // `options` with the pairs split, and threads and quiet from `common`. Throws
  // util::UsageError "--train-sets SRC TGT is required" or "--vocabs takes two files
  // (source and target), got 3". The result is not validated yet: run_training does that.
  TrainOptions to_options() const;
};

}  // namespace rnnsearch::train
