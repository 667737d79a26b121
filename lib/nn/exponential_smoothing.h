#pragma once
// Exponential smoothing of the parameters (Marian's --exponential-smoothing): a second,
// fp32 copy s of every parameter w, moved toward w after each optimizer step,
//   s = (1 - d_t) s + d_t w,   d_t = max(decay, 9 / (t + 10)),
// where t counts the steps before this one and s starts as the parameters' values. The
// second term is Marian's 1 - (t + 1) / (t + 10): 0.9 after the first step, 0.009 after
// 1,000, so that s soon forgets the random start; it gives way to `decay` after
// 9 / decay - 10 steps (89,990 for 1e-4). Marian's optional correction for batches
// larger than a reference size (--mini-batch-words-ref) is not made: d_t is per step.
// Computed as s += d_t (w - s): a parameter that does not move (the frozen translation
// model under an alignment head) keeps s == w bit for bit, which (1 - d_t) s + d_t w
// would not promise.
#include <cstddef>
#include <vector>

#include "math/types.h"
#include "nn/parameters.h"

namespace rnnsearch::nn {

class ExponentialSmoothing {
 public:
  explicit ExponentialSmoothing(float decay);

  float decay() const { return decay_; }
  // d_t for the step that follows `steps_before` steps.
  float rate(long steps_before) const;
  // s := w for every parameter (a fresh start, or a resume without a saved copy).
  void reset(const ParameterRegistry& parameters);
  // Takes saved values (checkpoints), checking their shapes against `parameters`; throws
  // util::Error naming the first that does not fit.
  void restore(const ParameterRegistry& parameters, std::vector<math::Matrix> values);

  // One step in pieces, like nn::Optimizer's: begin_step once with the steps done
  // before, then update_slice for disjoint slices (possibly at the same time) after the
  // optimizer has updated them.
  void begin_step(long steps_before) { step_rate_ = rate(steps_before); }
  void update_slice(const Parameter& parameter, std::size_t index, Eigen::Index begin, Eigen::Index end);
  // begin_step, then every parameter whole.
  void step(const ParameterRegistry& parameters, long steps_before);

  // Exchanges s and w of every parameter (no copying): once to validate or save with s,
  // once more to go on training with w.
  void swap_with(ParameterRegistry& parameters);
  // Per parameter, in the registry's order.
  const std::vector<math::Matrix>& values() const { return smoothed_; }
  std::vector<math::Matrix>& values() { return smoothed_; }  // values may change, shapes must not

 private:
  float decay_;
  float step_rate_ = 0.0f;
  std::vector<math::Matrix> smoothed_;
};

}  // namespace rnnsearch::nn
