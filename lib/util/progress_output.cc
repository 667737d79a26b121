#include "util/progress_output.h"

#include <utility>

namespace rnnsearch::util {

namespace {

ProgressOutput& current() {
  static ProgressOutput output;
  return output;
}

}  // namespace

void set_progress_output(ProgressOutput output) { current() = std::move(output); }

const ProgressOutput& progress_output() { return current(); }

}  // namespace rnnsearch::util
