#pragma once
// Significance statistics over per-segment metric statistics, as sacreBLEU computes
// them: bootstrap confidence intervals (Koehn 2004), paired bootstrap resampling and
// paired approximate randomization (Riezler & Maxwell 2005) against a baseline.
//
// Resample k draws its segment indices from its own generator, seeded from (seed, k),
// so results do not depend on the thread count. The generator is the project's
// (util::Rng: xoshiro256**, unbiased bounded integers), not numpy's: figures follow
// sacreBLEU's method but not its random stream.
#include <cstdint>
#include <vector>

#include "eval/metric.h"

namespace rnnsearch::eval {

struct Confidence {
  double mean = 0.0;
  double ci = 0.0;  // half-width of the 95% interval: (upper - lower) / 2
};

// Mean and 95% interval of bootstrap scores (sacreBLEU's estimate_ci: the sorted
// scores at n/40 and n - n/40 - 1).
Confidence estimate_confidence(std::vector<double> scores);

// Scores of `samples` bootstrap resamples of each system's statistics under `metric`:
// result[s][k] is system s in resample k; every system sees the same resamples.
std::vector<std::vector<double>> bootstrap_scores(const Metric& metric,
                                                  const std::vector<const StatsMatrix*>& systems,
                                                  int samples, std::uint64_t seed, int threads);

// p-value of the paired bootstrap test: the share of resamples whose centred absolute
// difference exceeds the observed one, (c + 1) / (n + 1).
double paired_bootstrap_p_value(const std::vector<double>& baseline, const std::vector<double>& system,
                                double observed_difference);

// p-value of the paired approximate randomization test with `trials` random swaps of
// segment outputs between baseline and system.
double approximate_randomization_p_value(const Metric& metric, const StatsMatrix& baseline,
                                         const StatsMatrix& system, int trials, std::uint64_t seed,
                                         int threads);

// A seed from the operating system, for SACREBLEU_SEED=none.
std::uint64_t random_seed();

}  // namespace rnnsearch::eval
