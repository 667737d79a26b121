// math::gemm against a naive product, for every transpose combination, with
// accumulation (beta), on blocks of larger matrices, and shape errors.
#include <boost/test/unit_test.hpp>
#include <random>
#include <string>
#include <vector>

#include "math/gemm.h"
#include "support/random_matrix.h"
#include "math/gemm_kernels.h"
#include "util/error.h"

using namespace rnnsearch::math;

namespace {

Matrix random_matrix(int rows, int cols, std::mt19937& rng) { return rnnsearch::testing::uniform_matrix(rows, cols, rng); }

// c = alpha * op(a) op(b) + beta * c, one multiply-add at a time, in double.
Matrix naive(const Matrix& a, bool ta, const Matrix& b, bool tb, const Matrix& c, float alpha, float beta) {
  const Matrix oa = ta ? Matrix(a.transpose()) : a;
  const Matrix ob = tb ? Matrix(b.transpose()) : b;
  Matrix out(c.rows(), c.cols());
  for (int i = 0; i < out.rows(); ++i) {
    for (int j = 0; j < out.cols(); ++j) {
      double sum = 0;
      for (int k = 0; k < oa.cols(); ++k) sum += static_cast<double>(oa(i, k)) * ob(k, j);
      out(i, j) = static_cast<float>(alpha * sum + beta * c(i, j));
    }
  }
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(gemm_suite)

BOOST_AUTO_TEST_CASE(matches_a_naive_product_for_every_transpose_with_every_backend) {
  std::mt19937 rng(7);
  const int m = 13, n = 7, k = 29;
  std::vector<GemmBackend> backends = {GemmBackend::kOpenBlas};
  if (onednn_built_in()) backends.push_back(GemmBackend::kOneDnn);
  const GemmBackend chosen = gemm_backend_in_use();
  for (GemmBackend backend : backends) {
    use_gemm_backend(backend);
    for (bool ta : {false, true}) {
      for (bool tb : {false, true}) {
        const Matrix a = ta ? random_matrix(k, m, rng) : random_matrix(m, k, rng);
        const Matrix b = tb ? random_matrix(n, k, rng) : random_matrix(k, n, rng);
        Matrix c = random_matrix(m, n, rng);
        const Matrix expected = naive(a, ta, b, tb, c, 0.5f, 2.0f);
        gemm(a, ta ? Transpose::kYes : Transpose::kNo, b, tb ? Transpose::kYes : Transpose::kNo, c, 0.5f, 2.0f);
        BOOST_TEST_CONTEXT(gemm_backend()) { BOOST_TEST((c - expected).cwiseAbs().maxCoeff() < 1e-4f); }
      }
    }
  }
  use_gemm_backend(chosen);
}

BOOST_AUTO_TEST_CASE(backend_names_parse_and_a_missing_backend_is_refused) {
  BOOST_TEST((parse_gemm_backend("onednn") == GemmBackend::kOneDnn));
  BOOST_TEST((parse_gemm_backend("openblas") == GemmBackend::kOpenBlas));
  BOOST_CHECK_EXCEPTION(parse_gemm_backend("mkl"), rnnsearch::util::UsageError, [](const auto& e) {
    return std::string(e.what()) == "RNNSEARCH_GEMM_BACKEND=mkl: expected onednn or openblas";
  });
  if (!onednn_built_in()) BOOST_CHECK_THROW(use_gemm_backend(GemmBackend::kOneDnn), rnnsearch::util::Error);
  BOOST_TEST((default_gemm_backend() == (onednn_built_in() ? GemmBackend::kOneDnn : GemmBackend::kOpenBlas)));
}

BOOST_AUTO_TEST_CASE(wrong_shapes_are_an_error_naming_both) {
  Matrix a(2, 3), b(4, 5), c(2, 5);
  try {
    gemm(a, Transpose::kNo, b, Transpose::kNo, c, 1.0f, 0.0f, "attention keys");
    BOOST_FAIL("no error");
  } catch (const rnnsearch::util::Error& e) {
    BOOST_TEST(std::string(e.what()) ==
               "attention keys: cannot multiply op(A) [2 x 3] by op(B) [4 x 5] into C [2 x 5]");
  }
}

BOOST_AUTO_TEST_CASE(views_multiply_blocks_in_place_and_leave_the_rest) {
  std::mt19937 rng(11);
  const Matrix big_a = random_matrix(9, 12, rng), big_b = random_matrix(12, 10, rng);
  Matrix big_c = random_matrix(8, 9, rng);
  const Matrix before = big_c;
  for (bool tb : {false, true}) {
    big_c = before;
    // A: a 5 x 7 block of big_a; B: a 7 x 4 block (or the 4 x 7 block of the transpose
    // holding the same numbers); C: a 5 x 4 block of big_c, whose other entries stay.
    const Matrix b_source = tb ? Matrix(big_b.transpose()) : big_b;
    const auto a = big_a.block(2, 4, 5, 7);
    const auto b = tb ? b_source.block(1, 3, 4, 7) : b_source.block(3, 1, 7, 4);
    const Matrix expected = naive(a, false, b, tb, big_c.block(1, 5, 5, 4), 1.0f, 1.0f);
    gemm(a, Transpose::kNo, b, tb ? Transpose::kYes : Transpose::kNo, big_c.block(1, 5, 5, 4), 1.0f, 1.0f);
    BOOST_TEST((big_c.block(1, 5, 5, 4) - expected).cwiseAbs().maxCoeff() < 1e-4f);
    Matrix outside = big_c - before;
    outside.block(1, 5, 5, 4).setZero();
    BOOST_TEST(outside.cwiseAbs().maxCoeff() == 0.0f);
  }
  // A view keeps its parent's stride.
  const ConstMatrixView view = big_a.middleCols(3, 2);
  BOOST_TEST(view.rows == 9);
  BOOST_TEST(view.cols == 2);
  BOOST_TEST(view.stride == 12);
  BOOST_TEST(view.data == big_a.data() + 3);
}

BOOST_AUTO_TEST_CASE(empty_products_leave_c_alone) {
  Matrix a(0, 3), b(3, 4), c(0, 4);
  BOOST_CHECK_NO_THROW(gemm(a, Transpose::kNo, b, Transpose::kNo, c));
}

BOOST_AUTO_TEST_SUITE_END()
