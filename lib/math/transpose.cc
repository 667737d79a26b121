#include "math/transpose.h"

#include <algorithm>

namespace rnnsearch::math {

void transpose(const ConstMatrixRef& in, Matrix& out) {
  const Eigen::Index rows = in.rows(), cols = in.cols(), stride = in.outerStride();
  out.resize(cols, rows);
  constexpr Eigen::Index kTile = 16;  // a tile's rows are one cache line each, in and out
  const float* from = in.data();
  float* to = out.data();
  for (Eigen::Index r0 = 0; r0 < rows; r0 += kTile) {
    const Eigen::Index r1 = std::min(rows, r0 + kTile);
    for (Eigen::Index c0 = 0; c0 < cols; c0 += kTile) {
      const Eigen::Index c1 = std::min(cols, c0 + kTile);
      for (Eigen::Index c = c0; c < c1; ++c) {
        for (Eigen::Index r = r0; r < r1; ++r) to[c * rows + r] = from[r * stride + c];
      }
    }
  }
}

}  // namespace rnnsearch::math
