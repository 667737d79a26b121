#include "support/gradcheck.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace rnnsearch::testing {
namespace {

double probe_loss(const math::Matrix& output, const math::Matrix& probe) {
  double loss = 0.0;
  for (Eigen::Index i = 0; i < output.size(); ++i) {
    loss += static_cast<double>(output.data()[i]) * probe.data()[i];
  }
  return loss;
}

// How far apart the two sides can be from rounding alone: the float outputs carry a
// relative error of a few units of 2^-24 each, so L carries about that times
// S = sum |output_ij probe_ij|, and (L+ - L-) / 2h that divided by h. Errors are measured
// relative to this floor (or to the gradients, when larger), so a small wrong coordinate
// fails unless rounding could explain it.
double rounding_floor(const math::Matrix& output, const math::Matrix& probe, float step) {
  double magnitude = 0.0;
  for (Eigen::Index i = 0; i < output.size(); ++i) {
    magnitude += std::fabs(static_cast<double>(output.data()[i]) * probe.data()[i]);
  }
  constexpr double kUnitsOfRounding = 64.0;  // rounding accumulated through a layer's float products and sums
  return std::max(1e-9, kUnitsOfRounding * std::ldexp(magnitude, -24) / step);
}

// Compares the analytic gradient with central differences over every coordinate of `values`.
void compare(math::Matrix& values, const math::Matrix& analytic, const std::string& name,
             const std::function<math::Matrix()>& forward, const math::Matrix& probe, float step, double floor,
             GradientReport& report) {
  for (Eigen::Index r = 0; r < values.rows(); ++r) {
    for (Eigen::Index c = 0; c < values.cols(); ++c) {
      const float saved = values(r, c);
      values(r, c) = saved + step;
      const double plus = probe_loss(forward(), probe);
      values(r, c) = saved - step;
      const double minus = probe_loss(forward(), probe);
      values(r, c) = saved;
      const double numeric = (plus - minus) / (2.0 * step);
      const double a = analytic(r, c);
      const double error = std::fabs(a - numeric) / (floor + std::fabs(a) + std::fabs(numeric));
      ++report.checked;
      if (error > report.worst_error) {
        report.worst_error = error;
        report.worst_place = name + "[" + std::to_string(r) + "," + std::to_string(c) +
                             "]: analytic " + std::to_string(a) + ", numeric " + std::to_string(numeric);
      }
    }
  }
}

}  // namespace

math::Matrix random_matrix(int rows, int cols, std::uint32_t seed, float scale) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-scale, scale);
  math::Matrix m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = u(rng);
  return m;
}

void randomize(nn::ParameterRegistry& parameters, std::uint32_t seed, float scale) {
  for (nn::Parameter* p : parameters.all()) {
    p->value = random_matrix(static_cast<int>(p->value.rows()), static_cast<int>(p->value.cols()), seed++, scale);
  }
}

GradientReport check_gradients(nn::ParameterRegistry& parameters, const std::vector<math::Matrix*>& inputs,
                               const std::function<math::Matrix()>& forward,
                               const std::function<void(const math::Matrix&, std::vector<math::Matrix>&)>& backward,
                               std::uint32_t seed, float step) {
  const math::Matrix output = forward();
  const math::Matrix probe =
      random_matrix(static_cast<int>(output.rows()), static_cast<int>(output.cols()), seed);
  parameters.zero_gradients();
  std::vector<math::Matrix> d_inputs;
  for (const math::Matrix* in : inputs) d_inputs.push_back(math::Matrix::Zero(in->rows(), in->cols()));
  backward(probe, d_inputs);

  GradientReport report;
  report.floor = rounding_floor(output, probe, step);
  for (nn::Parameter* p : parameters.all()) {
    const math::Matrix analytic = p->gradient;
    compare(p->value, analytic, p->name, forward, probe, step, report.floor, report);
  }
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    compare(*inputs[i], d_inputs[i], "input " + std::to_string(i), forward, probe, step, report.floor, report);
  }
  return report;
}

}  // namespace rnnsearch::testing
