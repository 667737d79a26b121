#include "nn/optimizer.h"

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

void Adam::step(ParameterRegistry& parameters, float learning_rate) {
  prepare(parameters, moments_, 2);
  ++steps_;
  const double correction1 = 1.0 - std::pow(static_cast<double>(beta1_), static_cast<double>(steps_));
  const double correction2 = 1.0 - std::pow(static_cast<double>(beta2_), static_cast<double>(steps_));
  // w -= lr * (m / c1) / (sqrt(v / c2) + eps), written without temporaries.
  const auto step_size = static_cast<float>(learning_rate / correction1);
  const auto inv_sqrt_c2 = static_cast<float>(1.0 / std::sqrt(correction2));
  const auto all = parameters.all();
  for (std::size_t i = 0; i < all.size(); ++i) {
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

void Adadelta::step(ParameterRegistry& parameters, float learning_rate) {
  prepare(parameters, averages_, 2);
  ++steps_;
  const auto all = parameters.all();
  for (std::size_t i = 0; i < all.size(); ++i) {
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

double gradient_norm(const ParameterRegistry& parameters) {
  double sum = 0.0;
  for (const Parameter* p : parameters.all()) {
    for (Eigen::Index i = 0; i < p->gradient.size(); ++i) {
      const double g = p->gradient.data()[i];
      sum += g * g;
    }
  }
  return std::sqrt(sum);
}

double clip_gradient_norm(ParameterRegistry& parameters, double max_norm) {
  const double norm = gradient_norm(parameters);
  if (max_norm > 0.0 && std::isfinite(norm) && norm > max_norm) {
    const auto scale = static_cast<float>(max_norm / norm);
    for (Parameter* p : parameters.all()) p->gradient *= scale;
  }
  return norm;
}

}  // namespace rnnsearch::nn
