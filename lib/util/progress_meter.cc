#include "util/progress_meter.h"

#include <unistd.h>

#include <string>

#include "util/number_format.h"
#include "util/progress_output.h"

namespace rnnsearch::util {

bool is_terminal(const std::string& path, int fd) { return path == "-" && isatty(fd) == 1; }

std::string clock_duration(double seconds) {
  const long s = seconds > 0 ? static_cast<long>(seconds + 0.5) : 0;
  return std::to_string(s / 3600) + ':' + zero_padded(s / 60 % 60, 2) + ':' + zero_padded(s % 60, 2);
}

ProgressMeter::ProgressMeter(std::string tool, std::string unit, bool enabled, std::uint64_t total)
    : tool_(std::move(tool)),
      unit_(std::move(unit)),
      shown_(enabled && progress_output().live && progress_output().write),
      total_(total),
      start_(std::chrono::steady_clock::now()),
      last_draw_(start_ - std::chrono::seconds(1)) {}  // the first check draws

ProgressMeter::~ProgressMeter() { finish(); }

void ProgressMeter::maybe_draw() {
  calls_since_check_ = 0;
  if (std::chrono::steady_clock::now() - last_draw_ >= std::chrono::milliseconds(250)) draw();
}

void ProgressMeter::draw() {
  last_draw_ = std::chrono::steady_clock::now();
  const double seconds = std::chrono::duration<double>(last_draw_ - start_).count();
  std::string line = tool_ + ": " + grouped(done_);
  if (total_ > 0) line += "/" + grouped(total_);
  line += " " + unit_;
  if (seconds > 0.5 && done_ > 0) {
    const double rate = static_cast<double>(done_) / seconds;
    line += ", " + grouped(static_cast<std::uint64_t>(rate)) + " " + unit_ + "/s";
    if (total_ > done_) {
      line += ", " + std::to_string(100 * done_ / total_) + "%, ETA " +
              clock_duration(static_cast<double>(total_ - done_) / rate);
    }
  }
  progress_output().write("\r\033[K" + line);
  drawn_ = true;
}

void ProgressMeter::finish() {
  if (drawn_) {
    progress_output().write("\r\033[K");
    drawn_ = false;
  }
}

}  // namespace rnnsearch::util
