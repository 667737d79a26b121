#pragma once
// Checks of a warning that a tool prints once at the end of input (the unknown-token and
// truncation warnings of nmt-decode, nmt-score and nmt-align): it appears once, -q keeps
// it, batches and threads do not change it, an option silences it, and it never changes
// the output.
#include <cstddef>
#include <string>
#include <vector>

#include "support/run_process.h"

namespace rnnsearch::testing {

// How many lines of `err` are exactly `line`.
std::size_t count_lines_equal(const std::string& err, const std::string& line);

struct WarnedRuns {
  ProcessResult plain;   // as given
  ProcessResult silent;  // with the silencing options
};

// Runs `argv` (a tool and its options) with `input` on stdin and `warned` appended, then
// with -q, --mini-batch 1, or --mini-batch 64 --threads 2 besides, and last with `silent`
// appended instead of `warned`: every run exits 0, the first four with the same output
// bytes; `warning` (a whole stderr line) is printed exactly once in each of the first four
// and not at all in the last.
WarnedRuns check_end_warning(const std::vector<std::string>& argv, const std::string& input,
                             const std::string& warning, const std::vector<std::string>& warned,
                             const std::vector<std::string>& silent);

}  // namespace rnnsearch::testing
