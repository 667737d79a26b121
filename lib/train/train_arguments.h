#pragma once
// nmt-train's command line as its options give it, before it becomes TrainOptions: the
// file pairs as lists of files, --no-shuffle and the common options. The tool binds its
// options here (the enumerations straight to their fields, util::enum_value); to_options()
// does the rest.
#include <optional>
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

  // `options` with the pairs split, threads and quiet from `common`, and the options to
  // store: common.effective_options with resume and overwrite false (they say what to do
  // with the files a run finds, not how it trains: a retraining from them starts afresh;
  // paths are stored as given). Throws
  // util::UsageError "--train-sets SRC TGT is required" or "--vocabs takes two files
  // (source and target), got 3". The result is not validated yet: run_training does that.
  TrainOptions to_options() const;
};

// Under nmt-train --dump-config, given the command line's values: the options MODEL
// stores when the command line names only -m MODEL (and --dump-config), else nothing (the
// effective options are printed). Throws util::Error naming MODEL when it cannot be read
// or stores none (written before model format version 4).
std::optional<std::string> stored_options_to_dump(const boost::program_options::variables_map& command_line);

}  // namespace rnnsearch::train
