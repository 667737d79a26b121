#pragma once
// Optimizers update every parameter of a registry from its accumulated gradient. They
// keep one state matrix (or two) per parameter, aligned with the registry's order; the
// learning rate comes with each step so that schedules (warm-up, decay on plateau) stay
// outside. State is exposed for checkpoints.
#include <string>
#include <vector>

#include "math/types.h"
#include "nn/exponential_smoothing.h"
#include "nn/parameters.h"

namespace rnnsearch::nn {

class Optimizer {
 public:
  virtual ~Optimizer() = default;
  // One update with the registry's current gradients (which it leaves as they are):
  // begin_step, then update over every parameter. Throws util::Error if the registry's
  // parameters changed since the first step.
  void step(ParameterRegistry& parameters, float learning_rate);
  // The same step in pieces, for updates split across threads: begin_step once, then
  // update for disjoint ranges [first, last) of the registry's order, possibly at the
  // same time; together they do exactly what step does.
  void begin_step(ParameterRegistry& parameters);
  void update(ParameterRegistry& parameters, float learning_rate, std::size_t first, std::size_t last);
  // The step of elements [begin, end) (row-major) of parameter `index` of the registry
  // begin_step saw: update is this over whole parameters, and a pass that clips, steps,
  // zeroes and copies one slice at a time (fused_update) is this over slices. Slices of
  // one step may run at the same time.
  virtual void update_slice(Parameter& parameter, std::size_t index, float learning_rate, Eigen::Index begin,
                            Eigen::Index end) = 0;
  virtual std::string name() const = 0;
  // Sizes the state for `parameters` (zeros) if no step has done it yet, so that a
  // checkpoint's state can be copied in before the first step.
  virtual void allocate_state(ParameterRegistry& parameters) = 0;
  // Per-parameter state matrices and the step count, for checkpoints.
  virtual std::vector<math::Matrix*> state() = 0;
  long steps() const { return steps_; }
  void set_steps(long steps) { steps_ = steps; }

 protected:
  // Sizes `slots` state matrices per parameter on the first step; checks them after.
  void prepare(ParameterRegistry& parameters, std::vector<std::vector<math::Matrix>>& state, int slots);
  // What the step's slices share (Adam's bias corrections), set by begin_step once steps_ counts the step.
  virtual void prepare_step() {}
  long steps_ = 0;
};

// Adam (Kingma & Ba 2015) with bias correction:
//   m = b1 m + (1-b1) g;  v = b2 v + (1-b2) g^2;  w -= lr * m^ / (sqrt(v^) + eps),
//   m^ = m / (1 - b1^t),  v^ = v / (1 - b2^t).
class Adam : public Optimizer {
 public:
  Adam(float beta1 = 0.9f, float beta2 = 0.999f, float epsilon = 1e-8f);
  void update_slice(Parameter& parameter, std::size_t index, float learning_rate, Eigen::Index begin,
                    Eigen::Index end) override;
  std::string name() const override { return "adam"; }
  void allocate_state(ParameterRegistry& parameters) override { prepare(parameters, moments_, 2); }
  std::vector<math::Matrix*> state() override;

 private:
  void prepare_step() override;

  float beta1_, beta2_, epsilon_;
  double correction1_ = 1.0;   // 1 - b1^t of the step
  float inv_sqrt_c2_ = 1.0f;   // 1 / sqrt(1 - b2^t)
  std::vector<std::vector<math::Matrix>> moments_;  // per parameter: {m, v}
};

// Adadelta (Zeiler 2012), the optimizer of Bahdanau et al. (rho 0.95, eps 1e-6):
//   E[g^2] = rho E[g^2] + (1-rho) g^2;  dx = -sqrt(E[dx^2] + eps) / sqrt(E[g^2] + eps) * g;
//   E[dx^2] = rho E[dx^2] + (1-rho) dx^2;  w += lr * dx  (lr 1 in the paper).
class Adadelta : public Optimizer {
 public:
  Adadelta(float rho = 0.95f, float epsilon = 1e-6f);
  void update_slice(Parameter& parameter, std::size_t index, float learning_rate, Eigen::Index begin,
                    Eigen::Index end) override;
  std::string name() const override { return "adadelta"; }
  void allocate_state(ParameterRegistry& parameters) override { prepare(parameters, averages_, 2); }
  std::vector<math::Matrix*> state() override;

 private:
  float rho_, epsilon_;
  std::vector<std::vector<math::Matrix>> averages_;  // per parameter: {E[g^2], E[dx^2]}
};

// The L2 norm of all gradients together (NaN or inf when any gradient is).
double gradient_norm(const ParameterRegistry& parameters);
// The sum of squared gradients of parameters [first, last) in registry order, and the
// gradients of that range scaled by `factor`: the pieces of clipping for split updates.
double squared_gradient_norm(const ParameterRegistry& parameters, std::size_t first, std::size_t last);
void scale_gradients(ParameterRegistry& parameters, float factor, std::size_t first, std::size_t last);
// Scales all gradients so that their joint norm is at most max_norm (no-op when
// max_norm <= 0 or the norm is not finite). Returns the norm before clipping.
double clip_gradient_norm(ParameterRegistry& parameters, double max_norm);

// Data-parallel sums in one pass: into.gradient += the gradients of `from` (in order), which
// are zeroed; returns squared_gradient_norm of the sum. The bits of adding, zeroing and
// measuring one after the other, with each block still in cache.
double add_gradients_and_square(Parameter& into, const std::vector<Parameter*>& from);

// One optimizer step of parameters [first, last) (after optimizer.begin_step), a slice at
// a time: the slice's gradient scaled by clip_factor (unless 1), the step, the smoothed
// copy moved toward the new values (when `smoothing` is given, after its begin_step), the
// gradient zeroed, the new values copied into the same parameters of `copies` (registries
// of the same layout). The bits of scale_gradients, update, smoothing, zeroing and
// copying in turn.
void fused_update(Optimizer& optimizer, ParameterRegistry& parameters, float learning_rate, float clip_factor,
                  std::size_t first, std::size_t last, const std::vector<ParameterRegistry*>& copies,
                  ExponentialSmoothing* smoothing = nullptr);

}  // namespace rnnsearch::nn
