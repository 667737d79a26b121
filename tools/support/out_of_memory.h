#pragma once
// What a tool does when memory runs out: it cannot go on, and unwinding is not safe either
// (math/eigen.h: Eigen leaves a freed buffer in a matrix whose resize failed). The handler
// installed by exit_when_out_of_memory() removes the temporary files of the outputs being
// written, prints "TOOL: out of memory" and exits 1 at once, from whichever thread failed
// to allocate.

#include <string>

namespace rnnsearch::tools {

// Installs the handler for the tool named `tool` (run_tool() does, for every tool).
void exit_when_out_of_memory(const std::string& tool);

}  // namespace rnnsearch::tools
