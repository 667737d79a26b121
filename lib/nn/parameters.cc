#include "nn/parameters.h"

#include "util/error.h"

namespace rnnsearch::nn {

Parameter& ParameterRegistry::add(const std::string& name, int rows, int cols) {
  if (index_.count(name)) throw util::Error("parameter '" + name + "' is registered twice");
  if (rows < 0 || cols < 0) {
    throw util::Error("parameter '" + name + "' has a negative shape [" + std::to_string(rows) + " x " +
                      std::to_string(cols) + "]");
  }
  index_[name] = parameters_.size();
  parameters_.push_back({name, math::Matrix::Zero(rows, cols),
                         storage_ == GradientStorage::kEager ? math::Matrix::Zero(rows, cols) : math::Matrix()});
  return parameters_.back();
}

Parameter& ParameterRegistry::get(const std::string& name) {
  const auto it = index_.find(name);
  if (it == index_.end()) throw util::Error("no parameter named '" + name + "'");
  return parameters_[it->second];
}

const Parameter& ParameterRegistry::get(const std::string& name) const {
  const auto it = index_.find(name);
  if (it == index_.end()) throw util::Error("no parameter named '" + name + "'");
  return parameters_[it->second];
}

std::vector<Parameter*> ParameterRegistry::all() {
  std::vector<Parameter*> out;
  for (auto& p : parameters_) out.push_back(&p);
  return out;
}

std::vector<const Parameter*> ParameterRegistry::all() const {
  std::vector<const Parameter*> out;
  for (const auto& p : parameters_) out.push_back(&p);
  return out;
}

void ParameterRegistry::zero_gradients() {
  for (auto& p : parameters_) p.gradient.setZero(p.value.rows(), p.value.cols());
}

void ParameterRegistry::allocate_gradients() {
  for (auto& p : parameters_) {
    if (p.gradient.rows() != p.value.rows() || p.gradient.cols() != p.value.cols()) {
      p.gradient.setZero(p.value.rows(), p.value.cols());
    }
  }
}

std::size_t ParameterRegistry::scalar_count() const {
  std::size_t n = 0;
  for (const auto& p : parameters_) n += static_cast<std::size_t>(p.value.size());
  return n;
}

}  // namespace rnnsearch::nn
