#pragma once
// Training progress, written to util::progress_output() (the tool's stderr; nothing
// without one). On a terminal: one live line, redrawn at most a few times
// a second (epoch, update, loss, target tokens/s, ETA to the end of the epoch and to the
// end of the run, whichever of --max-updates, --max-epochs, --max-minutes ends it). Otherwise
// a plain log line every log_freq updates. Messages (validations, checkpoints) always
// get their own line; --quiet keeps only warnings and errors (which the tool prints).
#include <chrono>
#include <cstddef>
#include <string>

namespace rnnsearch::train {

struct ProgressFigures {
  long epoch = 0, update = 0;
  std::size_t batch_in_epoch = 0, batches_in_epoch = 0;
  double loss = 0.0;               // mean per target token since the last report
  double tokens_per_second = 0.0;  // target tokens, since the last report
  double seconds_per_update = 0.0; // since the last report
  double learning_rate = 0.0;
  double gradient_norm = 0.0;
  double run_seconds_left = -1.0;  // to the first limit that ends the run; < 0 when no limit is set
};

// What ends a run (0 = not set) and where it is, for the ETA to its end.
struct RunLimits {
  long max_updates = 0, max_epochs = 0;
  double max_minutes = 0.0;
};
struct RunPosition {
  long update = 0, epoch = 0;  // epoch counts from 0
  std::size_t batch_in_epoch = 0, batches_in_epoch = 0;
  double elapsed_seconds = 0.0, seconds_per_update = 0.0;
};

// Seconds until the first limit that is set ends the run (never negative); -1 when none is.
double seconds_to_run_end(const RunLimits& limits, const RunPosition& position);

class Progress {
 public:
  Progress(bool quiet, long log_freq);
  // Called after every update with the figures accumulated since the last call that
  // reported (should_report tells when that is).
  bool should_report(long update) const;
  void report(const ProgressFigures& figures);
  void message(const std::string& line);
  void finish();  // ends a live line

 private:
  void clear_live_line();
  bool quiet_, terminal_;
  long log_freq_;
  bool live_line_ = false;
  std::chrono::steady_clock::time_point last_draw_;
};

}  // namespace rnnsearch::train
