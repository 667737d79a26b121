#pragma once
// Random matrices for the math tests: uniform in [-1, 1) or standard normal, from the
// caller's generator (so each test's draws stay its own).
#include <random>

#include "math/types.h"

namespace rnnsearch::testing {

inline math::Matrix uniform_matrix(int rows, int cols, std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  math::Matrix m(rows, cols);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) m(i, j) = u(rng);
  return m;
}

inline math::Matrix normal_matrix(int rows, int cols, std::mt19937& rng) {
  std::normal_distribution<float> normal;
  math::Matrix m(rows, cols);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) m(i, j) = normal(rng);
  return m;
}

}  // namespace rnnsearch::testing
