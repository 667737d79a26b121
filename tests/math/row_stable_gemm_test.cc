// math::row_stable_gemm: the product is right (against double), and a row's bits do not
// depend on how many rows are multiplied with it, where it sits among them, what they
// hold, or whether math::gemm reached it through a RowStableProducts scope.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstring>
#include <random>

#include "math/gemm.h"
#include "support/random_matrix.h"
#include "math/row_stable_gemm.h"

using namespace rnnsearch::math;

namespace {

Matrix random_matrix(int rows, int cols, std::mt19937& rng) { return rnnsearch::testing::normal_matrix(rows, cols, rng); }

// row_stable_gemm over whole matrices: c = alpha * a * op(b) + beta * c.
void multiply(const Matrix& a, const Matrix& b, Transpose tb, Matrix& c, float alpha, float beta) {
  const int n = static_cast<int>(tb == Transpose::kNo ? b.cols() : b.rows());
  row_stable_gemm(tb, static_cast<int>(a.rows()), n, static_cast<int>(a.cols()), alpha, a.data(),
                  static_cast<int>(a.cols()), b.data(), static_cast<int>(b.cols()), beta, c.data(),
                  static_cast<int>(c.cols()));
}

bool same_bits(const float* x, const float* y, Eigen::Index count) {
  return std::memcmp(x, y, static_cast<std::size_t>(count) * sizeof(float)) == 0;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(row_stable_gemm_suite)

BOOST_AUTO_TEST_CASE(matches_a_double_product_with_alpha_and_beta) {
  std::mt19937 rng(3);
  // k = 300 crosses the 128-deep blocks; n = 37 leaves a partial column panel; m = 13 a partial row tile.
  for (const Transpose tb : {Transpose::kNo, Transpose::kYes}) {
    const int m = 13, n = 37, k = 300;
    const Matrix a = random_matrix(m, k, rng);
    const Matrix b = tb == Transpose::kNo ? random_matrix(k, n, rng) : random_matrix(n, k, rng);
    const Matrix old = random_matrix(m, n, rng);
    Matrix c = old;
    multiply(a, b, tb, c, 0.5f, 2.0f);
    double worst = 0;
    for (int i = 0; i < m; ++i) {
      for (int j = 0; j < n; ++j) {
        double sum = 0;
        for (int p = 0; p < k; ++p) sum += double(a(i, p)) * (tb == Transpose::kNo ? b(p, j) : b(j, p));
        worst = std::max(worst, std::abs(0.5 * sum + 2.0 * old(i, j) - c(i, j)));
      }
    }
    BOOST_TEST(worst < 1e-3);  // |sum| ~ sqrt(300): float rounding over 300 terms
  }
}

// The arithmetic is fixed, not left to the vector width: each element of a * b is the
// fused multiply-add chain over k in order, and of a * b^T eight such lanes added in a
// fixed tree. So the AVX-512, AVX2 and scalar builds give the same bits.
BOOST_AUTO_TEST_CASE(every_element_is_the_documented_chain_of_fused_multiply_adds) {
  std::mt19937 rng(11);
  for (const Transpose tb : {Transpose::kNo, Transpose::kYes}) {
    for (const int k : {1, 9, 255, 256, 600}) {
      const int m = 14, n = 71;  // partial row tiles and column panels of either width
      const Matrix a = random_matrix(m, k, rng);
      const Matrix b = tb == Transpose::kNo ? random_matrix(k, n, rng) : random_matrix(n, k, rng);
      Matrix c(m, n);
      multiply(a, b, tb, c, 1.0f, 0.0f);
      bool all_equal = true;
      for (int i = 0; i < m; ++i) {
        for (int j = 0; j < n; ++j) {
          float expected = 0.0f;
          if (tb == Transpose::kNo) {
            for (int p = 0; p < k; ++p) expected = std::fma(a(i, p), b(p, j), expected);
          } else {
            float lane[8] = {};
            const int whole = k - k % 8;
            for (int p = 0; p < whole; ++p) lane[p % 8] = std::fma(a(i, p), b(j, p), lane[p % 8]);
            expected = ((lane[0] + lane[4]) + (lane[2] + lane[6])) + ((lane[1] + lane[5]) + (lane[3] + lane[7]));
            for (int p = whole; p < k; ++p) expected = std::fma(a(i, p), b(j, p), expected);
          }
          all_equal = all_equal && std::memcmp(&expected, &c(i, j), sizeof(float)) == 0;
        }
      }
      BOOST_TEST_INFO("k " << k << (tb == Transpose::kNo ? ", a * b" : ", a * b^T"));
      BOOST_TEST(all_equal);
    }
  }
}

BOOST_AUTO_TEST_CASE(a_row_is_the_same_bits_whatever_rows_surround_it) {
  std::mt19937 rng(5);
  for (const Transpose tb : {Transpose::kNo, Transpose::kYes}) {
    for (const int k : {1, 7, 128, 500}) {
      const int n = 53;
      const Matrix b = tb == Transpose::kNo ? random_matrix(k, n, rng) : random_matrix(n, k, rng);
      const Matrix row = random_matrix(1, k, rng);
      Matrix alone(1, n);
      multiply(row, b, tb, alone, 1.0f, 0.0f);
      for (const int m : {2, 5, 6, 7, 13, 32, 64, 100}) {
        for (const int position : {0, m / 2, m - 1}) {
          Matrix a = random_matrix(m, k, rng);
          a.row(position) = row;
          Matrix c(m, n);
          multiply(a, b, tb, c, 1.0f, 0.0f);
          BOOST_TEST_INFO("k " << k << ", " << m << " rows, position " << position);
          BOOST_TEST(same_bits(c.row(position).data(), alone.data(), n));
        }
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(gemm_multiplies_row_stably_inside_a_scope_and_with_the_backend_outside) {
  std::mt19937 rng(11);
  const int m = 40, n = 1536, k = 512;  // a decoder GRU's shape
  const Matrix a = random_matrix(m, k, rng), b = random_matrix(k, n, rng);
  Matrix expected(m, n);
  multiply(a, b, Transpose::kNo, expected, 1.0f, 0.0f);
  Matrix c(m, n);
  {
    const RowStableProducts scope;
    {
      const RowStableProducts nested;
    }
    gemm(a, Transpose::kNo, b, Transpose::kNo, c);  // the nested scope's end left this one on
    BOOST_TEST(same_bits(c.data(), expected.data(), c.size()));
  }
  gemm(a, Transpose::kNo, b, Transpose::kNo, c);  // the backend again: right, maybe other bits
  BOOST_TEST((c - expected).cwiseAbs().maxCoeff() < 1e-3f);
}

BOOST_AUTO_TEST_SUITE_END()
