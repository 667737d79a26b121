#include "util/atomic_file.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <unistd.h>
#include <sys/stat.h>

#include "util/error.h"

namespace rnnsearch::util {
namespace {

std::string errno_text() { return std::strerror(errno); }

}  // namespace

AtomicFileWriter::AtomicFileWriter(const std::string& path) : path_(path) {
  if (path == "-") {
    to_stdout_ = true;
    file_ = stdout;
    return;
  }
  std::string pattern = path + ".tmp.XXXXXX";
  const int fd = ::mkstemp(pattern.data());
  if (fd < 0) throw Error(path, "cannot create a temporary file beside it: " + errno_text());
  // mkstemp creates 0600; give the file the usual permissions under the umask.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd, 0666 & ~mask);
  temp_path_ = pattern;
  file_ = ::fdopen(fd, "wb");
  if (!file_) {
    ::close(fd);
    ::unlink(temp_path_.c_str());
    throw Error(path, "cannot open a temporary file: " + errno_text());
  }
}

AtomicFileWriter::~AtomicFileWriter() {
  if (to_stdout_ || committed_) return;
  if (file_) std::fclose(file_);
  ::unlink(temp_path_.c_str());
}

void AtomicFileWriter::write(std::string_view data) {
  if (std::fwrite(data.data(), 1, data.size(), file_) != data.size()) {
    throw Error(path_, "write failed: " + errno_text());
  }
}

void AtomicFileWriter::write_line(std::string_view line) {
  write(line);
  if (std::fputc('\n', file_) == EOF) throw Error(path_, "write failed: " + errno_text());
}

void AtomicFileWriter::flush() {
  if (std::fflush(file_) != 0) throw Error(to_stdout_ ? "<stdout>" : path_, "write failed: " + errno_text());
}

void AtomicFileWriter::commit() {
  if (committed_) return;
  if (to_stdout_) {
    if (std::fflush(file_) != 0) throw Error("<stdout>", "write failed: " + errno_text());
    committed_ = true;
    return;
  }
  const bool flushed = std::fflush(file_) == 0 && ::fsync(::fileno(file_)) == 0;
  const int saved_errno = errno;
  const bool closed = std::fclose(file_) == 0;
  file_ = nullptr;
  if (!flushed || !closed) {
    errno = flushed ? errno : saved_errno;
    ::unlink(temp_path_.c_str());
    throw Error(path_, "write failed: " + errno_text());
  }
  if (std::rename(temp_path_.c_str(), path_.c_str()) != 0) {
    const std::string reason = errno_text();
    ::unlink(temp_path_.c_str());
    throw Error(path_, "cannot rename the temporary file into place: " + reason);
  }
  committed_ = true;
}

}  // namespace rnnsearch::util
