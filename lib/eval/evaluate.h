#pragma once
// nmt-bleu's whole job as one library call: score the systems against the references
// with the configured metrics, and render what sacreBLEU would print.
#include <string>
#include <vector>

#include "eval/eval_config.h"
#include "eval/eval_inputs.h"

namespace rnnsearch::eval {

struct EvalReport {
  std::string output;                 // for stdout, newline-terminated
  std::vector<std::string> warnings;  // for stderr, one line each
};

// Throws util::Error for bad input and util::UsageError for impossible requests
// (e.g. several metrics at sentence level).
EvalReport evaluate(const EvalConfig& config, const EvalInputs& inputs);

}  // namespace rnnsearch::eval
