#include "nn/optimizer.h"

#include <algorithm>
#include <cmath>

#include "math/vector_ops.h"
#include "util/error.h"

namespace rnnsearch::nn {

void Optimizer::prepare(ParameterRegistry& parameters, std::vector<std::vector<math::Matrix>>& state, int slots) {
  const auto all = parameters.all();
  if (state.empty()) {
    for (const Parameter* p : all) {
      state.emplace_back(slots, math::Matrix::Zero(p->value.rows(), p->value.cols()));
    }
    return;
  }
  bool same = state.size() == all.size();
  for (std::size_t i = 0; same && i < all.size(); ++i) {
    same = state[i][0].rows() == all[i]->value.rows() && state[i][0].cols() == all[i]->value.cols();
  }
  if (!same) throw util::Error(name() + ": the parameters changed since the optimizer's first step");
}

Adam::Adam(float beta1, float beta2, float epsilon) : beta1_(beta1), beta2_(beta2), epsilon_(epsilon) {}

void Optimizer::step(ParameterRegistry& parameters, float learning_rate) {
  begin_step(parameters);
  update(parameters, learning_rate, 0, parameters.all().size());
}

void Optimizer::begin_step(ParameterRegistry& parameters) {
  allocate_state(parameters);
  ++steps_;
  prepare_step();
}

void Optimizer::update(ParameterRegistry& parameters, float learning_rate, std::size_t first, std::size_t last) {
  const auto all = parameters.all();
  for (std::size_t i = first; i < last; ++i) update_slice(*all[i], i, learning_rate, 0, all[i]->value.size());
}

void Adam::prepare_step() {
  correction1_ = 1.0 - std::pow(static_cast<double>(beta1_), static_cast<double>(steps_));
  const double correction2 = 1.0 - std::pow(static_cast<double>(beta2_), static_cast<double>(steps_));
  inv_sqrt_c2_ = static_cast<float>(1.0 / std::sqrt(correction2));
}

void Adam::update_slice(Parameter& parameter, std::size_t index, float learning_rate, Eigen::Index begin,
                        Eigen::Index end) {
  // w -= lr * (m / c1) / (sqrt(v / c2) + eps), written without temporaries. The square root
  // is the exact IEEE one at every level (math::adam_update): Eigen's vectorized sqrt is
  // the CPU's reciprocal-square-root estimate refined once, which CPU makers do not
  // specify bit for bit.
  const auto step_size = static_cast<float>(learning_rate / correction1_);
  const Eigen::Index n = end - begin;
  math::adam_update(moments_[index][0].data() + begin, moments_[index][1].data() + begin,
                    parameter.value.data() + begin, parameter.gradient.data() + begin, n, beta1_, beta2_, step_size,
                    inv_sqrt_c2_, epsilon_);
}

std::vector<math::Matrix*> Adam::state() {
  std::vector<math::Matrix*> out;
  for (auto& per_parameter : moments_) {
    for (auto& m : per_parameter) out.push_back(&m);
  }
  return out;
}

Adadelta::Adadelta(float rho, float epsilon) : rho_(rho), epsilon_(epsilon) {}

void Adadelta::update_slice(Parameter& parameter, std::size_t index, float learning_rate, Eigen::Index begin,
                            Eigen::Index end) {
  // The exact square root at every level, as Adam's (math::adadelta_update).
  const Eigen::Index n = end - begin;
  math::adadelta_update(averages_[index][0].data() + begin, averages_[index][1].data() + begin,
                        parameter.value.data() + begin, parameter.gradient.data() + begin, n, rho_, epsilon_,
                        learning_rate);
}

std::vector<math::Matrix*> Adadelta::state() {
  std::vector<math::Matrix*> out;
  for (auto& per_parameter : averages_) {
    for (auto& m : per_parameter) out.push_back(&m);
  }
  return out;
}

namespace {

constexpr Eigen::Index kNormBlock = 1024;  // squares summed in float, vectorized; blocks added in double
constexpr Eigen::Index kUpdateSlice = 4096;  // fused_update's slice: its gradient, state and values stay in cache

double block_square(const float* g, Eigen::Index count) {
  return static_cast<double>(Eigen::Map<const math::Vector>(g, count).squaredNorm());
}

}  // namespace

double squared_gradient_norm(const ParameterRegistry& parameters, std::size_t first, std::size_t last) {
  const auto all = parameters.all();
  double sum = 0.0;
  for (std::size_t k = first; k < last; ++k) {
    const math::Matrix& g = all[k]->gradient;
    for (Eigen::Index begin = 0; begin < g.size(); begin += kNormBlock) {
      sum += block_square(g.data() + begin, std::min(kNormBlock, g.size() - begin));
    }
  }
  return sum;
}

double add_gradients_and_square(Parameter& into, const std::vector<Parameter*>& from) {
  math::Matrix& g = into.gradient;
  for (const Parameter* other : from) {
    if (other->gradient.rows() != g.rows() || other->gradient.cols() != g.cols()) {
      throw util::Error("add_gradients_and_square: gradient of " + other->name + " differs in shape from " + into.name);
    }
  }
  double sum = 0.0;
  for (Eigen::Index begin = 0; begin < g.size(); begin += kNormBlock) {
    const Eigen::Index count = std::min(kNormBlock, g.size() - begin);
    Eigen::Map<math::Vector> block(g.data() + begin, count);
    for (Parameter* other : from) {
      Eigen::Map<math::Vector> theirs(other->gradient.data() + begin, count);
      block += theirs;
      theirs.setZero();
    }
    sum += block_square(block.data(), count);
  }
  return sum;
}

void fused_update(Optimizer& optimizer, ParameterRegistry& parameters, float learning_rate, float clip_factor,
                  std::size_t first, std::size_t last, const std::vector<ParameterRegistry*>& copies,
                  ExponentialSmoothing* smoothing) {
  const auto all = parameters.all();
  if (smoothing && smoothing->values().size() != all.size()) {
    throw util::Error("fused_update: the smoothed copy does not fit the parameters");
  }
  std::vector<std::vector<Parameter*>> theirs;
  for (ParameterRegistry* copy : copies) theirs.push_back(copy->all());
  for (std::size_t i = first; i < last; ++i) {
    Parameter& p = *all[i];
    for (const auto& other : theirs) {
      if (other.size() != all.size() || other[i]->value.rows() != p.value.rows() ||
          other[i]->value.cols() != p.value.cols()) {
        throw util::Error("fused_update: a copy's " + p.name + " differs in shape");
      }
    }
    for (Eigen::Index begin = 0; begin < p.value.size(); begin += kUpdateSlice) {
      const Eigen::Index count = std::min(kUpdateSlice, p.value.size() - begin);
      Eigen::Map<math::Vector> g(p.gradient.data() + begin, count);
      if (clip_factor != 1.0f) g *= clip_factor;
      optimizer.update_slice(p, i, learning_rate, begin, begin + count);
      if (smoothing) smoothing->update_slice(p, i, begin, begin + count);
      g.setZero();
      const Eigen::Map<const math::Vector> w(p.value.data() + begin, count);
      for (const auto& other : theirs) Eigen::Map<math::Vector>(other[i]->value.data() + begin, count) = w;
    }
  }
}

void scale_gradients(ParameterRegistry& parameters, float factor, std::size_t first, std::size_t last) {
  const auto all = parameters.all();
  for (std::size_t k = first; k < last; ++k) all[k]->gradient *= factor;
}

double gradient_norm(const ParameterRegistry& parameters) {
  return std::sqrt(squared_gradient_norm(parameters, 0, parameters.all().size()));
}

double clip_gradient_norm(ParameterRegistry& parameters, double max_norm) {
  const double norm = gradient_norm(parameters);
  if (max_norm > 0.0 && std::isfinite(norm) && norm > max_norm) {
    scale_gradients(parameters, static_cast<float>(max_norm / norm), 0, parameters.all().size());
  }
  return norm;
}

}  // namespace rnnsearch::nn
