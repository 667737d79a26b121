#pragma once
// The training loop of nmt-train: data, model, optimizer, schedule, validation, early
// stopping, checkpoints and exact resume. Same config, seed, thread and process count
// give the same bits, whether or not the run was interrupted and resumed in between.
#include "train/process_group.h"
#include "train/train_options.h"
#include "train/training_state.h"

namespace rnnsearch::train {

struct TrainOutcome {
  TrainingState state;
  bool interrupted = false;  // stopped by request_stop(); the checkpoint holds where
  int signal = 0;            // then the signal that asked (under mpirun: the lowest rank's that got one)
  std::string reason;        // "early stopping", "--max-updates 100", ...
};

// Trains as `config` says, writing progress to util::progress_output() (the tool's
// stderr). Throws util::Error for bad input (naming file and line) and for a NaN or
// infinite loss (naming the update); files on disk are then as the last successful save
// left them.
TrainOutcome run_training(const TrainOptions& config);
// The same across the processes of `group` (train/process_group.h), each running this
// with the same config: rank 0 reads the checkpoint or builds the vocabularies and the
// model, and gives them to the others; every process reads the corpus (and checks it is
// the same as rank 0's) and computes the same global batches; rank 0 alone writes files
// and progress. All processes stop after the same update, for a limit, early stopping or
// a signal that any of them received. Failures met by all throw GroupFailure on each.
TrainOutcome run_training(const TrainOptions& config, const ProcessGroup& group);

// Asks a running run_training to save and return after the current update, reporting
// `signal` (> 0: SIGINT, SIGTERM) in TrainOutcome::signal. Safe to call from a signal handler.
void request_stop(int signal);

}  // namespace rnnsearch::train
