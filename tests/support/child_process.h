#pragma once
// A tool run in the background, for tests that act while it runs: wait for something on
// its stderr, send it a signal, then collect its exit code.
#include <string>
#include <sys/types.h>
#include <vector>

namespace rnnsearch::testing {

class ChildProcess {
 public:
  // Starts argv (argv[0] the executable) with stdin from /dev/null and stdout discarded.
  explicit ChildProcess(const std::vector<std::string>& argv);
  ~ChildProcess();  // kills and reaps a child still running
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Reads stderr until it contains `text` (true) or the child closes it or `seconds` pass (false).
  bool wait_for_stderr(const std::string& text, double seconds);
  void send_signal(int signal);
  // Waits for the exit; returns the exit code (128 + signal when killed). Reads the rest of stderr.
  int wait();
  // After wait(): the signal that killed it, 0 when it exited (even with code 128 + N).
  int killed_by() const { return killed_by_; }
  const std::string& err() const { return err_; }

 private:
  pid_t pid_ = -1;
  int err_fd_ = -1;
  int killed_by_ = 0;
  std::string err_;
};

}  // namespace rnnsearch::testing
