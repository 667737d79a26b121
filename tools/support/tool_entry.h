#pragma once
// The tools' entry: what every tool does around its library calls and the library leaves
// to it (lib/ prints nothing and never exits, util/error.h): the answer to --help,
// --version and --dump-config on stdout, the library's messages and progress on stderr,
// and run_tool(), which turns exceptions into one-line messages and exit codes.
#include <boost/program_options.hpp>
#include <functional>
#include <string>
#include <vector>

#include "util/cli.h"
#include "util/messages.h"

namespace rnnsearch::tools {

// The line --version adds below the version: the level of instruction sets the kernels use
// (math/cpu_isa.h), and whether the build is for its build machine's CPU alone.
std::string kernels_line();

// util::read_command_line, printing its answer to --help, --version (then kernels_line())
// or --dump-config on stdout. Returns true when it answered: the tool then exits 0.
bool parse_command_line(const util::ToolInfo& tool, const std::vector<std::string>& args,
                        const boost::program_options::options_description& options, util::CommonOptions& common,
                        const boost::program_options::options_description* hidden = nullptr,
                        const boost::program_options::positional_options_description* positional = nullptr);

// A library call's notes (one line each) for stderr, each after `prefix`, or nothing under
// --quiet.
std::function<void(const std::string&)> stderr_notes(const util::CommonOptions& common, const std::string& prefix);

// A library call's messages for stderr: its notes as stderr_notes with the prefix "TOOL: "
// (a note names its kind itself: "warning: FILE:17: ..."), its warnings after
// "TOOL: warning: " and printed under --quiet too: --quiet silences progress and notes,
// not the warnings about the input as a whole.
util::Messages stderr_messages(const util::CommonOptions& common, const std::string& tool);

// Writes `text` on stdout now (through stdio's buffer, as std::cout does). Throws
// util::Error "<stdout>: write failed: REASON" when it cannot be written.
void write_to_stdout(const std::string& text);

// Progress lines (util/progress_output.h) on stderr, redrawn in place when stderr is a
// terminal. run_tool() sets it; a program without run_tool (a benchmark) may.
void show_progress_on_stderr();

// Runs `body` and maps what escapes it to a message on stderr and an exit code:
//   util::Error -> "tool: file:line: message", exit 1
//   util::UsageError, program_options errors -> "tool: message" + a --help hint, exit 2
//   other std::exception -> "tool: message", exit 1
// `body` returns the exit code for normal completion; stdout is then flushed, and output
// that could not be written is "tool: <stdout>: write failed: REASON", exit 1.
// Before `body`: sets the out-of-memory handler (out_of_memory.h), progress on stderr
// (util/progress_output.h), and reads RNNSEARCH_CPU_ISA (math::cpu_isa), whose unknown
// value is "tool: message", exit 2, before any work. The first call also sets SIGHUP,
// SIGINT and SIGTERM (unless ignored) to remove the temporary files of unfinished
// AtomicFileWriters and end the process by the signal.
int run_tool(const std::string& tool, const std::function<int()>& body);

}  // namespace rnnsearch::tools
