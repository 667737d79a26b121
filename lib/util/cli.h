#pragma once
// What every tool shares on the command line: --help, --version, --threads, --quiet,
// --config FILE and --dump-config (util/config_options.h) and the exit codes. Reading a
// command line here prints nothing: the tools' entry (tools/support/tool_entry.h) prints
// what --help asks for and turns exceptions into one-line messages.
#include <boost/program_options.hpp>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "util/number_format.h"
#include "util/parallel.h"

namespace rnnsearch::util {

enum ExitCode : int { kExitOk = 0, kExitFailure = 1, kExitUsage = 2 };


struct CommonOptions {
  bool help = false;
  bool version = false;
  bool quiet = false;
  int threads = 1;  // 0 = one per core
  std::string config;        // --config FILE: options read under the command line's
  bool dump_config = false;  // --dump-config: print the effective options and exit
  // Set by parse_command_line: the options in effect (defaults, --config file and command
  // line merged) as config lines, what --dump-config prints.
  std::string effective_options;

  // The thread count to use: `threads`, or the number of cores when 0.
  int resolved_threads() const;
  // Throws UsageError for a thread count outside [0, kMaxThreads].
  void validate() const;
};

// Adds --help/-h, --version, --threads N, --quiet/-q, --config FILE and --dump-config
// bound to `common`.
void add_common_options(boost::program_options::options_description& options, CommonOptions& common);

// argv[1..] with whole-word aliases replaced: reference tools spell some options with
// several letters after one dash (sacreBLEU's -tok, tokenizer.perl's -threads), which
// Boost.Program_options would read as bundled short options. "ALIAS=VALUE" becomes
// "REPLACEMENT=VALUE" (Getopt::Long's -ratio=9).
std::vector<std::string> expand_aliases(int argc, char** argv, const std::map<std::string, std::string>& aliases);

// A repeatable option that takes exactly `count` arguments each time ("--aligned IN OUT"),
// all of them appended to `field` in order.
boost::program_options::typed_value<std::vector<std::string>>* fixed_arity_value(std::vector<std::string>* field,
                                                                                   unsigned count);

// A value bound to `field` whose --help default is the field's value now (the options
// struct's own default); a floating-point one shown as util::general shows it ("0.2",
// not Boost's "0.200000003").
template <class T>
boost::program_options::typed_value<T>* defaulted(T* field) {
  if constexpr (std::is_floating_point_v<T>) {
    return boost::program_options::value(field)->default_value(*field, general(*field));
  } else {
    return boost::program_options::value(field)->default_value(*field);
  }
}

// A string option naming an enumeration's value: --help shows `default_name`, and the name
// given (or the default) is parsed into `field` by `parse`, whose UsageError names a bad one.
template <class T>
boost::program_options::typed_value<std::string>* enum_value(T* field, const std::string& default_name,
                                                             T (*parse)(const std::string&)) {
  return boost::program_options::value<std::string>()->default_value(default_name)->notifier(
      [field, parse](const std::string& name) { *field = parse(name); });
}
// The same with the default given by the enumeration's name function, from the field's
// value now.
template <class T>
boost::program_options::typed_value<std::string>* enum_value(T* field, const char* (*name)(T),
                                                             T (*parse)(const std::string&)) {
  return enum_value(field, std::string(name(*field)), parse);
}

// What --help and --version print for a tool.
struct ToolInfo {
  std::string name;          // "nmt-tokenize"
  std::string usage;         // synopsis and a sentence on what it does, newline-terminated
  std::string version_note;  // appended to the version line, e.g. " (scores as sacreBLEU 2.6.0)"
  // Under --dump-config, given the command line's values (no config file's): the options
  // to print instead of the effective ones, or nothing (nmt-train -m MODEL: those MODEL
  // stores). Empty for most tools.
  std::function<std::optional<std::string>(const boost::program_options::variables_map&)> stored_options = {};
  // Given every option and the values of the command line and the --config file: config
  // lines to store under both, and the name of the file they come from (nmt-train
  // --resume: the checkpoint's values of the options a resumed run cannot change). Empty
  // for most tools.
  struct Beneath {
    std::string file;
    std::string lines;
  };
  std::function<Beneath(const boost::program_options::options_description&, const boost::program_options::variables_map&)>
      options_beneath = {};
};

// Parses `args` (already alias-expanded) against `options` (plus hidden options and
// positionals, when given), then the --config file under them; validates the common
// options and sets common.effective_options. A switch also takes "--SWITCH=true|false".
// Returns the answer to --help, --version or --dump-config, for stdout (the tool then
// exits 0), or nothing when the tool is to run. Throws program_options errors and
// UsageError for bad command lines and config files.
std::optional<std::string> read_command_line(
    const ToolInfo& tool, const std::vector<std::string>& args,
    const boost::program_options::options_description& options, CommonOptions& common,
    const boost::program_options::options_description* hidden = nullptr,
    const boost::program_options::positional_options_description* positional = nullptr);

// "nmt-bleu (rnnsearch) 0.1.0"
std::string version_line(const std::string& tool);

}  // namespace rnnsearch::util
