#include "support/child_process.h"

#include "support/run_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <stdexcept>

namespace rnnsearch::testing {

ChildProcess::ChildProcess(const std::vector<std::string>& argv) {
  int err_pipe[2];
  if (pipe(err_pipe)) throw std::runtime_error("pipe failed");
  pid_ = fork();
  if (pid_ < 0) throw std::runtime_error("fork failed");
  if (pid_ == 0) {
    const int null_fd = open("/dev/null", O_RDWR);
    dup2(null_fd, 0);
    dup2(null_fd, 1);
    dup2(err_pipe[1], 2);
    close(err_pipe[0]);
    close(err_pipe[1]);
    close(null_fd);
    exec_child(argv);
  }
  close(err_pipe[1]);
  err_fd_ = err_pipe[0];
}

ChildProcess::~ChildProcess() {
  if (pid_ > 0) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  if (err_fd_ >= 0) close(err_fd_);
}

bool ChildProcess::wait_for_stderr(const std::string& text, double seconds) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (err_.find(text) == std::string::npos) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    pollfd fd{err_fd_, POLLIN, 0};
    if (poll(&fd, 1, static_cast<int>(left.count())) <= 0) continue;
    char buffer[4096];
    const ssize_t n = read(err_fd_, buffer, sizeof(buffer));
    if (n <= 0) return false;
    err_.append(buffer, static_cast<std::size_t>(n));
  }
  return true;
}

void ChildProcess::send_signal(int signal) {
  if (pid_ > 0) kill(pid_, signal);
}

int ChildProcess::wait() {
  char buffer[4096];
  ssize_t n;
  while ((n = read(err_fd_, buffer, sizeof(buffer))) > 0) err_.append(buffer, static_cast<std::size_t>(n));
  int status = 0;
  waitpid(pid_, &status, 0);
  pid_ = -1;
  killed_by_ = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace rnnsearch::testing
