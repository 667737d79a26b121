#pragma once
// Parameter initialization of Bahdanau et al. (2015), appendix B.1: recurrent matrices
// orthogonal, other weights Gaussian with standard deviation 0.01 (0.001 for the
// attention vector's inputs in the paper), biases zero — all seeded through util::Rng.
#include "util/rng.h"
#include "math/types.h"

namespace rnnsearch::nn {

// Every entry drawn from N(0, stddev^2).
void fill_normal(math::Matrix& m, float stddev, util::Rng& rng);
// Each square block of m orthogonal: a [H x k*H] matrix is k orthogonal H x H blocks
// side by side (the GRU's U_zr), a [k*H x H] matrix k blocks stacked. Throws
// util::Error when neither side divides the other.
void fill_orthogonal(math::Matrix& m, util::Rng& rng);

}  // namespace rnnsearch::nn
