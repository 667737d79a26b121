#include "util/cli.h"

#include <sstream>
#include <thread>

#include "rnnsearch/version.h"
#include "util/config_file.h"
#include "util/config_options.h"
#include "util/option_range.h"

namespace rnnsearch::util {

namespace po = boost::program_options;

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
      ("quiet,q", po::bool_switch(&common.quiet),
       "print no progress lines or notes on stderr (warnings and errors still)")
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

std::optional<std::string> read_command_line(const ToolInfo& tool, const std::vector<std::string>& args,
                                             const po::options_description& options, CommonOptions& common,
                                             const po::options_description* hidden,
                                             const po::positional_options_description* positional) {
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
    if (auto stored = tool.stored_options(vm)) return stored;
  }
  if (given(vm, "config") && !on("help") && !on("version")) store_config_file(vm["config"].as<std::string>(), all, vm);
  if (tool.options_beneath && !on("help") && !on("version")) {
    const ToolInfo::Beneath beneath = tool.options_beneath(all, vm);
    store_config_lines(parse_config_text(beneath.lines, beneath.file), beneath.file, all, vm);
  }
  po::notify(vm);
  if (common.help) {
    std::ostringstream help;
    help << tool.usage << "\n" << options << "\nExit status: 0 success, 1 bad input, 2 usage error.\n";
    return help.str();
  }
  if (common.version) return version_line(tool.name) + tool.version_note + "\n";
  common.validate();
  common.effective_options = dump_config(all, vm);
  if (common.dump_config) return common.effective_options;
  return std::nullopt;
}

std::string version_line(const std::string& tool) { return tool + " (rnnsearch) " + kVersion; }

}  // namespace rnnsearch::util
