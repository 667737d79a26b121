#pragma once
// Additive attention's score of one (row, position) pair, fused, for inference in reduced
// precision (nn::AdditiveAttention with packed weights):
//   tanh_dot(q, k, v, n) = sum_{a < n} v_a * fast_tanh(q_a + k_a)
// with no row of tanh values stored.
//
// fast_tanh(x) = y P(y^2) / Q(y^2), y = x clamped to [-5, 5], P and Q of degree 2 (Q(0) = 1),
// a near-minimax fit of tanh over [0, 10] clamp included: |fast_tanh(x) - tanh(x)| < 4.6e-5
// for every float x (checked on all floats of [0, 10]; fast_tanh is odd). For |x| >= 5 it
// is +-0.9999547, and |fast_tanh(x)| < 1 everywhere; a NaN gives NaN. The degree keeps the
// error far below what int8 or bf16 products already put into x (1e-3 relative and more).
// One IEEE division per element: a hardware reciprocal estimate would be cheaper but gives
// other bits on other CPUs, and refining a portable estimate costs more than the division.
//
// The arithmetic is one fixed sequence, so every kernel below gives the same bits, on
// every machine kind. Per element a:
//   x = q_a + k_a;  y = min(5, x), then max(-5, y) (each returning x, y when it is NaN);
//   s = y * y;  p = fma(fma(P2, s, P1), s, P0);  d = fma(fma(Q2, s, Q1), s, 1);  t = (y * p) / d;
//   lane[a % 16] = fma(v_a, t, lane[a % 16])    (16 lanes from +0, a ascending)
// then the lanes summed pairwise: l[i] += l[i + 8] (i < 8), l[i] += l[i + 4] (i < 4),
// l[i] += l[i + 2] (i < 2), result l[0] + l[1]. Elements past n add nothing.
#include "math/cpu_isa.h"

namespace rnnsearch::math {

// The approximation above, one value (the scalar kernel's arithmetic).
float fast_tanh(float x);

// sum_a h_a v_a over n >= 0 elements in the lanes and order above (lane[a % 16] =
// fma(h_a, v_a, lane[a % 16]), then the pairwise sum), with cpu_isa()'s kernel: the same
// bits from each (additive attention's exact fp32 scores).
float lane_dot(const float* h, const float* v, int n);

// sum_a v_a * fast_tanh(q_a + k_a) over n >= 0 elements.
using TanhDotFunction = float (*)(const float* q, const float* k, const float* v, int n);
// The kernel of `isa`'s level (a level up to cpu_isa()): scalar C++ (std::fma) on the
// baseline, two 8-float registers standing for the 16 lanes with AVX2, one 16-float
// register with AVX-512.
TanhDotFunction tanh_dot_function(CpuIsa isa = cpu_isa());

}  // namespace rnnsearch::math
