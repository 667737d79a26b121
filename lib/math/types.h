#pragma once
// Matrices are row-major float buffers, one row per sentence (per step); Eigen views
// them without copying, so layers can use Eigen expressions for elementwise work while
// every product goes through math::gemm.
#include "math/eigen.h"

namespace rnnsearch::math {

using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Vector = Eigen::Matrix<float, Eigen::Dynamic, 1>;
using MatrixMap = Eigen::Map<Matrix>;
using ConstMatrixMap = Eigen::Map<const Matrix>;

}  // namespace rnnsearch::math
