#include "util/line_reader.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <algorithm>
#include <cstring>
#include <utility>

#include "util/error.h"
#include "util/read_file.h"
#include "util/utf8.h"

namespace rnnsearch::util {
namespace {

constexpr std::size_t kBufferSize = 1 << 16;

}  // namespace

LineReader::LineReader(const std::string& path, InvalidUtf8 policy) : policy_(policy), buffer_(kBufferSize) {
  if (path == "-") {
    name_ = "<stdin>";
    fd_ = STDIN_FILENO;
  } else {
    name_ = path;
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw Error(path, std::string("cannot open: ") + std::strerror(errno));
    owns_fd_ = true;
    try {
      refuse_directory(path, fd_);
    } catch (...) {
      ::close(fd_);
      throw;
    }
  }
}

LineReader::LineReader(int fd, std::string name, InvalidUtf8 policy)
    : name_(std::move(name)), policy_(policy), fd_(fd), buffer_(kBufferSize) {}

LineReader::~LineReader() {
  if (owns_fd_) ::close(fd_);
}

bool LineReader::fill() {
  if (eof_) return false;
  if (begin_ > 0) {
    std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (end_ == buffer_.size()) buffer_.resize(buffer_.size() * 2);
  ssize_t got;
  do {
    got = ::read(fd_, buffer_.data() + end_, buffer_.size() - end_);
  } while (got < 0 && errno == EINTR);
  if (got < 0) throw Error(name_, line_number_ + 1, std::string("read error: ") + std::strerror(errno));
  if (got == 0) {
    eof_ = true;
    return false;
  }
  end_ += static_cast<std::size_t>(got);
  return true;
}

bool LineReader::next(std::string& line) {
  std::size_t scanned = begin_;
  for (;;) {
    const void* nl = std::memchr(buffer_.data() + scanned, '\n', end_ - scanned);
    if (nl) {
      const std::size_t stop = static_cast<const char*>(nl) - buffer_.data();
      line.assign(buffer_.data() + begin_, stop - begin_);
      begin_ = stop + 1;
      break;
    }
    scanned = end_ - begin_;  // offset relative to begin_, rebased after fill()
    if (!fill()) {
      if (begin_ == end_) return false;
      line.assign(buffer_.data() + begin_, end_ - begin_);  // last line without "\n"
      begin_ = end_;
      break;
    }
    scanned += begin_;
  }
  ++line_number_;
  if (!keep_cr_ && !line.empty() && line.back() == '\r') line.pop_back();
  if (policy_ == InvalidUtf8::kKeep) return true;
  const std::size_t bad = find_invalid_utf8(line);
  if (bad != std::string::npos) {
    if (policy_ == InvalidUtf8::kReplace) {
      line = replace_invalid_utf8(line);
    } else {
      throw Error(name_, line_number_, "invalid UTF-8 at byte " + std::to_string(bad + 1));
    }
  }
  return true;
}

bool LineReader::ready() const {
  if (eof_ || std::memchr(buffer_.data() + begin_, '\n', end_ - begin_) != nullptr) return true;
  pollfd fd{fd_, POLLIN, 0};
  return ::poll(&fd, 1, 0) > 0;
}

std::vector<std::string> read_lines(const std::string& path) {
  LineReader reader(path);
  std::vector<std::string> lines;
  std::string line;
  while (reader.next(line)) lines.push_back(line);
  return lines;
}

void throw_line_count_mismatch(const std::string& a, std::size_t a_lines, const std::string& b, std::size_t b_lines,
                               const std::string& unit) {
  const bool shorter_first = a_lines < b_lines;
  const std::size_t fewer = std::min(a_lines, b_lines), more = std::max(a_lines, b_lines);
  throw Error(shorter_first ? a : b, "has " + std::to_string(fewer) + " " + unit + (fewer == 1 ? "" : "s") + ", but " +
                                         (shorter_first ? b : a) + " has " + std::to_string(more) +
                                         "; the files must be line-aligned");
}

void throw_unaligned(LineReader& a, LineReader& b) {
  std::string rest;
  while (a.next(rest)) {
  }
  while (b.next(rest)) {
  }
  throw_line_count_mismatch(a.name(), a.line_number(), b.name(), b.line_number());
}

bool next_in_step(LineReader& a, std::string& a_line, LineReader& b, std::string& b_line) {
  const bool more_a = a.next(a_line), more_b = b.next(b_line);
  if (more_a != more_b) throw_unaligned(a, b);
  return more_a;
}

}  // namespace rnnsearch::util
