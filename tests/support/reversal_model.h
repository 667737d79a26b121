#pragma once
// A small model trained by nmt-train (about a second) to reverse sentences of 3-6 words
// over 10 words ("w0".."w9"), in a temporary directory, for tests of the tools that use
// models (nmt-decode, nmt-align).
#include <string>
#include <vector>

#include "support/run_process.h"
#include "support/temp_dir.h"

namespace rnnsearch::testing {

struct ReversalModel {
  TempDir dir;
  std::string model;  // the model file

  ReversalModel();  // trains it; a failed training fails the calling test
  // nmt-decode -m model OPTIONS with `input` on stdin.
  ProcessResult decode(const std::vector<std::string>& options, const std::string& input) const;
};

}  // namespace rnnsearch::testing
