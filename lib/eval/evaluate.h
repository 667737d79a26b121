#pragma once
// nmt-bleu's whole job as one library call: score the systems against the references
// with the configured metrics, and render what sacreBLEU would print.
#include <functional>
#include <string>
#include <vector>

#include "eval/eval_options.h"
#include "eval/eval_stream.h"

namespace rnnsearch::eval {

// Where evaluate() puts what it prints, as soon as it is known.
struct EvalPrinter {
  // Text for stdout, whole newline-terminated lines: with --sentence-level the scores of
  // each block of segments as it is scored, else the whole answer once, at the end.
  std::function<void(const std::string&)> output;
  // A line for stderr: before the answer, or after the sentence scores.
  std::function<void(const std::string&)> warning;
};

// nmt-bleu's library call: validates `config` (util::UsageError), opens its files and
// evaluates them as below.
void evaluate(const EvalOptions& config, const EvalPrinter& print);

// Reads `inputs` to their end in one pass, every metric at once, keeping per-segment
// statistics only where a statistical test needs them (else only their sums, added in
// segment order: the scores are the same to the bit); sentence scores are printed a block
// at a time and not kept. Throws util::Error for bad input (after printing the sentence
// scores of the blocks before it) and util::UsageError for impossible requests (e.g.
// several metrics at sentence level), before printing anything.
void evaluate(const EvalOptions& config, EvalStream& inputs, const EvalPrinter& print);

// All that evaluate() printed, kept: for tests.
struct EvalReport {
  std::string output;                 // for stdout, newline-terminated
  std::vector<std::string> warnings;  // for stderr, one line each
};
EvalReport evaluate(const EvalOptions& config, EvalStream& inputs);

}  // namespace rnnsearch::eval
