#pragma once
// Tools made of commands (nmt-bpe learn|apply|undo, nmt-glossary match|extract): argv[1]
// names the command, which reads the rest of the command line itself.
#include <functional>
#include <string>
#include <vector>

#include "util/cli.h"

namespace rnnsearch::tools {

struct Subcommand {
  std::string name;                                         // "learn"
  std::function<int(const std::vector<std::string>&)> run;  // its arguments in, the exit code out
  bool listed = true;  // false for an alias (subword-nmt's learn-bpe), left out of messages
};

// Runs the command argv[1] names on argv[2..]. Answers -h and --help with tool.usage and a
// line on "TOOL COMMAND --help", --version with the version line; otherwise throws
// util::UsageError "a command is needed: learn, apply or undo" or "unknown command 'x'
// (learn, apply or undo)", the listed commands in their order.
int run_subcommand(const util::ToolInfo& tool, const std::vector<Subcommand>& commands, int argc, char** argv);

}  // namespace rnnsearch::tools
