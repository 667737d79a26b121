#pragma once
// sacreBLEU's reproducibility signature, e.g.
//   nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0
// Global fields (nrefs, bs, ar, seed) come first, then the metric's own, then the
// version. The version is the sacreBLEU release whose scores nmt-bleu reproduces, so a
// signature printed by nmt-bleu can be compared with one printed by sacreBLEU.
#include <optional>
#include <string>

#include "eval/metric.h"

namespace rnnsearch::eval {

// The sacreBLEU version whose computations and output nmt-bleu reproduces.
inline constexpr const char* kSacrebleuVersion = "2.6.0";

struct SignatureGlobals {
  std::optional<int> bootstrap_samples;  // "bs"
  std::optional<int> ar_trials;          // "ar"
  std::optional<std::string> seed;       // "seed"
};

std::string format_signature(const Metric& metric, const SignatureGlobals& globals, bool short_form);

}  // namespace rnnsearch::eval
