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
// Parameters that take a Matrix or, without a copy, a block of whole rows or columns of
// one (a step's rows of a [(T*B) x d] sequence, say): outerStride() floats from one row
// to the next.
using MatrixRef = Eigen::Ref<Matrix, 0, Eigen::OuterStride<>>;
using ConstMatrixRef = Eigen::Ref<const Matrix, 0, Eigen::OuterStride<>>;

}  // namespace rnnsearch::math
