#pragma once
// Builds the metrics named on the command line ("bleu", "chrf", "ter") from an EvalOptions.
#include <memory>
#include <string>

#include "eval/eval_options.h"
#include "eval/metric.h"

namespace rnnsearch::eval {

// `sentence_level` forces BLEU's effective order, as sacreBLEU does for sentence scores.
std::unique_ptr<Metric> make_metric(const std::string& name, const EvalOptions& config,
                                    const ReferenceSet& references, bool sentence_level);

}  // namespace rnnsearch::eval
