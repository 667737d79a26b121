#pragma once
// Training progress on stderr. On a terminal: one live line, redrawn at most a few times
// a second (epoch, update, loss, target tokens/s, ETA to the end of the epoch). Otherwise
// a plain log line every log_freq updates. Messages (validations, checkpoints) always
// get their own line; --quiet keeps only warnings and errors (which the tool prints).
#include <chrono>
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
};

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
