#include "nn/optimizer.h"

#include <algorithm>
#include <cmath>

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
}

void Adam::update(ParameterRegistry& parameters, float learning_rate, std::size_t first, std::size_t last) {
  const double correction1 = 1.0 - std::pow(static_cast<double>(beta1_), static_cast<double>(steps_));
  const double correction2 = 1.0 - std::pow(static_cast<double>(beta2_), static_cast<double>(steps_));
  // w -= lr * (m / c1) / (sqrt(v / c2) + eps), written without temporaries.
  const auto step_size = static_cast<float>(learning_rate / correction1);
  const auto inv_sqrt_c2 = static_cast<float>(1.0 / std::sqrt(correction2));
  const auto all = parameters.all();
  for (std::size_t i = first; i < last; ++i) {
    math::Matrix& m = moments_[i][0];
    math::Matrix& v = moments_[i][1];
    const math::Matrix& g = all[i]->gradient;
    m = beta1_ * m + (1.0f - beta1_) * g;
    v = beta2_ * v + (1.0f - beta2_) * g.cwiseProduct(g);
    all[i]->value.array() -= step_size * m.array() / (v.array().sqrt() * inv_sqrt_c2 + epsilon_);
  }
}

std::vector<math::Matrix*> Adam::state() {
  std::vector<math::Matrix*> out;
  for (auto& per_parameter : moments_) {
    for (auto& m : per_parameter) out.push_back(&m);
  }
  return out;
}

Adadelta::Adadelta(float rho, float epsilon) : rho_(rho), epsilon_(epsilon) {}

void Adadelta::update(ParameterRegistry& parameters, float learning_rate, std::size_t first, std::size_t last) {
  const auto all = parameters.all();
  for (std::size_t i = first; i < last; ++i) {
    math::Matrix& eg2 = averages_[i][0];
    math::Matrix& edx2 = averages_[i][1];
    const math::Matrix& g = all[i]->gradient;
    eg2 = rho_ * eg2 + (1.0f - rho_) * g.cwiseProduct(g);
    const math::Matrix dx =
        -((edx2.array() + epsilon_).sqrt() / (eg2.array() + epsilon_).sqrt() * g.array()).matrix();
    edx2 = rho_ * edx2 + (1.0f - rho_) * dx.cwiseProduct(dx);
    all[i]->value += learning_rate * dx;
  }
}

std::vector<math::Matrix*> Adadelta::state() {
  std::vector<math::Matrix*> out;
  for (auto& per_parameter : averages_) {
    for (auto& m : per_parameter) out.push_back(&m);
  }
  return out;
}

double squared_gradient_norm(const ParameterRegistry& parameters, std::size_t first, std::size_t last) {
  const auto all = parameters.all();
  double sum = 0.0;
  constexpr Eigen::Index kBlock = 1024;  // summed in float, vectorized; blocks added in double
  for (std::size_t k = first; k < last; ++k) {
    const math::Matrix& g = all[k]->gradient;
    for (Eigen::Index begin = 0; begin < g.size(); begin += kBlock) {
      const Eigen::Index count = std::min(kBlock, g.size() - begin);
      sum += static_cast<double>(Eigen::Map<const math::Vector>(g.data() + begin, count).squaredNorm());
    }
  }
  return sum;
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
