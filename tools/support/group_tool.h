#pragma once
// run_tool (tool_entry.h) for a tool that runs as every process of a launched group
// (mpirun -np N nmt-train, or one process alone). Rank 0 reports what every process meets alike (usage
// errors: they parse the same command line; GroupFailure); the others stay silent about
// it. A failure one process meets alone (a write error, a failed collective) ends the
// whole job, because the others may be waiting for this process in an all-reduce.
#include <functional>
#include <string>

#include "train/process_group.h"

namespace rnnsearch::tools {

// Joins the group (ProcessGroup::join_launched; a refusal is reported as run_tool reports
// errors) and runs `body` in it; returns the exit code. Messages of ranks other than 0
// name their rank: "nmt-train: rank 2: ...".
int run_tool_in_group(const std::string& tool, const std::function<int(const train::ProcessGroup&)>& body);

}  // namespace rnnsearch::tools
