#pragma once
// A .gz file decompressed by the system's gzip (`gzip -dc FILE`, its stderr discarded) into
// a pipe, for reading with LineReader(fd, name): the project links no zlib. finish() waits
// for gzip and turns a failure (not gzip data, a truncated file) into util::Error naming the
// file; the destructor of an unfinished pipe stops gzip and reaps it.
#include <string>
#include <sys/types.h>

namespace rnnsearch::util {

class GunzipPipe {
 public:
  // Starts gzip on `path`. Throws util::Error when the file cannot be read or gzip started.
  explicit GunzipPipe(const std::string& path);
  ~GunzipPipe();
  GunzipPipe(const GunzipPipe&) = delete;
  GunzipPipe& operator=(const GunzipPipe&) = delete;

  // The read end of the pipe: the decompressed bytes.
  int fd() const { return fd_; }
  // Closes the pipe and waits for gzip: throws util::Error "FILE: gzip -dc failed ..."
  // unless it exited with status 0, or 2 (a warning such as "trailing garbage ignored").
  // Call it after reading everything.
  void finish();

 private:
  std::string path_;
  int fd_ = -1;
  pid_t pid_ = -1;
};

}  // namespace rnnsearch::util
