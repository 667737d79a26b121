#include "math/weighted_rows.h"

#include "math/kernel_tables.h"

namespace rnnsearch::math {

void weighted_rows(const float* weights, int span, const float* rows, long stride, int width, float* out) {
  dot_kernels(cpu_isa()).weighted_rows(weights, span, rows, stride, width, out);
}

}  // namespace rnnsearch::math
