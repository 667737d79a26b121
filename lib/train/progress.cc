#include "train/progress.h"

#include <unistd.h>

#include <cstdio>

namespace rnnsearch::train {

namespace {

std::string format(const char* pattern, double a) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), pattern, a);
  return buffer;
}

std::string duration_text(double seconds) {
  const long s = static_cast<long>(seconds + 0.5);
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
  return buffer;
}

}  // namespace

Progress::Progress(bool quiet, long log_freq)
    : quiet_(quiet), terminal_(isatty(STDERR_FILENO) == 1), log_freq_(log_freq) {}

bool Progress::should_report(long update) const {
  if (quiet_) return false;
  if (!terminal_) return update % log_freq_ == 0;
  return std::chrono::steady_clock::now() - last_draw_ > std::chrono::milliseconds(250);
}

void Progress::report(const ProgressFigures& f) {
  const double batches_left = static_cast<double>(f.batches_in_epoch - f.batch_in_epoch);
  std::string line = "epoch " + std::to_string(f.epoch + 1) + " update " + std::to_string(f.update) + " batch " +
                     std::to_string(f.batch_in_epoch) + "/" + std::to_string(f.batches_in_epoch) + " | loss " +
                     format("%.3f", f.loss) + " | " + format("%.0f", f.tokens_per_second) + " tgt tok/s | lr " +
                     format("%.3g", f.learning_rate) + " | gnorm " + format("%.2f", f.gradient_norm) +
                     " | epoch ETA " + duration_text(batches_left * f.seconds_per_update);
  last_draw_ = std::chrono::steady_clock::now();
  if (terminal_) {
    std::fprintf(stderr, "\r\033[K%s", line.c_str());
    live_line_ = true;
  } else {
    std::fprintf(stderr, "%s\n", line.c_str());
  }
  std::fflush(stderr);
}

void Progress::clear_live_line() {
  if (live_line_) {
    std::fprintf(stderr, "\r\033[K");
    live_line_ = false;
  }
}

void Progress::message(const std::string& line) {
  if (quiet_) return;
  clear_live_line();
  std::fprintf(stderr, "%s\n", line.c_str());
  std::fflush(stderr);
}

void Progress::finish() {
  if (live_line_) {
    std::fprintf(stderr, "\n");
    live_line_ = false;
  }
}

}  // namespace rnnsearch::train
