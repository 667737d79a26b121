#pragma once
// One gradient check for every layer: central finite differences of the scalar
//   L = sum_ij output_ij * probe_ij     (probe: a fixed random matrix)
// with respect to every coordinate of every registered parameter and of every input,
// compared with what the layer's backward pass computes for d_output = probe.
// Layers compute in float, so the check uses a step and a tolerance that still catch
// a wrong sign, a missing term or a transposed product (each gives errors near 1); the
// loss is summed in double, and errors are relative to the gradients or, for tiny ones,
// to the rounding noise of the numeric side, so a small wrong coordinate fails too.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "math/types.h"
#include "nn/parameters.h"

namespace rnnsearch::testing {

struct GradientReport {
  double worst_error = 0.0;  // |analytic - numeric| / (floor + |analytic| + |numeric|)
  double floor = 0.0;        // what rounding alone can move the numeric gradient by (gradcheck.cc)
  std::string worst_place;   // "decoder.W[3,1]" or "input 0[2,5]"
  std::size_t checked = 0;   // coordinates compared
};

// `forward` recomputes the output from the registry's values and *inputs;
// `backward(d_output, d_inputs)` adds parameter gradients into the registry and input
// gradients into d_inputs (zeroed, shaped like the inputs, before the call).
GradientReport check_gradients(nn::ParameterRegistry& parameters, const std::vector<math::Matrix*>& inputs,
                               const std::function<math::Matrix()>& forward,
                               const std::function<void(const math::Matrix&, std::vector<math::Matrix>&)>& backward,
                               std::uint32_t seed = 1, float step = 1e-2f);

// Fills every parameter with uniform values in [-scale, scale] (seeded).
void randomize(nn::ParameterRegistry& parameters, std::uint32_t seed, float scale = 0.5f);
math::Matrix random_matrix(int rows, int cols, std::uint32_t seed, float scale = 1.0f);

}  // namespace rnnsearch::testing
