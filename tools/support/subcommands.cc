#include "tools/support/subcommands.h"

#include <algorithm>

#include "tools/support/tool_entry.h"
#include "util/error.h"

namespace rnnsearch::tools {
namespace {

// "learn, apply or undo".
std::string listed_names(const std::vector<Subcommand>& commands) {
  std::vector<std::string> names;
  for (const Subcommand& c : commands) {
    if (c.listed) names.push_back(c.name);
  }
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    out += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  }
  return out;
}

}  // namespace

int run_subcommand(const util::ToolInfo& tool, const std::vector<Subcommand>& commands, int argc, char** argv) {
  const std::string command = argc > 1 ? argv[1] : "";
  const auto found = std::find_if(commands.begin(), commands.end(), [&](const Subcommand& c) { return c.name == command; });
  if (found != commands.end()) return found->run(std::vector<std::string>(argv + 2, argv + argc));
  if (command == "--help" || command == "-h") {
    write_to_stdout(tool.usage + "\nRun '" + tool.name + " COMMAND --help' for the options of a command.\n");
    return util::kExitOk;
  }
  if (command == "--version") {
    write_to_stdout(util::version_line(tool.name) + "\n");
    return util::kExitOk;
  }
  throw util::UsageError(command.empty() ? "a command is needed: " + listed_names(commands)
                                         : "unknown command '" + command + "' (" + listed_names(commands) + ")");
}

}  // namespace rnnsearch::tools
