// math::gemm with a PackedMatrix (int8, bf16, fp32): within the stated error of the fp32
// product, a row's bits independent of the rows beside it, and every int8 kernel the same
// bits as the portable one. bf16 cases skip, saying so, on a CPU without avx512_bf16.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstring>
#include <random>

#include "support/random_matrix.h"
#include "math/bf16.h"
#include "math/packed_matrix.h"
#include "math/precision.h"
#include "math/quantized_kernels.h"
#include "util/error.h"

using namespace rnnsearch::math;

namespace {

Matrix random_matrix(int rows, int cols, std::mt19937& rng) { return rnnsearch::testing::normal_matrix(rows, cols, rng); }

bool same_bits(const float* x, const float* y, Eigen::Index count) {
  return std::memcmp(x, y, static_cast<std::size_t>(count) * sizeof(float)) == 0;
}

struct Shape {
  int m, k, n;
};
// Odd K and N (partial groups of four k and pairs, partial panels), one row, many rows.
const Shape kShapes[] = {{1, 1, 1}, {1, 5, 3}, {3, 7, 17}, {13, 33, 45}, {1, 256, 513}, {7, 255, 100}, {40, 513, 97},
                         {160, 64, 33}};

// c = alpha * a * w + beta * c with a, c blocks of larger matrices (row strides beyond
// their width) and w read as given or as the transpose of its transpose.
struct Product {
  Matrix a_parent, c_parent, w;
  Transpose transpose;
  float alpha, beta;
  auto a() const { return a_parent.block(1, 2, a_parent.rows() - 1, a_parent.cols() - 3); }
};

Product random_product(const Shape& s, std::mt19937& rng, Transpose transpose) {
  Product p{random_matrix(s.m + 1, s.k + 3, rng), random_matrix(s.m + 2, s.n + 5, rng), {}, transpose, 0.5f, -1.5f};
  const Matrix w = random_matrix(s.k, s.n, rng);
  p.w = transpose == Transpose::kNo ? w : Matrix(w.transpose());
  return p;
}

Matrix weight_of(const Product& p) { return p.transpose == Transpose::kNo ? p.w : Matrix(p.w.transpose()); }

// c's block after the product with `w`, by the kernel given (int8) or gemm's choice.
Matrix multiply(const Product& p, const PackedMatrix& w, const CpuIsa* kernel = nullptr) {
  Matrix c_parent = p.c_parent;
  auto c = c_parent.block(2, 1, p.a().rows(), w.cols());
  if (kernel) {
    int8_gemm(p.a(), w, c, p.alpha, p.beta, *kernel);
  } else {
    gemm(p.a(), w, c, p.alpha, p.beta);
  }
  return c;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(packed_gemm_suite)

// |error of element (i, j)| <= |alpha| * K * 128 * s_i * t_j + fp32 rounding, s_i and t_j
// the 8-bit steps of row i of a and column j of w (max |.| / 127): each factor is off by
// at most half a step.
BOOST_AUTO_TEST_CASE(int8_is_within_its_quantization_bound_of_the_exact_product) {
  std::mt19937 rng(7);
  for (const Transpose transpose : {Transpose::kNo, Transpose::kYes}) {
    for (const Shape& s : kShapes) {
      const Product p = random_product(s, rng, transpose);
      const PackedMatrix w(p.w, transpose, Precision::kInt8);
      const Matrix weight = weight_of(p);
      const auto a = p.a();
      for (const CpuIsa kernel : cpu_isas_up_to_current()) {
        const Matrix c = multiply(p, w, &kernel);
        bool within = true;
        for (int i = 0; i < s.m; ++i) {
          const double step_a = a.row(i).cwiseAbs().maxCoeff() / 127.0;
          for (int j = 0; j < s.n; ++j) {
            const double step_w = weight.col(j).cwiseAbs().maxCoeff() / 127.0;
            double exact = 0, magnitude = 0;
            for (int k = 0; k < s.k; ++k) {
              exact += double(a(i, k)) * weight(k, j);
              magnitude += std::abs(double(a(i, k)) * weight(k, j));
            }
            exact = p.alpha * exact + p.beta * double(p.c_parent(2 + i, 1 + j));
            const double bound = std::abs(p.alpha) * (s.k * 128.0 * step_a * step_w + 1e-5 * magnitude) + 1e-5;
            within = within && std::abs(c(i, j) - exact) <= bound;
          }
        }
        BOOST_TEST_INFO(cpu_isa_name(kernel) << " level (" << int8_kernel_name(kernel) << " kernel), " << s.m << " x " << s.k << " x " << s.n);
        BOOST_TEST(within);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(every_int8_kernel_gives_the_bits_of_the_portable_one) {
  std::mt19937 rng(9);
  const CpuIsa scalar = CpuIsa::kBaseline;
  BOOST_TEST_MESSAGE("int8 kernels up to " << cpu_isa_name(cpu_isa()) << ": best " << int8_kernel_name(cpu_isa()));
  for (const Shape& s : {Shape{1, 1, 1}, Shape{5, 9, 31}, Shape{13, 256, 77}, Shape{30, 1283, 65}, Shape{1, 512, 600}}) {
    const Product p = random_product(s, rng, Transpose::kNo);
    const PackedMatrix w(p.w, Transpose::kNo, Precision::kInt8);
    const Matrix expected = multiply(p, w, &scalar);
    for (const CpuIsa kernel : cpu_isas_up_to_current()) {
      const Matrix c = multiply(p, w, &kernel);
      BOOST_TEST_INFO(cpu_isa_name(kernel) << " level (" << int8_kernel_name(kernel) << " kernel), " << s.m << " x " << s.k << " x " << s.n);
      BOOST_TEST(same_bits(c.data(), expected.data(), c.size()));
    }
  }
}

// |error| <= |alpha| * (2^-7 + K 2^-23) * sum_k |a_ik w_kj|: both factors rounded to 8
// significant bits, the sum in fp32.
BOOST_AUTO_TEST_CASE(bf16_is_within_its_rounding_bound_of_the_exact_product) {
  if (!precision_supported(Precision::kBf16)) {
    BOOST_TEST_MESSAGE("skipped: this CPU has no avx512_bf16");
    return;
  }
  std::mt19937 rng(13);
  for (const Transpose transpose : {Transpose::kNo, Transpose::kYes}) {
    for (const Shape& s : kShapes) {
      const Product p = random_product(s, rng, transpose);
      const PackedMatrix w(p.w, transpose, Precision::kBf16);
      const Matrix weight = weight_of(p), c = multiply(p, w);
      const auto a = p.a();
      bool within = true;
      for (int i = 0; i < s.m; ++i) {
        for (int j = 0; j < s.n; ++j) {
          double exact = 0, magnitude = 0;
          for (int k = 0; k < s.k; ++k) {
            exact += double(a(i, k)) * weight(k, j);
            magnitude += std::abs(double(a(i, k)) * weight(k, j));
          }
          const double old = p.c_parent(2 + i, 1 + j);
          exact = p.alpha * exact + p.beta * old;
          const double bound = std::abs(p.alpha) * (std::ldexp(1.0, -7) + s.k * std::ldexp(1.0, -23)) * magnitude +
                               1e-6 * std::abs(p.beta * old) + 1e-6;
          within = within && std::abs(c(i, j) - exact) <= bound;
        }
      }
      BOOST_TEST_INFO(s.m << " x " << s.k << " x " << s.n);
      BOOST_TEST(within);
    }
  }
}

BOOST_AUTO_TEST_CASE(a_row_is_the_same_bits_whatever_rows_surround_it) {
  std::mt19937 rng(5);
  for (const Precision precision : {Precision::kFp32, Precision::kInt8, Precision::kBf16}) {
    if (!precision_supported(precision)) {
      BOOST_TEST_MESSAGE("skipped " << precision_name(precision) << ": this CPU has no avx512_bf16");
      continue;
    }
    for (const int k : {1, 7, 256, 1280}) {
      const int n = 77;
      const PackedMatrix w(random_matrix(k, n, rng), Transpose::kNo, precision);
      const Matrix row = random_matrix(1, k, rng);
      Matrix alone(1, n);
      gemm(row, w, alone);
      for (const int m : {7, 12, 13, 160}) {
        for (const int position : {0, m / 2, m - 1}) {
          Matrix a = random_matrix(m, k, rng);
          a.row(position) = row;
          Matrix c(m, n);
          gemm(a, w, c);
          BOOST_TEST_INFO(precision_name(precision) << ", k " << k << ", " << m << " rows, position " << position);
          BOOST_TEST(same_bits(c.row(position).data(), alone.data(), n));
        }
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(gathered_columns_multiply_as_the_full_matrix_and_as_packing_them_alone) {
  std::mt19937 rng(9);
  for (const Precision precision : {Precision::kInt8, Precision::kBf16}) {
    if (!precision_supported(precision)) {
      BOOST_TEST_MESSAGE("skipped " << precision_name(precision) << ": this CPU has no avx512_bf16");
      continue;
    }
    for (const Transpose transpose : {Transpose::kNo, Transpose::kYes}) {
      const int k = 37, n = 70;
      const Matrix weights = random_matrix(transpose == Transpose::kNo ? k : n, transpose == Transpose::kNo ? n : k, rng);
      const PackedMatrix full(weights, transpose, precision);
      // Out of order, a repeat, from every panel, more than one panel's worth.
      std::vector<std::int32_t> columns = {69, 0, 16, 17, 33, 33, 5, 64, 31, 32, 48};
      for (std::int32_t j = 40; j < 64; ++j) columns.push_back(j);
      const PackedMatrix gathered(full, columns);
      Matrix picked(k, static_cast<int>(columns.size()));  // the same columns, packed alone
      for (std::size_t c = 0; c < columns.size(); ++c) {
        picked.col(static_cast<int>(c)) = transpose == Transpose::kNo ? Matrix(weights.col(columns[c]))
                                                                      : Matrix(weights.row(columns[c]).transpose());
      }
      const PackedMatrix alone(picked, Transpose::kNo, precision);
      const Matrix a = random_matrix(9, k, rng);
      Matrix all(9, n), from_gathered(9, static_cast<int>(columns.size())), from_alone(9, static_cast<int>(columns.size()));
      gemm(a, full, all);
      gemm(a, gathered, from_gathered);
      gemm(a, alone, from_alone);
      BOOST_TEST_INFO(precision_name(precision) << (transpose == Transpose::kYes ? ", transposed" : ""));
      BOOST_TEST(same_bits(from_gathered.data(), from_alone.data(), static_cast<int>(from_alone.size())));
      for (std::size_t c = 0; c < columns.size(); ++c) {
        const Matrix expected = all.col(columns[c]), got = from_gathered.col(static_cast<int>(c));
        BOOST_TEST(same_bits(got.data(), expected.data(), 9));
      }
    }
  }
  std::mt19937 other(1);
  const PackedMatrix int8(random_matrix(8, 5, other), Transpose::kNo, Precision::kInt8);
  BOOST_CHECK_THROW(PackedMatrix(int8, {0, 5}), rnnsearch::util::Error);
  const PackedMatrix fp32(random_matrix(8, 5, other), Transpose::kNo, Precision::kFp32);
  BOOST_CHECK_THROW(PackedMatrix(fp32, {0}), rnnsearch::util::Error);
}

BOOST_AUTO_TEST_CASE(a_product_of_the_wrong_shape_names_both_shapes) {
  std::mt19937 rng(1);
  const PackedMatrix w(random_matrix(8, 5, rng), Transpose::kNo, Precision::kInt8);
  const Matrix a = random_matrix(3, 7, rng);
  Matrix c(3, 5);
  BOOST_CHECK_EXCEPTION(gemm(a, w, c, 1.0f, 0.0f, "decoder.output.W"), rnnsearch::util::Error,
                        [](const rnnsearch::util::Error& e) {
                          return std::string(e.what()) ==
                                 "decoder.output.W: cannot multiply A [3 x 7] by packed int8 W [8 x 5] into C [3 x 5]";
                        });
}

BOOST_AUTO_TEST_CASE(bfloat16_rounds_to_nearest_even) {
  const auto bits = [](std::uint32_t b) {
    float x;
    std::memcpy(&x, &b, sizeof x);
    return to_bf16(x);
  };
  BOOST_TEST(bits(0x3F800000u) == 0x3F80u);  // 1
  BOOST_TEST(bits(0x3F808000u) == 0x3F80u);  // halfway, to the even 1
  BOOST_TEST(bits(0x3F818000u) == 0x3F82u);  // halfway, to the even neighbour above
  BOOST_TEST(bits(0x3F808001u) == 0x3F81u);  // above halfway
  BOOST_TEST(bits(0xBF807FFFu) == 0xBF80u);  // below halfway, negative
  BOOST_TEST(std::isnan(float(0) + [] {
    const std::uint32_t b = std::uint32_t(to_bf16(std::nanf(""))) << 16;
    float x;
    std::memcpy(&x, &b, sizeof x);
    return x;
  }()));
}

BOOST_AUTO_TEST_CASE(precisions_are_named_and_bf16_is_refused_where_missing) {
  BOOST_TEST(precision_name(parse_precision("fp32")) == std::string("fp32"));
  BOOST_TEST(precision_name(parse_precision("int8")) == std::string("int8"));
  BOOST_TEST(precision_name(parse_precision("bf16")) == std::string("bf16"));
  BOOST_TEST(precision_name(parse_precision("auto")) == std::string(precision_name(automatic_precision())));
  BOOST_TEST(precision_name(Precision::kInt8) == std::string("int8"));
  BOOST_CHECK_EXCEPTION(parse_precision("fp16"), rnnsearch::util::UsageError, [](const rnnsearch::util::UsageError& e) {
    return std::string(e.what()) == "--precision must be fp32, int8, bf16 or auto, got 'fp16'";
  });
  BOOST_TEST(precision_supported(Precision::kInt8));
  if (!precision_supported(Precision::kBf16)) {
    std::mt19937 rng(2);
    BOOST_CHECK_EXCEPTION(PackedMatrix(random_matrix(4, 4, rng), Transpose::kNo, Precision::kBf16),
                          rnnsearch::util::UsageError, [](const rnnsearch::util::UsageError& e) {
                            return std::string(e.what()) ==
                                   "--precision bf16: this CPU has no bf16 instructions (avx512_bf16)";
                          });
  }
}

BOOST_AUTO_TEST_SUITE_END()
