#include "util/distinct_outputs.h"

#include "util/error.h"
#include "util/same_file.h"

namespace rnnsearch::util {

namespace {

// "-" is standard output, whatever a file named "-" in the working directory is.
bool same_output(const std::string& a, const std::string& b) {
  if (a == "-" || b == "-") return a == b;
  return same_file(a, b);
}

}  // namespace

void check_distinct_outputs(const std::vector<NamedOutput>& outputs) {
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    if (outputs[i].path.empty()) continue;
    for (std::size_t j = i + 1; j < outputs.size(); ++j) {
      if (outputs[j].path.empty() || !same_output(outputs[i].path, outputs[j].path)) continue;
      const std::string both = outputs[i].name + " and " + outputs[j].name;
      if (outputs[i].path == "-") throw UsageError(both + " are both standard output (-)");
      throw UsageError(both + " are the same file: " + outputs[i].path);
    }
  }
}

}  // namespace rnnsearch::util
