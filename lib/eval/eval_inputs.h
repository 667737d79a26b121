#pragma once
// Reads what nmt-bleu scores: reference files (or one tab-separated file with
// --num-refs) and system outputs (files, or stdin with one tab-separated column per
// system), each line stripped of trailing whitespace as sacreBLEU does, with line
// counts checked against each other.
#include <string>
#include <vector>

#include "eval/eval_config.h"
#include "eval/metric.h"

namespace rnnsearch::eval {

struct SystemOutput {
  std::string name;  // the file name, or "System N" for stdin columns
  std::vector<std::string> lines;
};

struct EvalInputs {
  ReferenceSet references;
  std::vector<SystemOutput> systems;
};

// Throws util::Error naming the file and line for unreadable files, invalid UTF-8,
// wrong field counts, and line counts that differ between systems and references.
EvalInputs read_eval_inputs(const EvalConfig& config);

}  // namespace rnnsearch::eval
