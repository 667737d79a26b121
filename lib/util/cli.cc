#include "util/cli.h"

#include <signal.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <new>
#include <thread>

#include "rnnsearch/version.h"
#include "util/atomic_file.h"
#include "util/config_options.h"
#include "util/error.h"
#include "util/option_range.h"
#include "util/out_of_memory.h"

namespace rnnsearch::util {

namespace po = boost::program_options;

namespace {

// Ends the process as signal `number` would have, after removing the temporary files of outputs
// not yet complete (their targets keep the old contents). The default action, raised
// again, lets the parent see "killed by signal". Async-signal-safe calls only.
void remove_temp_files_and_die(int number) {
  unlink_temp_files();
  std::signal(number, SIG_DFL);
  std::raise(number);  // blocked in its own handler: delivered, by default, on return
}

// A signal the process was started with ignored (nohup, `tool &` in a script) stays ignored.
void install_cleanup_on_signals() {
  static const bool installed = [] {
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

// What a tool printed on stdout (--help, a report) must have reached it: a full disk or
// /dev/full fails the run as any write error does, where exit() would flush it silently.
void check_stdout_written() {
  errno = 0;
  std::cout.flush();
  const bool flushed = std::fflush(stdout) == 0;
  if (flushed && std::cout.good() && !std::ferror(stdout)) return;
  const int reason = errno;
  throw Error("<stdout>", reason != 0 ? std::string("write failed: ") + std::strerror(reason) : "write failed");
}

}  // namespace

int CommonOptions::resolved_threads() const {
  if (threads > 0) return threads;
  const unsigned cores = std::thread::hardware_concurrency();
  return cores == 0 ? 1 : static_cast<int>(cores);
}

void CommonOptions::validate() const {
  check_range("threads", threads, 0, kMaxThreads);
}

void add_common_options(po::options_description& options, CommonOptions& common) {
  options.add_options()
      ("help,h", po::bool_switch(&common.help), "print this help and exit")
      ("version", po::bool_switch(&common.version), "print the version and exit")
      ("threads", po::value(&common.threads)->default_value(common.threads),
       "worker threads (0 = one per core)")
      ("quiet,q", po::bool_switch(&common.quiet), "print no progress or warnings on stderr")
      ("config", po::value(&common.config)->value_name("FILE"),
       "read options from FILE, 'name = value' lines (long names, # comments); the command line wins")
      ("dump-config", po::bool_switch(&common.dump_config),
       "print the effective options (defaults, --config, command line) in --config form and exit");
}

namespace {

class FixedArityValue : public po::typed_value<std::vector<std::string>> {
 public:
  FixedArityValue(std::vector<std::string>* field, unsigned count)
      : po::typed_value<std::vector<std::string>>(field), count_(count) {
    composing();
  }
  unsigned min_tokens() const override { return count_; }
  unsigned max_tokens() const override { return count_; }

 private:
  unsigned count_;
};

}  // namespace

po::typed_value<std::vector<std::string>>* fixed_arity_value(std::vector<std::string>* field, unsigned count) {
  return new FixedArityValue(field, count);
}

std::vector<std::string> expand_aliases(int argc, char** argv, const std::map<std::string, std::string>& aliases) {
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto it = aliases.find(arg);
    if (it != aliases.end()) {
      args.push_back(it->second);
      continue;
    }
    const auto equals = arg.find('=');  // "-ratio=9", as Getopt::Long reads it
    const auto named = equals == std::string::npos ? aliases.end() : aliases.find(arg.substr(0, equals));
    args.push_back(named == aliases.end() ? arg : named->second + arg.substr(equals));
  }
  return args;
}

bool parse_command_line(const ToolInfo& tool, const std::vector<std::string>& args,
                        const po::options_description& options, CommonOptions& common,
                        const po::options_description* hidden, const po::positional_options_description* positional) {
  po::options_description all;
  all.add(options);
  if (hidden) all.add(*hidden);
  std::vector<po::option> switches;
  po::command_line_parser parser(take_switch_values(args, all, switches));
  parser.options(all).style(po::command_line_style::default_style & ~po::command_line_style::allow_guessing);
  if (positional) parser.positional(*positional);
  po::parsed_options parsed = parser.run();
  parsed.options.insert(parsed.options.end(), switches.begin(), switches.end());
  po::variables_map vm;
  po::store(parsed, vm);
  const auto on = [&vm](const char* name) { return vm.count(name) > 0 && vm[name].as<bool>(); };
  if (on("dump-config") && !on("help") && !on("version") && tool.stored_options) {
    if (const auto stored = tool.stored_options(vm)) {
      std::cout << *stored;
      return true;
    }
  }
  if (given(vm, "config") && !on("help") && !on("version")) store_config_file(vm["config"].as<std::string>(), all, vm);
  po::notify(vm);
  if (common.help) {
    std::cout << tool.usage << "\n" << options << "\nExit status: 0 success, 1 bad input, 2 usage error.\n";
    return true;
  }
  if (common.version) {
    std::cout << version_line(tool.name) << tool.version_note << "\n";
    return true;
  }
  common.validate();
  common.effective_options = dump_config(all, vm);
  if (common.dump_config) std::cout << common.effective_options;
  return common.dump_config;
}

std::function<void(const std::string&)> stderr_notes(const CommonOptions& common, const std::string& prefix) {
  return [quiet = common.quiet, prefix](const std::string& line) {
    if (!quiet) std::cerr << prefix << line << "\n";
  };
}

Messages stderr_messages(const CommonOptions& common, const std::string& tool) {
  const std::string prefix = tool + ": warning: ";
  return {stderr_notes(common, tool + ": "), [prefix](const std::string& line) { std::cerr << prefix << line << "\n"; }};
}

std::string version_line(const std::string& tool) { return tool + " (rnnsearch) " + kVersion; }

int run_tool(const std::string& tool, const std::function<int()>& body) {
  install_cleanup_on_signals();
  exit_when_out_of_memory(tool);
  try {
    const int code = body();
    check_stdout_written();
    return code;
  } catch (const Error& e) {
    std::cerr << tool << ": " << e.what() << "\n";
    return kExitFailure;
  } catch (const UsageError& e) {
    std::cerr << tool << ": " << e.what() << "\nTry '" << tool << " --help' for more information.\n";
    return kExitUsage;
  } catch (const po::error& e) {
    std::cerr << tool << ": " << e.what() << "\nTry '" << tool << " --help' for more information.\n";
    return kExitUsage;
  } catch (const std::bad_alloc&) {  // std::bad_array_new_length; the rest exit at once (util/out_of_memory.h)
    std::cerr << tool << ": out of memory\n";
    return kExitFailure;
  } catch (const std::exception& e) {
    std::cerr << tool << ": " << e.what() << "\n";
    return kExitFailure;
  }
}

}  // namespace rnnsearch::util
