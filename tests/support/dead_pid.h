#pragma once
// A process id no process has: a child that has exited and been reaped (for tests of what
// a process that died left behind).
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

namespace rnnsearch::testing {

inline pid_t dead_pid() {
  const pid_t pid = ::fork();
  if (pid == 0) ::_exit(0);
  ::waitpid(pid, nullptr, 0);
  return pid;
}

}  // namespace rnnsearch::testing
