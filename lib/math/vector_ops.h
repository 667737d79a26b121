#pragma once
// Plain vector arithmetic over float rows, with cpu_isa()'s kernel (math/kernels/
// vector_kernels.cc): each operation rounded as the plain C++ beside it (IEEE float, no
// fused multiply-add), so every level of instruction sets and every CPU gives the same bits
// (Eigen's loops in the baseline build run at SSE2 width; these run at the CPU's).
#include "math/types.h"

namespace rnnsearch::math {

// Every row of m += row (1 x m.cols()): a bias.
void add_row_to_rows(MatrixRef m, const ConstMatrixRef& row);
// y[i] -= s.
void subtract_scalar(float s, float* y, long n);
// y[i] = a[i] * b[i], y apart from a and b.
void multiply(const float* a, const float* b, float* y, long n);
// The first i = from + 16 t (t >= 0) such that some x[i, i + 16) > worst (a NaN never is),
// or, when no whole block of 16 before count has one, the first such i with i + 16 > count.
int next_block_above(const float* x, int from, int count, float worst);
// Adam's step over n values: m = beta1 * m + (1 - beta1) * g;
// v = beta2 * v + (1 - beta2) * (g * g);  w -= step * m / (sqrt(v) * inv_sqrt_c2 + epsilon).
void adam_update(float* m, float* v, float* w, const float* g, long n, float beta1, float beta2, float step,
                 float inv_sqrt_c2, float epsilon);
// Adadelta's step over n values: eg2 = rho * eg2 + (1 - rho) * (g * g);
// dx = -(sqrt(edx2 + epsilon) / sqrt(eg2 + epsilon) * g); edx2 = rho * edx2 + (1 - rho) * (dx * dx);
// w += rate * dx.
void adadelta_update(float* eg2, float* edx2, float* w, const float* g, long n, float rho, float epsilon, float rate);

}  // namespace rnnsearch::math
