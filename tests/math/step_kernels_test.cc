// The fused step kernels and the vector kernels (math/step_ops.h, math/vector_ops.h;
// math/kernels/step_kernels.cc, vector_kernels.cc) at every level of instruction sets this
// CPU has: each gives the bits of the expressions it replaced, written out here in plain
// C++ (this file is compiled with -ffp-contract=off, so no build fuses them), on widths on
// and off the vector widths, with ties, infinities and NaNs where they change a branch.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "math/cpu_isa.h"
#include "math/elementwise.h"
#include "math/kernel_tables.h"
#include "math/vector_ops.h"

using namespace rnnsearch::math;

namespace {

using Floats = std::vector<float>;

bool same_bits(const Floats& a, const Floats& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

Floats uniform(int n, std::mt19937& rng, float low = -1.0f, float high = 1.0f) {
  std::uniform_real_distribution<float> u(low, high);
  Floats v(static_cast<std::size_t>(n));
  for (float& x : v) x = u(rng);
  return v;
}

// Values in (0, 1), as gates are.
Floats gate(int n, std::mt19937& rng) {
  Floats v = uniform(n, rng, -6.0f, 6.0f);
  logistic_array(v.data(), v.data(), n);
  return v;
}

constexpr int kWidths[] = {1, 7, 8, 15, 16, 17, 31, 33, 64, 100, 256, 300, 1000};

}  // namespace

BOOST_AUTO_TEST_SUITE(step_and_vector_kernels)

BOOST_AUTO_TEST_CASE(tanh_score_is_tanh_array_then_lane_dot_and_its_gradient_the_loop_it_replaced) {
  std::mt19937 rng(31);
  for (const int n : kWidths) {
    const Floats q = uniform(n, rng, -3.0f, 3.0f), k = uniform(n, rng, -3.0f, 3.0f), v = uniform(n, rng);
    Floats hidden(q.size());
    for (int a = 0; a < n; ++a) hidden[a] = q[a] + k[a];
    tanh_array(hidden.data(), hidden.data(), n);
    const float score = dot_kernels(CpuIsa::kBaseline).lane_dot(hidden.data(), v.data(), n);
    const float g = 0.37f;
    Floats dv = uniform(n, rng), dk = uniform(n, rng), dq = uniform(n, rng);
    Floats dv_expected = dv, dk_expected = dk, dq_expected = dq;
    for (int a = 0; a < n; ++a) {
      const float h = hidden[a];
      dv_expected[a] += g * h;
      const float d = g * v[a] * (1.0f - h * h);
      dk_expected[a] += d;
      dq_expected[a] += d;
    }
    for (const CpuIsa level : cpu_isas_up_to_current()) {
      const kernels::StepKernels& f = step_kernels(level);
      Floats row(q.size(), -9.0f);
      const float got = f.tanh_score(q.data(), k.data(), v.data(), row.data(), n);
      BOOST_TEST_INFO(cpu_isa_name(level) << ", width " << n);
      BOOST_TEST(same_bits(got, score));
      BOOST_TEST(same_bits(row, hidden));
      Floats dv_got = dv, dk_got = dk, dq_got = dq;
      f.tanh_score_backward(g, q.data(), k.data(), v.data(), dv_got.data(), dk_got.data(), dq_got.data(), n);
      BOOST_TEST(same_bits(dv_got, dv_expected));
      BOOST_TEST(same_bits(dk_got, dk_expected));
      BOOST_TEST(same_bits(dq_got, dq_expected));
    }
  }
}

BOOST_AUTO_TEST_CASE(gru_update_and_its_gradients_are_the_expressions_they_replaced) {
  std::mt19937 rng(32);
  for (const int n : kWidths) {
    Floats z = gate(n, rng), r = gate(n, rng);
    const Floats candidate = uniform(n, rng), h_prev = uniform(n, rng), dh = uniform(n, rng);
    z[0] = 0.0f;  // the ends of a gate's range
    if (n > 1) z[n - 1] = 1.0f;
    Floats h_expected(z.size()), dz_expected(z.size()), dc_expected(z.size());
    Floats d_prev = uniform(n, rng), d_r = uniform(n, rng);
    Floats d_prev_expected = d_prev, d_r_expected = d_r;
    for (int a = 0; a < n; ++a) {
      h_expected[a] = (1.0f - z[a]) * h_prev[a] + z[a] * candidate[a];
      dz_expected[a] = dh[a] * (candidate[a] - h_prev[a]) * z[a] * (1.0f - z[a]);
      dc_expected[a] = dh[a] * z[a] * (1.0f - candidate[a] * candidate[a]);
      d_prev_expected[a] += dh[a] * (1.0f - z[a]);
    }
    Floats d_prev_after_reset = d_prev_expected;
    for (int a = 0; a < n; ++a) {
      d_prev_after_reset[a] += d_r[a] * r[a];
      d_r_expected[a] = d_r[a] * h_prev[a] * r[a] * (1.0f - r[a]);
    }
    for (const CpuIsa level : cpu_isas_up_to_current()) {
      const kernels::StepKernels& f = step_kernels(level);
      BOOST_TEST_INFO(cpu_isa_name(level) << ", width " << n);
      Floats h(z.size());
      f.gru_update(z.data(), candidate.data(), h_prev.data(), h.data(), n);
      BOOST_TEST(same_bits(h, h_expected));
      Floats dz(z.size()), dc(z.size()), dp = d_prev, dr = d_r;
      f.gru_update_backward(dh.data(), z.data(), candidate.data(), h_prev.data(), dz.data(), dc.data(), dp.data(), n);
      BOOST_TEST(same_bits(dz, dz_expected));
      BOOST_TEST(same_bits(dc, dc_expected));
      BOOST_TEST(same_bits(dp, d_prev_expected));
      f.gru_reset_backward(r.data(), h_prev.data(), dr.data(), dp.data(), n);
      BOOST_TEST(same_bits(dp, d_prev_after_reset));
      BOOST_TEST(same_bits(dr, d_r_expected));
    }
  }
}

BOOST_AUTO_TEST_CASE(maxout_keeps_the_larger_of_each_pair_and_the_first_on_a_tie_or_nan) {
  std::mt19937 rng(33);
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  for (const int n : kWidths) {
    Floats pre = uniform(2 * n, rng);
    const float specials[][2] = {{1.0f, 1.0f}, {0.0f, -0.0f}, {-0.0f, 0.0f}, {nan, 1.0f}, {1.0f, nan}, {-inf, -inf}};
    for (int s = 0; s < 6 && s < n; ++s) {
      pre[2 * s] = specials[s][0];
      pre[2 * s + 1] = specials[s][1];
    }
    std::vector<std::int32_t> winner_expected(static_cast<std::size_t>(n));
    Floats out_expected(static_cast<std::size_t>(n));
    for (int a = 0; a < n; ++a) {
      winner_expected[a] = 2 * a + (pre[2 * a + 1] > pre[2 * a] ? 1 : 0);
      out_expected[a] = pre[winner_expected[a]];
    }
    for (const CpuIsa level : cpu_isas_up_to_current()) {
      std::vector<std::int32_t> winner(static_cast<std::size_t>(n), -1);
      Floats out(static_cast<std::size_t>(n));
      step_kernels(level).maxout(pre.data(), n, winner.data(), out.data());
      BOOST_TEST_INFO(cpu_isa_name(level) << ", width " << n);
      BOOST_TEST(winner == winner_expected, boost::test_tools::per_element());
      BOOST_TEST(same_bits(out, out_expected));
    }
  }
}

BOOST_AUTO_TEST_CASE(add_subtract_multiply_adam_and_adadelta_round_as_plain_cpp) {
  std::mt19937 rng(34);
  for (const int n : kWidths) {
    const Floats x = uniform(n, rng), y0 = uniform(n, rng), g = uniform(n, rng, -0.01f, 0.01f);
    Floats sum(x.size()), difference(x.size()), product(x.size());
    for (int i = 0; i < n; ++i) {
      sum[i] = y0[i] + x[i];
      difference[i] = y0[i] - 0.3f;
      product[i] = x[i] * y0[i];
    }
    // Adam and Adadelta as the optimizer writes them, with the exact square root (Eigen's
    // vectorized one was an estimate refined once, which differs between CPU makers).
    const float beta1 = 0.9f, beta2 = 0.999f, step = 3e-4f, inv_sqrt_c2 = 31.6f, epsilon = 1e-8f;
    Floats m = uniform(n, rng, -0.01f, 0.01f), v = uniform(n, rng, 0.0f, 1e-4f), w = uniform(n, rng);
    v[0] = 0.0f;
    Floats m_expected = m, v_expected = v, w_expected = w;
    for (int i = 0; i < n; ++i) {
      m_expected[i] = beta1 * m[i] + (1.0f - beta1) * g[i];
      v_expected[i] = beta2 * v[i] + (1.0f - beta2) * (g[i] * g[i]);
      w_expected[i] = w[i] - step * m_expected[i] / (std::sqrt(v_expected[i]) * inv_sqrt_c2 + epsilon);
    }
    const float rho = 0.95f, delta_epsilon = 1e-6f, rate = 1.0f;
    Floats eg2 = uniform(n, rng, 0.0f, 1e-4f), edx2 = uniform(n, rng, 0.0f, 1e-6f);
    eg2[0] = edx2[0] = 0.0f;
    Floats eg2_expected = eg2, edx2_expected = edx2, w_delta_expected = w;
    for (int i = 0; i < n; ++i) {
      eg2_expected[i] = rho * eg2[i] + (1.0f - rho) * (g[i] * g[i]);
      const float dx = -(std::sqrt(edx2[i] + delta_epsilon) / std::sqrt(eg2_expected[i] + delta_epsilon) * g[i]);
      edx2_expected[i] = rho * edx2[i] + (1.0f - rho) * (dx * dx);
      w_delta_expected[i] = w[i] + rate * dx;
    }
    for (const CpuIsa level : cpu_isas_up_to_current()) {
      const kernels::VectorKernels& f = vector_kernels(level);
      BOOST_TEST_INFO(cpu_isa_name(level) << ", width " << n);
      Floats y = y0;
      f.add(x.data(), y.data(), n);
      BOOST_TEST(same_bits(y, sum));
      y = y0;
      f.subtract_scalar(0.3f, y.data(), n);
      BOOST_TEST(same_bits(y, difference));
      f.multiply(x.data(), y0.data(), y.data(), n);
      BOOST_TEST(same_bits(y, product));
      Floats m_got = m, v_got = v, w_got = w;
      f.adam(m_got.data(), v_got.data(), w_got.data(), g.data(), n, beta1, beta2, step, inv_sqrt_c2, epsilon);
      BOOST_TEST(same_bits(m_got, m_expected));
      BOOST_TEST(same_bits(v_got, v_expected));
      BOOST_TEST(same_bits(w_got, w_expected));
      Floats eg2_got = eg2, edx2_got = edx2;
      w_got = w;
      f.adadelta(eg2_got.data(), edx2_got.data(), w_got.data(), g.data(), n, rho, delta_epsilon, rate);
      BOOST_TEST(same_bits(eg2_got, eg2_expected));
      BOOST_TEST(same_bits(edx2_got, edx2_expected));
      BOOST_TEST(same_bits(w_got, w_delta_expected));
    }
  }
}

BOOST_AUTO_TEST_CASE(a_bias_row_is_added_to_every_row_of_a_block) {
  std::mt19937 rng(35);
  Matrix m(5, 40), bias(1, 17);
  for (float& x : m.reshaped()) x = uniform(1, rng)[0];
  for (float& x : bias.reshaped()) x = uniform(1, rng)[0];
  Matrix expected = m;
  expected.middleCols(3, 17).rowwise() += bias.row(0);
  add_row_to_rows(m.middleCols(3, 17), bias);
  BOOST_TEST(std::memcmp(m.data(), expected.data(), sizeof(float) * m.size()) == 0);
}

BOOST_AUTO_TEST_CASE(next_block_above_finds_the_first_block_of_16_a_scan_would) {
  std::mt19937 rng(36);
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  for (const int count : {0, 5, 16, 17, 40, 64, 100, 1000}) {
    Floats x = uniform(count, rng, -10.0f, 0.0f);
    for (int i = 0; i < count; i += 7) x[i] = nan;  // never above
    if (count > 30) x[30] = -inf;
    for (const float worst : {-inf, -9.99f, -5.0f, -0.01f, 0.0f, inf, nan}) {
      for (int from = 0; from <= count; from += 16) {
        int expected = from;
        for (; expected + 16 <= count; expected += 16) {
          bool any = false;
          for (int l = 0; l < 16; ++l) any |= x[expected + l] > worst;
          if (any) break;
        }
        for (const CpuIsa level : cpu_isas_up_to_current()) {
          BOOST_TEST_INFO(cpu_isa_name(level) << ", count " << count << ", from " << from << ", worst " << worst);
          BOOST_TEST(vector_kernels(level).next_block_above(x.data(), from, count, worst) == expected);
        }
      }
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
