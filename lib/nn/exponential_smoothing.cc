#include "nn/exponential_smoothing.h"

#include <algorithm>
#include <utility>

#include "util/error.h"

namespace rnnsearch::nn {

ExponentialSmoothing::ExponentialSmoothing(float decay) : decay_(decay) {}

float ExponentialSmoothing::rate(long steps_before) const {
  const double early = 9.0 / (static_cast<double>(std::max(0L, steps_before)) + 10.0);
  return std::max(decay_, static_cast<float>(early));
}

void ExponentialSmoothing::reset(const ParameterRegistry& parameters) {
  smoothed_.clear();
  for (const Parameter* p : parameters.all()) smoothed_.push_back(p->value);
}

void ExponentialSmoothing::restore(const ParameterRegistry& parameters, std::vector<math::Matrix> values) {
  const auto all = parameters.all();
  if (values.size() != all.size()) {
    throw util::Error("the smoothed parameters are " + std::to_string(values.size()) + " matrices, the model has " +
                      std::to_string(all.size()));
  }
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (values[i].rows() != all[i]->value.rows() || values[i].cols() != all[i]->value.cols()) {
      throw util::Error("the smoothed copy of " + all[i]->name + " differs in shape from the parameter");
    }
  }
  smoothed_ = std::move(values);
}

void ExponentialSmoothing::update_slice(const Parameter& parameter, std::size_t index, Eigen::Index begin,
                                        Eigen::Index end) {
  const Eigen::Index n = end - begin;
  Eigen::Map<Eigen::ArrayXf> s(smoothed_[index].data() + begin, n);
  const Eigen::Map<const Eigen::ArrayXf> w(parameter.value.data() + begin, n);
  s += step_rate_ * (w - s);  // (1 - d) s + d w, which would move a parameter that stays put
}

void ExponentialSmoothing::step(const ParameterRegistry& parameters, long steps_before) {
  begin_step(steps_before);
  const auto all = parameters.all();
  for (std::size_t i = 0; i < all.size(); ++i) update_slice(*all[i], i, 0, all[i]->value.size());
}

void ExponentialSmoothing::swap_with(ParameterRegistry& parameters) {
  const auto all = parameters.all();
  if (all.size() != smoothed_.size()) throw util::Error("swap_with: the smoothed copy does not fit the parameters");
  for (std::size_t i = 0; i < all.size(); ++i) all[i]->value.swap(smoothed_[i]);
}

}  // namespace rnnsearch::nn
