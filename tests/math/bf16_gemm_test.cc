// Training's bf16 products (math/bf16_gemm.h): the rounding to bf16, a bf16 product
// against the fp32 one within the bound bf16 inputs allow, the shapes that stay fp32, and
// the same bits for the same inputs. Where the CPU has no bf16, only the rounding and the
// refusal are tested.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

#include "math/bf16.h"
#include "math/bf16_gemm.h"
#include "math/gemm.h"
#include "support/random_matrix.h"
#include "math/product_precision.h"
#include "util/error.h"

using namespace rnnsearch::math;

namespace {

Matrix random_matrix(int rows, int cols, std::mt19937& rng) { return rnnsearch::testing::uniform_matrix(rows, cols, rng); }

float through_bf16(float value) {
  std::uint16_t rounded = 0;
  round_to_bf16(&value, 1, 1, 1, &rounded, 1);
  return bf16_to_float(rounded);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(bf16_gemm_suite)

BOOST_AUTO_TEST_CASE(rounding_keeps_eight_bits_to_nearest_even) {
  BOOST_TEST(through_bf16(1.0f) == 1.0f);
  BOOST_TEST(through_bf16(-2.5f) == -2.5f);
  // 1 + 2^-8 lies halfway between 1 and 1 + 2^-7: ties go to the even one, 1.
  BOOST_TEST(through_bf16(1.0f + std::ldexp(1.0f, -8)) == 1.0f);
  // 1 + 3 * 2^-8 lies halfway between 1 + 2^-7 and 1 + 2^-6: the even one is 1 + 2^-6.
  BOOST_TEST(through_bf16(1.0f + 3 * std::ldexp(1.0f, -8)) == 1.0f + std::ldexp(1.0f, -6));
  BOOST_TEST(through_bf16(1.0f + std::ldexp(1.0f, -9)) == 1.0f);  // below half: down
  BOOST_TEST(std::isnan(through_bf16(std::numeric_limits<float>::quiet_NaN())));
  BOOST_TEST(std::isinf(through_bf16(std::numeric_limits<float>::infinity())));
  // A whole row through the vector path and its tail: each within 2^-8 relative (half a unit in
  // the last of 8 significant bits), and the same as one at a time.
  std::mt19937 rng(3);
  const Matrix m = random_matrix(3, 37, rng);
  std::vector<std::uint16_t> out(3 * 37);
  round_to_bf16(m.data(), 3, 37, 37, out.data(), 37);
  for (int i = 0; i < 3 * 37; ++i) {
    BOOST_TEST(std::abs(bf16_to_float(out[i]) - m.data()[i]) <= std::abs(m.data()[i]) * std::ldexp(1.0f, -8));
    BOOST_TEST(bf16_to_float(out[i]) == through_bf16(m.data()[i]));
  }
}

BOOST_AUTO_TEST_CASE(precision_names_parse_and_bf16_is_refused_without_the_hardware) {
  BOOST_TEST(std::string(precision_name(parse_training_precision("bf16"))) == "bf16");
  BOOST_TEST(std::string(precision_name(Precision::kFp32)) == "fp32");
  BOOST_CHECK_THROW(parse_training_precision("int8"), rnnsearch::util::UsageError);
  BOOST_CHECK_THROW(parse_training_precision("fp16"), rnnsearch::util::UsageError);
  BOOST_CHECK_NO_THROW(check_precision_available(Precision::kFp32));
  if (bf16_products_available()) {
    BOOST_CHECK_NO_THROW(check_precision_available(Precision::kBf16));
  } else {
    BOOST_CHECK_THROW(check_precision_available(Precision::kBf16), rnnsearch::util::Error);
  }
}

// Each output sums k products of bf16-rounded inputs (relative error 2^-8 each, 2^-7 for
// the product), in fp32: |bf16 - fp32| <= 2^-7 * sum |a||b| + fp32 rounding. Checked at
// 2^-6 of sum |a_ik||b_kj|, for every transpose, with beta.
BOOST_AUTO_TEST_CASE(bf16_products_are_within_the_bf16_bound_of_fp32_and_repeat_bit_for_bit) {
  if (!bf16_products_available()) return;
  std::mt19937 rng(11);
  const int m = 200, n = 300, k = 150;
  for (bool ta : {false, true}) {
    for (bool tb : {false, true}) {
      const Matrix a = ta ? random_matrix(k, m, rng) : random_matrix(m, k, rng);
      const Matrix b = tb ? random_matrix(n, k, rng) : random_matrix(k, n, rng);
      const Matrix c0 = random_matrix(m, n, rng);
      const Transpose oa = ta ? Transpose::kYes : Transpose::kNo, ob = tb ? Transpose::kYes : Transpose::kNo;
      Matrix fp32 = c0, bf16 = c0, again = c0;
      gemm(a, oa, b, ob, fp32, 1.0f, 0.5f);
      {
        const ProductPrecision scope(Precision::kBf16);
        gemm(a, oa, b, ob, bf16, 1.0f, 0.5f);
        gemm(a, oa, b, ob, again, 1.0f, 0.5f);
      }
      const Matrix magnitude = (ta ? Matrix(a.transpose()) : a).cwiseAbs() * (tb ? Matrix(b.transpose()) : b).cwiseAbs();
      const float worst = ((bf16 - fp32).cwiseAbs().array() / magnitude.array()).maxCoeff();
      BOOST_TEST(worst < std::ldexp(1.0f, -6));
      BOOST_TEST((bf16 - fp32).cwiseAbs().maxCoeff() > 0.0f);  // it did multiply in bf16
      BOOST_TEST((again.array() == bf16.array()).all());
    }
  }
  // A tiny product (2 m n / (m + n) = 10.7, under kBf16MinimumReuse) stays fp32: the same bits.
  const Matrix a = random_matrix(8, 512, rng), b = random_matrix(512, 16, rng);
  Matrix fp32(8, 16), scoped(8, 16);
  gemm(a, Transpose::kNo, b, Transpose::kNo, fp32);
  const ProductPrecision scope(Precision::kBf16);
  gemm(a, Transpose::kNo, b, Transpose::kNo, scoped);
  BOOST_TEST((fp32.array() == scoped.array()).all());
}

BOOST_AUTO_TEST_CASE(scopes_nest_and_end) {
  BOOST_TEST((product_precision() == Precision::kFp32));
  {
    const ProductPrecision outer(Precision::kBf16);
    {
      const ProductPrecision inner(Precision::kFp32);
      BOOST_TEST((product_precision() == Precision::kFp32));
    }
    BOOST_TEST((product_precision() == Precision::kBf16));
  }
  BOOST_TEST((product_precision() == Precision::kFp32));
}

BOOST_AUTO_TEST_SUITE_END()
