#pragma once
// A small model trained by nmt-train (about a second) to reverse sentences of 3-6 words
// over 10 words ("w0".."w9"), in a temporary directory, for tests of the tools that use
// models (nmt-decode, nmt-align). The attention form is nmt-train's default unless named.
#include <cstdint>
#include <string>
#include <vector>

#include "support/run_process.h"
#include "support/temp_dir.h"

namespace rnnsearch::testing {

// `count` held-out sentences of 3-6 words over w0..w9 (seeded), a line each, and their
// reversals: what a model that solved the task translates them to.
struct HeldOutReversals {
  std::string source, reversed;
};
HeldOutReversals held_out_reversals(int count, std::uint64_t seed);

struct ReversalModel {
  TempDir dir;
  std::string model;  // the model file

  // Trains it (with --attention `attention` when not empty, then `extra` nmt-train
  // options, which may name files in `dir`); a failed training fails the calling test.
  // The training log is kept in `log`.
  explicit ReversalModel(const std::string& attention = "", const std::vector<std::string>& extra = {});
  std::string log;
  // nmt-decode -m model OPTIONS with `input` on stdin.
  ProcessResult decode(const std::vector<std::string>& options, const std::string& input) const;
};

}  // namespace rnnsearch::testing
