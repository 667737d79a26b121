#include "nn/embedding.h"

#include "util/error.h"

namespace rnnsearch::nn {

Embedding::Embedding(ParameterRegistry& parameters, const std::string& name, int vocabulary_size, int dim)
    : table_(parameters.add(name + ".E", vocabulary_size, dim)) {}

void Embedding::forward(const std::vector<std::int32_t>& ids, math::Matrix& y) const {
  y.resize(static_cast<Eigen::Index>(ids.size()), dim());
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] < 0 || ids[i] >= vocabulary_size()) {
      throw util::Error(table_.name + ": token id " + std::to_string(ids[i]) + " outside the vocabulary of " +
                        std::to_string(vocabulary_size()));
    }
    y.row(static_cast<Eigen::Index>(i)) = table_.value.row(ids[i]);
  }
}

void Embedding::backward(const std::vector<std::int32_t>& ids, const math::Matrix& dy) const {
  if (dy.rows() != static_cast<Eigen::Index>(ids.size()) || dy.cols() != dim()) {
    throw util::Error(table_.name + ": gradient is [" + std::to_string(dy.rows()) + " x " + std::to_string(dy.cols()) +
                      "], expected [" + std::to_string(ids.size()) + " x " + std::to_string(dim()) + "]");
  }
  for (std::size_t i = 0; i < ids.size(); ++i) table_.gradient.row(ids[i]) += dy.row(static_cast<Eigen::Index>(i));
}

}  // namespace rnnsearch::nn
