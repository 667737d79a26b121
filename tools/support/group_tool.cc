#include "tools/support/group_tool.h"

#include <memory>

#include "tools/support/tool_entry.h"
#include "util/error.h"

namespace rnnsearch::tools {

int run_tool_in_group(const std::string& tool, const std::function<int(const train::ProcessGroup&)>& body) {
  std::unique_ptr<train::ProcessGroup> group;
  const int refused = run_tool(tool, [&] {
    group = train::ProcessGroup::join_launched();
    return util::kExitOk;
  });
  if (!group) return refused;
  const bool root = group->is_root();
  bool alone_failed = false;
  const int code = run_tool(root ? tool : tool + ": rank " + std::to_string(group->rank()), [&]() -> int {
    try {
      return body(*group);
    } catch (const train::GroupFailure&) {
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

}  // namespace rnnsearch::tools
