#include "nn/linear.h"

#include "math/gemm.h"
#include "math/shape_check.h"
#include "math/vector_ops.h"
#include "util/error.h"

namespace rnnsearch::nn {

using math::check_shape;
using math::shape_text;

Linear::Linear(ParameterRegistry& parameters, const std::string& name, int input_dim, int output_dim, bool bias)
    : weight_(parameters.add(name + ".W", input_dim, output_dim)) {
  if (bias) bias_ = &parameters.add(name + ".b", 1, output_dim);
}

void Linear::forward(const math::Matrix& x, math::Matrix& y) const {
  check_shape(x, x.rows(), input_dim(), weight_.name + " input x");
  y.resize(x.rows(), output_dim());
  math::gemm(x, math::Transpose::kNo, weight_.value, math::Transpose::kNo, y, 1.0f, 0.0f, weight_.name.c_str());
  if (bias_) math::add_row_to_rows(y, bias_->value);
}

void Linear::backward(const math::Matrix& x, const math::Matrix& dy, math::Matrix* dx) const {
  check_shape(dy, x.rows(), output_dim(), weight_.name + " gradient dy");
  math::gemm(x, math::Transpose::kYes, dy, math::Transpose::kNo, weight_.gradient, 1.0f, 1.0f,
             weight_.name.c_str());
  if (bias_) bias_->gradient.row(0) += dy.colwise().sum();
  if (dx) {
    check_shape(*dx, x.rows(), input_dim(), weight_.name + " gradient dx");
    math::gemm(dy, math::Transpose::kNo, weight_.value, math::Transpose::kYes, *dx, 1.0f, 1.0f,
               weight_.name.c_str());
  }
}

}  // namespace rnnsearch::nn
