#pragma once
// Runs a built tool the way a user would, for CLI tests: argv, working directory and
// stdin in; exit code, stdout and stderr out.
#include <string>
#include <vector>

namespace rnnsearch::testing {

struct ProcessResult {
  int exit_code = -1;  // 128 + signal number when killed by a signal
  std::string out;
  std::string err;
};

// argv[0] is the executable path. `unset_env` names variables removed for the child.
ProcessResult run_process(const std::vector<std::string>& argv, const std::string& working_dir = "",
                          const std::string& stdin_data = "", const std::vector<std::string>& unset_env = {});

// In a forked child: executes argv (argv[0] the path); exits 127 when that fails.
[[noreturn]] void exec_child(const std::vector<std::string>& argv);

// bin_dir() + "/" + tool.
std::string tool_path(const std::string& tool);

}  // namespace rnnsearch::testing
