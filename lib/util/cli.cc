#include "util/cli.h"

#include <cstdio>

#include <iostream>
#include <new>
#include <thread>

#include "rnnsearch/version.h"
#include "util/error.h"

namespace rnnsearch::util {

namespace po = boost::program_options;

int CommonOptions::resolved_threads() const {
  if (threads > 0) return threads;
  const unsigned cores = std::thread::hardware_concurrency();
  return cores == 0 ? 1 : static_cast<int>(cores);
}

void CommonOptions::validate() const {
  if (threads < 0) throw UsageError("--threads must be >= 0 (0 = one per core), got " + std::to_string(threads));
}

void add_common_options(po::options_description& options, CommonOptions& common) {
  options.add_options()
      ("help,h", po::bool_switch(&common.help), "print this help and exit")
      ("version", po::bool_switch(&common.version), "print the version and exit")
      ("threads", po::value(&common.threads)->default_value(common.threads),
       "worker threads (0 = one per core)")
      ("quiet,q", po::bool_switch(&common.quiet), "print no progress or warnings on stderr");
}

std::vector<std::string> expand_aliases(int argc, char** argv, const std::map<std::string, std::string>& aliases) {
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) {
    const auto it = aliases.find(argv[i]);
    args.push_back(it == aliases.end() ? argv[i] : it->second);
  }
  return args;
}

bool parse_command_line(const ToolInfo& tool, const std::vector<std::string>& args,
                        const po::options_description& options, const CommonOptions& common,
                        const po::options_description* hidden, const po::positional_options_description* positional) {
  po::options_description all;
  all.add(options);
  if (hidden) all.add(*hidden);
  po::command_line_parser parser(args);
  parser.options(all).style(po::command_line_style::default_style & ~po::command_line_style::allow_guessing);
  if (positional) parser.positional(*positional);
  po::variables_map vm;
  po::store(parser.run(), vm);
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
  return false;
}

std::string shortest_number(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%g", value);
  return text;
}

std::string version_line(const std::string& tool) { return tool + " (rnnsearch) " + kVersion; }

int run_tool(const std::string& tool, const std::function<int()>& body) {
  try {
    return body();
  } catch (const Error& e) {
    std::cerr << tool << ": " << e.what() << "\n";
    return kExitFailure;
  } catch (const UsageError& e) {
    std::cerr << tool << ": " << e.what() << "\nTry '" << tool << " --help' for more information.\n";
    return kExitUsage;
  } catch (const po::error& e) {
    std::cerr << tool << ": " << e.what() << "\nTry '" << tool << " --help' for more information.\n";
    return kExitUsage;
  } catch (const std::bad_alloc&) {
    std::cerr << tool << ": out of memory\n";
    return kExitFailure;
  } catch (const std::exception& e) {
    std::cerr << tool << ": " << e.what() << "\n";
    return kExitFailure;
  }
}

}  // namespace rnnsearch::util
