#include "util/gunzip_pipe.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "util/error.h"
#include "util/signal_thread.h"

extern char** environ;

namespace rnnsearch::util {
namespace {

// waitpid for `pid`, retried on EINTR; returns the status.
int wait_for(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

}  // namespace

GunzipPipe::GunzipPipe(const std::string& path) : path_(path) {
  // gzip's own message for a missing file would be lost with its stderr: check first.
  if (::access(path.c_str(), R_OK) != 0) throw Error(path, std::string("cannot open: ") + std::strerror(errno));
  int ends[2];
  if (::pipe2(ends, O_CLOEXEC) != 0) throw Error(path, std::string("cannot create a pipe: ") + std::strerror(errno));
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, ends[1], STDOUT_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  // gzip starts with the signals this thread blocks for the signal thread unblocked: the
  // SIGTERM of the destructor, and a user's, must reach it.
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  const sigset_t mask = unblocked_signal_mask();
  posix_spawnattr_setsigmask(&attributes, &mask);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK);
  const char* argv[] = {"gzip", "-dc", "--", path.c_str(), nullptr};
  const int failed = ::posix_spawnp(&pid_, "gzip", &actions, &attributes, const_cast<char* const*>(argv), environ);
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  ::close(ends[1]);
  if (failed != 0) {
    ::close(ends[0]);
    pid_ = -1;
    throw Error(path, std::string("cannot run gzip -dc: ") + std::strerror(failed));
  }
  fd_ = ends[0];
}

GunzipPipe::~GunzipPipe() {
  if (fd_ >= 0) ::close(fd_);
  if (pid_ > 0) {
    ::kill(pid_, SIGTERM);
    wait_for(pid_);
  }
}

void GunzipPipe::finish() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (pid_ <= 0) return;
  const int status = wait_for(pid_);
  pid_ = -1;
  // Status 2 is gzip's warning ("trailing garbage ignored"): the data came through.
  if (WIFEXITED(status) && (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 2)) return;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 127) throw Error(path_, "cannot run gzip -dc: gzip not found");
  throw Error(path_, "gzip -dc failed (" +
                         (WIFEXITED(status) ? "exit status " + std::to_string(WEXITSTATUS(status))
                                            : "signal " + std::to_string(WTERMSIG(status))) +
                         "): not gzip data, or truncated");
}

}  // namespace rnnsearch::util
