// math::quantize_int8_rows: every code this CPU runs (portable, AVX2, AVX-512) writes each
// format with the bits of the scalar definitions (int8_step, quantize_int8) on awkward
// rows: ties at half steps, zeros, the largest floats, infinities, NaNs, maxima so small
// that the inverse step overflows, K not a multiple of 4 or 16, one buffer reused.
#include <boost/test/unit_test.hpp>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "math/int8_rows.h"
#include "math/quantized_kernels.h"

using namespace rnnsearch::math;

namespace {

constexpr int kKinds = 11;
const Int8RowFormat kFormats[] = {Int8RowFormat::kS8, Int8RowFormat::kS16, Int8RowFormat::kU8};

// Value j of a row of `kind` (the row's largest magnitude is put in afterwards).
float awkward_value(int kind, int j, std::mt19937& rng) {
  std::normal_distribution<float> normal;
  const float half = static_cast<float>(j % 254 - 127) + 0.5f;  // -126.5 ... 126.5
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  switch (kind) {
    case 1: return half;                                                 // max 127: step 1, ties
    case 2: return 2.0f * half;                                          // max 254: step 2, ties
    case 3: return std::nextafter(half, j % 2 ? 200.0f : -200.0f);       // max 127: next to ties
    case 4: return j % 3 ? 0.0f : -0.0f;                                 // all zeros: step 0
    case 5: return 1e37f * normal(rng);                                  // with +-FLT_MAX
    case 6: return j % 5 == 1 ? nan : j % 5 == 3 ? (j % 2 ? inf : -inf) : normal(rng);
    case 7: return j % 3 ? 1e-39f * normal(rng) : 0.0f;                  // max 2e-38: 127 / max is inf
    case 8: return std::ldexp(j % 2 ? 1.0f : -1.0f, std::uniform_int_distribution<int>(-149, 127)(rng));
    case 9: return nan;                                                  // NaNs only: step 0
    case 10: return j % 3 == 1 ? nan : normal(rng);                      // max 50 with NaNs after it
    default: return normal(rng);
  }
}

void fill_awkward_row(int kind, float* row, int k, std::mt19937& rng) {
  for (int j = 0; j < k; ++j) row[j] = awkward_value(kind, j, rng);
  const float largest[kKinds] = {0.0f, 127.0f, 254.0f, 127.0f, 0.0f, FLT_MAX, 0.0f, 2e-38f, 0.0f, 0.0f, 50.0f};
  const int at = std::uniform_int_distribution<int>(0, k - 1)(rng);
  if (largest[kind] > 0.0f) row[at] = at % 2 ? -largest[kind] : largest[kind];
}

// The scalar definitions: scale s_i and q_ij (0 in the padding up to stride).
struct Reference {
  std::vector<float> scale;
  std::vector<int> q;
};

Reference reference(ConstMatrixView a, int stride) {
  Reference out{std::vector<float>(static_cast<std::size_t>(a.rows)),
                std::vector<int>(static_cast<std::size_t>(a.rows) * static_cast<std::size_t>(stride), 0)};
  for (int i = 0; i < a.rows; ++i) {
    const float* row = a.data + static_cast<long>(i) * a.stride;
    float max_abs = 0.0f;
    for (int j = 0; j < a.cols; ++j) max_abs = std::max(max_abs, std::fabs(row[j]));
    out.scale[static_cast<std::size_t>(i)] = int8_step(max_abs);
    for (int j = 0; j < a.cols; ++j) {
      out.q[static_cast<std::size_t>(i) * stride + j] = quantize_int8(row[j], int8_inverse_step(max_abs));
    }
  }
  return out;
}

// Element `index` of the rows, decoded to q.
int stored(const Int8Rows& rows, std::size_t index) {
  switch (rows.format) {
    case Int8RowFormat::kS8: return static_cast<const std::int8_t*>(rows.data())[index];
    case Int8RowFormat::kS16: return static_cast<const std::int16_t*>(rows.data())[index];
    case Int8RowFormat::kU8: return static_cast<const std::uint8_t*>(rows.data())[index] - 128;
  }
  return 1000;
}

// "" when rows hold the reference's bits, else the first difference.
std::string difference(const Int8Rows& rows, const Reference& expected, ConstMatrixView a) {
  std::ostringstream out;
  for (int i = 0; i < a.rows; ++i) {
    const float scale = rows.scale[static_cast<std::size_t>(i)], want = expected.scale[static_cast<std::size_t>(i)];
    if (std::memcmp(&scale, &want, sizeof scale) != 0) {
      out << "row " << i << ": scale " << scale << ", expected " << want;
      return out.str();
    }
    for (int j = 0; j < rows.stride; ++j) {
      const std::size_t index = static_cast<std::size_t>(i) * rows.stride + j;
      if (stored(rows, index) != expected.q[index]) {
        out << "row " << i << ", column " << j << ": q " << stored(rows, index) << ", expected " << expected.q[index];
        if (j < a.cols) out << " for " << a.data[static_cast<long>(i) * a.stride + j];
        return out.str();
      }
    }
  }
  return "";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(int8_rows_suite)

BOOST_AUTO_TEST_CASE(every_code_and_format_gives_the_bits_of_the_scalar_definitions) {
  std::mt19937 rng(11);
  BOOST_TEST_MESSAGE("int8 row kernels up to " << cpu_isa_name(cpu_isa()));
  Int8Rows rows;  // one buffer throughout: grown, reused for fewer rows, switched between formats
  for (const int k : {1, 2, 3, 4, 5, 7, 8, 13, 15, 16, 17, 29, 31, 32, 33, 47, 63, 64, 65, 255, 256, 257, 1023, 1027}) {
    for (const int m : {1, 3, 10, 13, 40, 160}) {
      Matrix parent(m, k + 3);  // a: a block one column in, rows k + 3 apart
      for (int i = 0; i < m; ++i) fill_awkward_row((i + k) % kKinds, parent.row(i).data() + 1, k, rng);
      const ConstMatrixView a = parent.block(0, 1, m, k);
      const int stride = 4 * ((k + 3) / 4);
      const Reference expected = reference(a, stride);
      for (const CpuIsa code : cpu_isas_up_to_current()) {
        for (const Int8RowFormat format : kFormats) {
          quantize_int8_rows(a, format, rows, code);
          BOOST_TEST_INFO(cpu_isa_name(code) << ", format " << static_cast<int>(format) << ", " << m << " x " << k);
          BOOST_TEST(rows.stride == stride);
          BOOST_TEST_INFO(cpu_isa_name(code) << ", format " << static_cast<int>(format) << ", " << m << " x " << k);
          BOOST_TEST(difference(rows, expected, a) == "");
        }
      }
    }
  }
}

// The definitions themselves on a readable row: step 1, ties to the even integer, a NaN
// left out of the maximum and quantized to -127; an infinity makes the step infinite.
BOOST_AUTO_TEST_CASE(rows_round_half_steps_to_even_and_nans_to_minus_127) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  Matrix a(2, 9);
  a.row(0) << 0.5f, 1.5f, 2.5f, -0.5f, -1.5f, 126.5f, -126.5f, nan, -127.0f;
  a.row(1) << 1.0f, inf, -3.0f, nan, 0.0f, -inf, 2.5f, 0.0f, 0.0f;
  const std::vector<int> q0{0, 2, 2, 0, -2, 126, -126, -127, -127}, q1{0, -127, 0, -127, 0, -127, 0, 0, 0};
  for (const CpuIsa code : cpu_isas_up_to_current()) {
    Int8Rows rows;
    quantize_int8_rows(a, Int8RowFormat::kS16, rows, code);
    const auto* q = static_cast<const std::int16_t*>(rows.data());
    BOOST_TEST_INFO(cpu_isa_name(code));
    BOOST_TEST(rows.stride == 12);
    BOOST_TEST(rows.scale[0] == 1.0f);
    BOOST_TEST(std::isinf(rows.scale[1]));
    BOOST_TEST(std::vector<int>(q, q + 9) == q0, boost::test_tools::per_element());
    BOOST_TEST(std::vector<int>(q + 12, q + 21) == q1, boost::test_tools::per_element());
    BOOST_TEST(std::vector<int>(q + 9, q + 12) == std::vector<int>(3, 0), boost::test_tools::per_element());
  }
}

// Values so small that 127 / max would overflow to infinity quantize to zero (they would
// otherwise be +-127, and zeros NaN, -127); a NaN stays -127.
BOOST_AUTO_TEST_CASE(rows_below_the_smallest_invertible_maximum_quantize_to_zero) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  Matrix a(1, 6);
  a.row(0) << 0.0f, 1e-38f, -2e-38f, -0.0f, nan, 3e-37f;
  for (const CpuIsa code : cpu_isas_up_to_current()) {
    Int8Rows rows;
    quantize_int8_rows(a, Int8RowFormat::kS16, rows, code);
    const auto* q = static_cast<const std::int16_t*>(rows.data());
    BOOST_TEST_INFO(cpu_isa_name(code));
    BOOST_TEST(std::vector<int>(q, q + 6) == std::vector<int>({0, 0, 0, 0, -127, 0}), boost::test_tools::per_element());
  }
  BOOST_TEST(int8_inverse_step(3.8e-37f) > 0.0f);
  BOOST_TEST(std::isfinite(int8_inverse_step(3.8e-37f)));
}

BOOST_AUTO_TEST_SUITE_END()
