#pragma once
// Layer normalisation of rows (Ba, Kiros and Hinton 2016), without its gain and bias, which
// the caller applies (nn::Gru keeps them as parameters):
//   x_hat = (x - mean(x)) / sqrt(var(x) + kLayerNormEpsilon),  mean and var over the row.
// Every sum runs in a fixed order of 8 lanes, the same whatever the row's address or the
// other rows: a row's numbers do not depend on its batch.
#include "math/types.h"

namespace rnnsearch::nn {

inline constexpr float kLayerNormEpsilon = 1e-5f;

// x_hat: same shape as x (may be x itself); inv_std[r] = 1 / sqrt(var + eps) of row r
// (x.rows() floats).
void layer_norm_rows(const math::ConstMatrixRef& x, math::MatrixRef x_hat, float* inv_std);

// The gradient through layer_norm_rows: d_x = inv_std (d_x_hat - mean(d_x_hat)
// - x_hat mean(d_x_hat x_hat)), row by row. d_x is overwritten and may be d_x_hat itself.
void layer_norm_rows_backward(const math::ConstMatrixRef& d_x_hat, const math::ConstMatrixRef& x_hat,
                              const float* inv_std, math::MatrixRef d_x);

}  // namespace rnnsearch::nn
