#include "tools/support/tool_entry.h"

#include <signal.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <new>

#include "math/cpu_isa.h"
#include "tools/support/out_of_memory.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/option_error.h"
#include "util/signal_thread.h"

namespace rnnsearch::tools {

namespace po = boost::program_options;

namespace {

// Ends the process as signal `number` would have, after removing the temporary files of outputs
// not yet complete (their targets keep the old contents). The default action, raised
// again, lets the parent see "killed by signal". Async-signal-safe calls only.
void remove_temp_files_and_die(int number) {
  util::unlink_temp_files();
  std::signal(number, SIG_DFL);
  std::raise(number);  // blocked in its own handler: delivered, by default, on return
}

// A signal the process was started with ignored (nohup, `tool &` in a script) stays ignored.
// The handlers run on the signal thread (util/signal_thread.h), never inside a kernel.
void install_cleanup_on_signals() {
  static const bool installed = [] {
    util::handle_signals_on_own_thread({SIGHUP, SIGINT, SIGTERM});
    for (const int number : {SIGHUP, SIGINT, SIGTERM}) {
      struct sigaction current {};
      if (::sigaction(number, nullptr, &current) != 0 || current.sa_handler == SIG_IGN) continue;
      struct sigaction action {};
      action.sa_handler = remove_temp_files_and_die;
      sigemptyset(&action.sa_mask);
      ::sigaction(number, &action, nullptr);
    }
    return true;
  }();
  (void)installed;
}

// What the environment says before any work: RNNSEARCH_CPU_ISA, read once here so that a
// value the library does not know stops the tool in one line (no --help hint: the
// command line is not at fault).
int check_environment(const std::string& tool) {
  try {
    math::cpu_isa();
    return util::kExitOk;
  } catch (const util::UsageError& e) {
    std::cerr << tool << ": " << e.what() << "\n";
    return util::kExitUsage;
  }
}

// "<stdout>: write failed: REASON", the reason from errno when it has one.
[[noreturn]] void throw_stdout_failed(int reason) {
  throw util::Error("<stdout>", reason != 0 ? std::string("write failed: ") + std::strerror(reason) : "write failed");
}

// What a tool printed on stdout (--help, a report) must have reached it: a full disk or
// /dev/full fails the run as any write error does, where exit() would flush it silently.
void check_stdout_written() {
  errno = 0;
  std::cout.flush();
  const bool flushed = std::fflush(stdout) == 0;
  if (flushed && std::cout.good() && !std::ferror(stdout)) return;
  throw_stdout_failed(errno);
}

}  // namespace

void write_to_stdout(const std::string& text) {
  errno = 0;
  if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size()) throw_stdout_failed(errno);
}

int run_tool(const std::string& tool, const std::function<int()>& body) {
  install_cleanup_on_signals();
  exit_when_out_of_memory(tool);
  show_progress_on_stderr();
  if (const int refused = check_environment(tool); refused != util::kExitOk) return refused;
  try {
    const int code = body();
    check_stdout_written();
    return code;
  } catch (const util::Error& e) {
    std::cerr << tool << ": " << e.what() << "\n";
    return util::kExitFailure;
  } catch (const util::UsageError& e) {
    std::cerr << tool << ": " << e.what() << "\nTry '" << tool << " --help' for more information.\n";
    return util::kExitUsage;
  } catch (const po::error_with_option_name& e) {
    std::cerr << tool << ": " << util::option_error_message(e) << "\nTry '" << tool << " --help' for more information.\n";
    return util::kExitUsage;
  } catch (const po::error& e) {
    std::cerr << tool << ": " << e.what() << "\nTry '" << tool << " --help' for more information.\n";
    return util::kExitUsage;
  } catch (const std::bad_alloc&) {  // std::bad_array_new_length; the rest exit at once (out_of_memory.h)
    std::cerr << tool << ": out of memory\n";
    return util::kExitFailure;
  } catch (const std::exception& e) {
    std::cerr << tool << ": " << e.what() << "\n";
    return util::kExitFailure;
  }
}

}  // namespace rnnsearch::tools
