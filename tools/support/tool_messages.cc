// What the tools print for the library: the answers to --help and its kind, the library's
// notes and warnings, progress lines.
#include <unistd.h>

#include <cstdio>
#include <iostream>

#include "math/cpu_isa.h"
#include "tools/support/tool_entry.h"
#include "util/instruction_sets.h"
#include "util/progress_output.h"

namespace rnnsearch::tools {

namespace po = boost::program_options;

std::string kernels_line() {
  const math::CpuIsa level = math::cpu_isa(), detected = math::detected_cpu_isa();
  std::string line = std::string("kernels: ") + math::cpu_isa_name(level);
  line += level == detected ? ", the highest level this CPU has"
                            : std::string(", held there by RNNSEARCH_CPU_ISA (this CPU has ") +
                                  math::cpu_isa_name(detected) + ")";
  if (util::kBuiltInstructionSets != 0) line += "; built for its build machine's CPU (RNNSEARCH_NATIVE)";
  return line + "\n";
}

bool parse_command_line(const util::ToolInfo& tool, const std::vector<std::string>& args,
                        const po::options_description& options, util::CommonOptions& common,
                        const po::options_description* hidden, const po::positional_options_description* positional) {
  const auto answer = util::read_command_line(tool, args, options, common, hidden, positional);
  if (answer) std::cout << *answer << (common.version ? kernels_line() : "");
  return answer.has_value();
}

std::function<void(const std::string&)> stderr_notes(const util::CommonOptions& common, const std::string& prefix) {
  return [quiet = common.quiet, prefix](const std::string& line) {
    if (!quiet) std::cerr << prefix << line << "\n";
  };
}

util::Messages stderr_messages(const util::CommonOptions& common, const std::string& tool) {
  const std::string prefix = tool + ": warning: ";
  return {stderr_notes(common, tool + ": "), [prefix](const std::string& line) { std::cerr << prefix << line << "\n"; }};
}

void show_progress_on_stderr() {
  util::set_progress_output({isatty(STDERR_FILENO) == 1, [](const std::string& text) {
                               std::fputs(text.c_str(), stderr);
                               std::fflush(stderr);
                             }});
}

}  // namespace rnnsearch::tools
