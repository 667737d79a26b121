#pragma once
// Shape checks at layer entry: "<what> is [2 x 4], expected [2 x 5]" as util::Error.
#include <string>

#include "math/eigen.h"

#include "util/error.h"

namespace rnnsearch::math {

inline std::string shape_text(Eigen::Index rows, Eigen::Index cols) {
  return "[" + std::to_string(rows) + " x " + std::to_string(cols) + "]";
}

// Works for any Eigen matrix type (float matrices, index matrices).
template <typename M>
void check_shape(const M& m, Eigen::Index rows, Eigen::Index cols, const std::string& what) {
  if (m.rows() != rows || m.cols() != cols) {
    throw util::Error(what + " is " + shape_text(m.rows(), m.cols()) + ", expected " + shape_text(rows, cols));
  }
}

// The same for a check made at every step: the message, "<name> <role> is ...", is built
// only for a wrong shape.
template <typename M>
void check_shape(const M& m, Eigen::Index rows, Eigen::Index cols, const std::string& name, const char* role) {
  if (m.rows() != rows || m.cols() != cols) check_shape(m, rows, cols, name + " " + role);
}

}  // namespace rnnsearch::math
