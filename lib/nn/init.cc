#include "nn/init.h"

#include "math/eigen.h"  // before any other Eigen header: it sets how Eigen is built

#include <Eigen/QR>

#include "math/shape_check.h"
#include "util/error.h"

namespace rnnsearch::nn {
namespace {

// A random orthogonal n x n matrix: Q of the QR decomposition of a Gaussian matrix,
// with column signs fixed by R's diagonal so that Q is uniformly distributed.
Eigen::MatrixXd random_orthogonal(Eigen::Index n, util::Rng& rng) {
  Eigen::MatrixXd g(n, n);
  for (Eigen::Index i = 0; i < g.size(); ++i) g.data()[i] = rng.normal();
  Eigen::HouseholderQR<Eigen::MatrixXd> qr(g);
  Eigen::MatrixXd q = qr.householderQ();
  const Eigen::MatrixXd r = qr.matrixQR();
  for (Eigen::Index j = 0; j < n; ++j) {
    if (r(j, j) < 0) q.col(j) *= -1.0;
  }
  return q;
}

}  // namespace

void fill_normal(math::Matrix& m, float stddev, util::Rng& rng) {
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = stddev * rng.normal();
}

void fill_orthogonal(math::Matrix& m, util::Rng& rng) {
  const Eigen::Index rows = m.rows(), cols = m.cols();
  if (rows == 0 || cols == 0) return;
  if (cols % rows == 0) {
    for (Eigen::Index b = 0; b < cols / rows; ++b) m.block(0, b * rows, rows, rows) = random_orthogonal(rows, rng).cast<float>();
  } else if (rows % cols == 0) {
    for (Eigen::Index b = 0; b < rows / cols; ++b) m.block(b * cols, 0, cols, cols) = random_orthogonal(cols, rng).cast<float>();
  } else {
    throw util::Error("orthogonal initialization needs square blocks, got " + math::shape_text(rows, cols));
  }
}

}  // namespace rnnsearch::nn
