#pragma once
// Runs a tool with its stderr on a pseudo-terminal, as when a user watches it run, for tests
// of what tools show only on a terminal (live progress lines). stdin is /dev/null and
// stdout a pipe, as when output goes to a file.
#include <string>
#include <vector>

#include "support/run_process.h"

namespace rnnsearch::testing {

// argv[0] is the executable path; `err` holds every byte written to the terminal.
ProcessResult run_with_terminal_stderr(const std::vector<std::string>& argv, const std::string& working_dir = "");

}  // namespace rnnsearch::testing
