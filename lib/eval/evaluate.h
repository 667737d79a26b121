#pragma once
// nmt-bleu's whole job as one library call: score the systems against the references
// with the configured metrics, and render what sacreBLEU would print.
#include <string>
#include <vector>

#include "eval/eval_options.h"
#include "eval/eval_stream.h"

namespace rnnsearch::eval {

struct EvalReport {
  std::string output;                 // for stdout, newline-terminated
  std::vector<std::string> warnings;  // for stderr, one line each
};

// nmt-bleu's library call: validates `config` (util::UsageError), opens its files and
// evaluates them as below.
EvalReport evaluate(const EvalOptions& config);

// Reads `inputs` to their end in one pass, every metric at once, keeping per-segment
// statistics only where sentence scores or a statistical test need them (else only
// their sums, added in segment order: the scores are the same to the bit).
// Throws util::Error for bad input and util::UsageError for impossible requests
// (e.g. several metrics at sentence level).
EvalReport evaluate(const EvalOptions& config, EvalStream& inputs);

}  // namespace rnnsearch::eval
