#pragma once
// Progress of a long-running text tool: one live line, redrawn at most four times a second
// ("nmt-tokenize: 420,000 lines, 210,000 lines/s", with a known total also "35%, ETA
// 0:01:10"), shown only when the progress output is live (util/progress_output.h: the
// tool's stderr is a terminal) and the tool is not --quiet, erased when the work ends. In a
// pipe or a log file nothing is shown, so outputs and logs stay clean.
#include <chrono>
#include <cstdint>
#include <string>

namespace rnnsearch::util {

class ProgressMeter {
 public:
  // `unit` names what advance() counts ("lines", "pairs", "sentences"); `total` is the
  // expected count, 0 when unknown. Shown only when `enabled` and the progress output is
  // live.
  ProgressMeter(std::string tool, std::string unit, bool enabled, std::uint64_t total = 0);
  ~ProgressMeter();
  ProgressMeter(const ProgressMeter&) = delete;
  ProgressMeter& operator=(const ProgressMeter&) = delete;

  // Counts `n` more units done; cheap enough to call per line (reads the clock every 1024
  // calls at most).
  void advance(std::uint64_t n = 1) {
    done_ += n;
    if (shown_ && ++calls_since_check_ >= 1024) maybe_draw();
  }
  // Sets the count outright (for work counted elsewhere, e.g. by a reader thread).
  void set_done(std::uint64_t done) {
    done_ = done;
    if (shown_) maybe_draw();
  }
  // Erases the live line (also done by the destructor).
  void finish();

 private:
  void maybe_draw();
  void draw();

  std::string tool_, unit_;
  bool shown_;
  std::uint64_t total_, done_ = 0, calls_since_check_ = 0;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_, last_draw_;
};

// True when `path` is "-" and file descriptor `fd` (0 or 1) is a terminal: the tool is used
// interactively, and a live progress line would mix with what the user reads or types.
bool is_terminal(const std::string& path, int fd);

// "1:02:03": hours, minutes and seconds of `seconds` rounded to the second.
std::string clock_duration(double seconds);

}  // namespace rnnsearch::util
