#pragma once
// Affine layer  y = x W + b,  x: [N x in], W: [in x out], b: [1 x out], y: [N x out].
// W is stored [in x out] so that the forward product needs no transpose.
//   backward:  dW += x^T dy,  db += sum_rows(dy),  dx += dy W^T
#include <string>

#include "math/types.h"
#include "nn/parameters.h"

namespace rnnsearch::nn {

class Linear {
 public:
  // Registers "<name>.W" and, with a bias, "<name>.b".
  Linear(ParameterRegistry& parameters, const std::string& name, int input_dim, int output_dim, bool bias = true);

  // y: [N x out] (resized). Throws util::Error when x is not [N x in].
  void forward(const math::Matrix& x, math::Matrix& y) const;
  // Adds the parameter gradients; adds dy W^T into *dx when dx is given ([N x in]).
  void backward(const math::Matrix& x, const math::Matrix& dy, math::Matrix* dx) const;

  int input_dim() const { return static_cast<int>(weight_.value.rows()); }
  int output_dim() const { return static_cast<int>(weight_.value.cols()); }
  Parameter& weight() { return weight_; }

 private:
  Parameter& weight_;
  Parameter* bias_ = nullptr;
};

}  // namespace rnnsearch::nn
