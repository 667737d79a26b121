#include "util/read_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "util/error.h"

namespace rnnsearch::util {

void refuse_directory(const std::string& path, int fd) {
  struct stat info {};
  if (::fstat(fd, &info) == 0 && S_ISDIR(info.st_mode)) throw Error(path, "is a directory");
}

std::string read_file(const std::string& path, const std::string& what) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw Error(path, "cannot open " + what + ": " + std::strerror(errno));
  std::string content;
  try {
    refuse_directory(path, fd);
    char chunk[1 << 16];
    for (;;) {
      const ssize_t got = ::read(fd, chunk, sizeof(chunk));
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) throw Error(path, "cannot read " + what + ": " + std::strerror(errno));
      if (got == 0) break;
      content.append(chunk, static_cast<std::size_t>(got));
    }
  } catch (...) {
    ::close(fd);
    throw;
  }
  ::close(fd);
  return content;
}

}  // namespace rnnsearch::util
