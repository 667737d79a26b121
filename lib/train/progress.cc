#include "train/progress.h"

#include <algorithm>

#include "util/number_format.h"
#include "util/progress_meter.h"
#include "util/progress_output.h"

namespace rnnsearch::train {

double seconds_to_run_end(const RunLimits& limits, const RunPosition& p) {
  bool limited = false;
  double left = 0.0;
  const auto consider = [&](double seconds) {
    left = limited ? std::min(left, seconds) : seconds;
    limited = true;
  };
  if (limits.max_minutes > 0) consider(limits.max_minutes * 60.0 - p.elapsed_seconds);
  if (limits.max_updates > 0) consider(static_cast<double>(limits.max_updates - p.update) * p.seconds_per_update);
  if (limits.max_epochs > 0) {
    const double batches_left = static_cast<double>(p.batches_in_epoch) - static_cast<double>(p.batch_in_epoch) +
                                static_cast<double>(limits.max_epochs - p.epoch - 1) *
                                    static_cast<double>(p.batches_in_epoch);
    consider(batches_left * p.seconds_per_update);
  }
  return limited ? std::max(0.0, left) : -1.0;
}

Progress::Progress(bool quiet, long log_freq)
    : quiet_(quiet || !util::progress_output().write), terminal_(util::progress_output().live), log_freq_(log_freq) {}

bool Progress::should_report(long update) const {
  if (quiet_) return false;
  if (!terminal_) return update % log_freq_ == 0;
  return std::chrono::steady_clock::now() - last_draw_ > std::chrono::milliseconds(250);
}

void Progress::report(const ProgressFigures& f) {
  const double batches_left = static_cast<double>(f.batches_in_epoch - f.batch_in_epoch);
  std::string line = "epoch " + std::to_string(f.epoch + 1) + " update " + std::to_string(f.update) + " batch " +
                     std::to_string(f.batch_in_epoch) + "/" + std::to_string(f.batches_in_epoch) + " | loss " +
                     util::fixed(f.loss, 3) + " | " + util::fixed(f.tokens_per_second, 0) + " tgt tok/s | lr " +
                     util::general(f.learning_rate, 3) + " | gnorm " + util::fixed(f.gradient_norm, 2) +
                     " | epoch ETA " + util::clock_duration(batches_left * f.seconds_per_update);
  if (f.run_seconds_left >= 0.0) line += " | run ETA " + util::clock_duration(f.run_seconds_left);
  last_draw_ = std::chrono::steady_clock::now();
  if (terminal_) {
    util::progress_output().write("\r\033[K" + line);
    live_line_ = true;
  } else {
    util::progress_output().write(line + "\n");
  }
}

void Progress::clear_live_line() {
  if (live_line_) {
    util::progress_output().write("\r\033[K");
    live_line_ = false;
  }
}

void Progress::message(const std::string& line) {
  if (quiet_) return;
  clear_live_line();
  util::progress_output().write(line + "\n");
}

void Progress::finish() {
  if (live_line_) {
    util::progress_output().write("\n");
    live_line_ = false;
  }
}

}  // namespace rnnsearch::train
