#include "support/terminal_process.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <stdexcept>

namespace rnnsearch::testing {

ProcessResult run_with_terminal_stderr(const std::vector<std::string>& argv, const std::string& working_dir) {
  const int master = posix_openpt(O_RDWR | O_NOCTTY);
  if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0) throw std::runtime_error("no pseudo-terminal");
  const std::string slave_name = ptsname(master);
  int out_pipe[2];
  if (pipe(out_pipe) != 0) throw std::runtime_error("pipe failed");
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    const int slave = open(slave_name.c_str(), O_RDWR | O_NOCTTY);
    const int null = open("/dev/null", O_RDONLY);
    if (slave < 0 || null < 0) _exit(127);
    dup2(null, 0);
    dup2(out_pipe[1], 1);
    dup2(slave, 2);
    for (int fd : {slave, null, master, out_pipe[0], out_pipe[1]}) close(fd);
    if (!working_dir.empty() && chdir(working_dir.c_str()) != 0) _exit(127);
    exec_child(argv);
  }
  close(out_pipe[1]);
  ProcessResult result;
  char buffer[65536];
  // Both until each ends: the pipe at EOF, the terminal when no process holds it any more
  // (read then fails with EIO).
  int out_fd = out_pipe[0], err_fd = master;
  while (out_fd >= 0 || err_fd >= 0) {
    pollfd fds[2];
    int n = 0;
    if (out_fd >= 0) fds[n++] = {out_fd, POLLIN, 0};
    if (err_fd >= 0) fds[n++] = {err_fd, POLLIN, 0};
    if (poll(fds, n, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < n; ++i) {
      if (!fds[i].revents) continue;
      const ssize_t r = read(fds[i].fd, buffer, sizeof buffer);
      const bool is_out = fds[i].fd == out_fd;
      if (r > 0) {
        (is_out ? result.out : result.err).append(buffer, static_cast<std::size_t>(r));
      } else if (!(r < 0 && errno == EINTR)) {
        if (is_out) close(out_fd);
        (is_out ? out_fd : err_fd) = -1;
      }
    }
  }
  close(master);
  int status = 0;
  waitpid(pid, &status, 0);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

}  // namespace rnnsearch::testing
