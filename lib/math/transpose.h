#pragma once
// out = in^T for row-major matrices, in tiles of 16 x 16 that stay in cache (Eigen's
// `out = in.transpose()` reads a column at a time, a cache line and often a page per
// float: about four times slower on the 512 x 1536 weights the backward passes transpose).
// A copy, so the bits are the input's.
#include "math/types.h"

namespace rnnsearch::math {

// in: [rows x cols] (any row stride); out: [cols x rows] (resized).
void transpose(const ConstMatrixRef& in, Matrix& out);

}  // namespace rnnsearch::math
