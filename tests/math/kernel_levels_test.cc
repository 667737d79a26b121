// The kernels compiled per level of instruction sets (math/kernels/, math/cpu_isa.h): at
// every level this CPU has, row_stable_gemm's products (plain and transposed, alpha and
// beta, shapes on and off the tiles' widths), lane_dot and attention's weighted rows give
// the baseline kernel's bits; and RNNSEARCH_CPU_ISA's names parse, with an unknown one an
// error naming the levels.
#include <boost/test/unit_test.hpp>
#include <cstring>
#include <random>
#include <vector>

#include "math/cpu_isa.h"
#include "math/kernel_tables.h"
#include "support/random_matrix.h"
#include "util/error.h"

using namespace rnnsearch::math;

namespace {

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

std::vector<float> uniform(std::size_t n, std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = u(rng);
  return v;
}

struct Shape {
  int m, n, k;
};

// c (with a start in `c0`) after level's product, b [K x N] or, transposed, [N x K].
std::vector<float> product(CpuIsa level, bool transposed, const Shape& s, const std::vector<float>& a,
                           const std::vector<float>& b, std::vector<float> c, float alpha, float beta) {
  const kernels::RowStableKernels& f = row_stable_kernels(level);
  if (transposed) {
    f.multiply_transposed(s.m, s.n, s.k, alpha, a.data(), s.k, b.data(), s.k, beta, c.data(), s.n);
  } else {
    std::vector<float> scratch(f.plain_scratch_floats(s.m, s.n));
    f.multiply_plain(s.m, s.n, s.k, alpha, a.data(), s.k, b.data(), s.n, beta, c.data(), s.n, scratch.data());
  }
  return c;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(kernel_levels)

BOOST_AUTO_TEST_CASE(row_stable_products_have_the_baseline_bits_at_every_level) {
  BOOST_TEST_MESSAGE("levels here: baseline to " << cpu_isa_name(cpu_isa()));
  std::mt19937 rng(21);
  for (const Shape s : {Shape{1, 1, 1}, Shape{5, 17, 9}, Shape{13, 33, 300}, Shape{25, 65, 513}, Shape{7, 100, 1}}) {
    const std::vector<float> a = uniform(static_cast<std::size_t>(s.m) * s.k, rng);
    const std::vector<float> b = uniform(static_cast<std::size_t>(s.k) * s.n, rng);
    const std::vector<float> c0 = uniform(static_cast<std::size_t>(s.m) * s.n, rng);
    for (const bool transposed : {false, true}) {
      for (const auto& [alpha, beta] : {std::pair{1.0f, 0.0f}, std::pair{0.5f, 1.0f}, std::pair{-2.0f, 0.25f}}) {
        const std::vector<float> expected = product(CpuIsa::kBaseline, transposed, s, a, b, c0, alpha, beta);
        for (const CpuIsa level : cpu_isas_up_to_current()) {
          BOOST_TEST_INFO(cpu_isa_name(level) << (transposed ? ", b^T, " : ", b, ") << s.m << " x " << s.n << " x "
                                              << s.k << ", alpha " << alpha << ", beta " << beta);
          BOOST_TEST(same_bits(product(level, transposed, s, a, b, c0, alpha, beta), expected));
        }
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(lane_dots_and_weighted_rows_have_the_baseline_bits_at_every_level) {
  std::mt19937 rng(22);
  for (const int width : {1, 15, 16, 64, 127, 128, 130, 300, 1024}) {
    const int span = 1 + width % 37;
    const std::vector<float> h = uniform(static_cast<std::size_t>(width), rng), v = uniform(h.size(), rng);
    const std::vector<float> weights = uniform(static_cast<std::size_t>(span), rng);
    const std::vector<float> rows = uniform(static_cast<std::size_t>(span) * (width + 3), rng);
    const kernels::DotKernels& base = dot_kernels(CpuIsa::kBaseline);
    std::vector<float> expected(static_cast<std::size_t>(width));
    base.weighted_rows(weights.data(), span, rows.data(), width + 3, width, expected.data());
    for (const CpuIsa level : cpu_isas_up_to_current()) {
      const kernels::DotKernels& f = dot_kernels(level);
      std::vector<float> out(static_cast<std::size_t>(width));
      f.weighted_rows(weights.data(), span, rows.data(), width + 3, width, out.data());
      BOOST_TEST_INFO(cpu_isa_name(level) << ", width " << width << ", span " << span);
      BOOST_TEST(same_bits(out, expected));
      const float dot = f.lane_dot(h.data(), v.data(), width), base_dot = base.lane_dot(h.data(), v.data(), width);
      BOOST_TEST_INFO(cpu_isa_name(level) << ", lane_dot over " << width);
      BOOST_TEST(std::memcmp(&dot, &base_dot, sizeof dot) == 0);
    }
  }
}

BOOST_AUTO_TEST_CASE(levels_parse_by_name_and_an_unknown_name_lists_them) {
  for (const CpuIsa level : {CpuIsa::kBaseline, CpuIsa::kAvx2, CpuIsa::kAvx512, CpuIsa::kAvx512Vnni,
                             CpuIsa::kAvx512Bf16}) {
    BOOST_TEST((parse_cpu_isa(cpu_isa_name(level)) == level));
  }
  BOOST_TEST((cpu_isa() <= detected_cpu_isa()));
  BOOST_TEST((cpu_isas_up_to_current().front() == CpuIsa::kBaseline));
  BOOST_TEST((cpu_isas_up_to_current().back() == cpu_isa()));
  try {
    parse_cpu_isa("avx3");
    BOOST_FAIL("avx3 parsed");
  } catch (const rnnsearch::util::UsageError& e) {
    BOOST_TEST(std::string(e.what()) ==
               "RNNSEARCH_CPU_ISA=avx3: expected one of baseline, avx2, avx512, avx512-vnni, avx512-bf16");
  }
}

BOOST_AUTO_TEST_SUITE_END()
