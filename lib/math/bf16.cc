#include "math/bf16.h"

#include <cstring>

#include "math/cpu_isa.h"
#include "math/kernel_tables.h"

namespace rnnsearch::math {

std::uint16_t to_bf16(float x) {
  std::uint32_t bits = 0;
  std::memcpy(&bits, &x, sizeof bits);
  if ((bits & 0x7F800000u) == 0) return static_cast<std::uint16_t>((bits >> 16) & 0x8000u);  // zero, subnormal
  if ((bits & 0x7FFFFFFFu) > 0x7F800000u) return static_cast<std::uint16_t>((bits >> 16) | 0x40u);  // quiet NaN
  bits += 0x7FFFu + ((bits >> 16) & 1u);  // to nearest, ties to the even bfloat16
  return static_cast<std::uint16_t>(bits >> 16);
}

float bf16_to_float(std::uint16_t value) {
  const std::uint32_t bits = static_cast<std::uint32_t>(value) << 16;
  float out = 0.0f;
  std::memcpy(&out, &bits, sizeof out);
  return out;
}

void round_to_bf16(const float* in, int rows, int cols, int in_stride, std::uint16_t* out, int out_stride) {
  if (const kernels::Bf16Kernels* kernels = bf16_kernels(cpu_isa())) {
    kernels->round_rows(in, rows, cols, in_stride, out, out_stride);
    return;
  }
  for (int r = 0; r < rows; ++r) {
    const float* from = in + static_cast<std::size_t>(r) * static_cast<std::size_t>(in_stride);
    std::uint16_t* to = out + static_cast<std::size_t>(r) * static_cast<std::size_t>(out_stride);
    for (int j = 0; j < cols; ++j) to[j] = to_bf16(from[j]);
  }
}

bool cpu_has_avx512_bf16() { return cpu_isa() >= CpuIsa::kAvx512Bf16; }

std::string bf16_missing_reason() {
  if (detected_cpu_isa() >= CpuIsa::kAvx512Bf16) {
    return std::string("RNNSEARCH_CPU_ISA holds the kernels at ") + cpu_isa_name(cpu_isa()) +
           ", below avx512-bf16, which this CPU has";
  }
  return "this CPU has no bf16 instructions (avx512_bf16)";
}

}  // namespace rnnsearch::math
