#pragma once
// Embedding lookup  y_i = E[id_i],  E: [V x d], ids: N token ids, y: [N x d].
//   backward:  dE[id_i] += dy_i  (rows of repeated ids accumulate)
#include <cstdint>
#include <string>
#include <vector>

#include "math/types.h"
#include "nn/parameters.h"

namespace rnnsearch::nn {

class Embedding {
 public:
  // Registers "<name>.E".
  Embedding(ParameterRegistry& parameters, const std::string& name, int vocabulary_size, int dim);

  // y: [N x d] (resized). Throws util::Error for an id outside [0, V).
  void forward(const std::vector<std::int32_t>& ids, math::Matrix& y) const;
  void backward(const std::vector<std::int32_t>& ids, const math::Matrix& dy) const;

  int vocabulary_size() const { return static_cast<int>(table_.value.rows()); }
  int dim() const { return static_cast<int>(table_.value.cols()); }

 private:
  Parameter& table_;
};

}  // namespace rnnsearch::nn
