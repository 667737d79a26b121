#pragma once
// nmt-by-length's whole job as one library call: score one or several systems per
// source-length bucket (eval/length_buckets.h) and write the table and, when asked, the
// SVG chart (eval/length_chart.h).
#include <string>
#include <vector>

#include "eval/eval_options.h"
#include "eval/length_buckets.h"

namespace rnnsearch::eval {

struct ByLengthOptions {
  std::string source;     // source sentences: their length in words picks the bucket
  std::string reference;  // one reference file, line-aligned with the source
  EvalOptions eval;       // the systems (inputs), the BLEU options and the thread count
  std::vector<std::string> names;  // a name per system; empty: the file names
  std::string metric = "bleu";     // bleu, chrf or ter, with sacreBLEU's defaults
  LengthBucketOptions buckets;
  int decimals = 2;                // digits after the point in the table
  std::string output = "-";        // the table; "-" = stdout
  std::string svg;                 // the chart; empty = none

  // Throws util::UsageError naming the option that is missing or out of range, or -o and
  // --svg when they name one file.
  void validate() const;
};

// Validates `options`, reads the source, the reference and the systems in lockstep a
// block at a time (only statistics stay), and writes the table and the chart, each
// atomically. Throws util::Error when the source and reference differ in length.
void evaluate_by_length(const ByLengthOptions& options);

}  // namespace rnnsearch::eval
