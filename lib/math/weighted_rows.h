#pragma once
// Attention's context for inference, row by row: a weighted sum of annotation rows whose
// bits do not depend on the batch or the machine.

namespace rnnsearch::math {

// out[0, width) = sum over j < span, in order, of weights[j] * rows[j][0, width) (row j at
// rows + j * stride), each element one fused multiply-add chain from +0: the bits of
// `c += w * h` row by row with fma, with the sums held in registers across the positions
// (cpu_isa()'s kernel; every level gives the same bits).
void weighted_rows(const float* weights, int span, const float* rows, long stride, int width, float* out);

}  // namespace rnnsearch::math
