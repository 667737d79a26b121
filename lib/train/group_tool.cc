#include "train/group_tool.h"

#include <memory>

#include "util/cli.h"
#include "util/error.h"

namespace rnnsearch::train {

int run_tool_in_group(const std::string& tool, const std::function<int(const ProcessGroup&)>& body) {
  std::unique_ptr<ProcessGroup> group;
  const int refused = util::run_tool(tool, [&] {
    group = ProcessGroup::join_launched();
    return util::kExitOk;
  });
  if (!group) return refused;
  const bool root = group->is_root();
  bool alone_failed = false;
  const int code = util::run_tool(root ? tool : tool + ": rank " + std::to_string(group->rank()), [&]() -> int {
    try {
      return body(*group);
    } catch (const GroupFailure&) {
      if (root) throw;
      return util::kExitFailure;
    } catch (const util::UsageError&) {
      if (root) throw;
      return util::kExitUsage;
    } catch (const boost::program_options::error&) {
      if (root) throw;
      return util::kExitUsage;
    } catch (...) {
      alone_failed = true;
      throw;
    }
  });
  if (alone_failed) group->abort(code);
  return code;
}

}  // namespace rnnsearch::train
