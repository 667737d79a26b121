#include "math/bf16.h"

#include <cstring>

#if defined(__AVX512BF16__) && defined(__AVX512BW__)
#include <immintrin.h>
#endif

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
  for (int r = 0; r < rows; ++r) {
    const float* from = in + static_cast<std::size_t>(r) * static_cast<std::size_t>(in_stride);
    std::uint16_t* to = out + static_cast<std::size_t>(r) * static_cast<std::size_t>(out_stride);
    int j = 0;
#if defined(__AVX512BF16__) && defined(__AVX512BW__)
    for (; j + 16 <= cols; j += 16) {
      const __m256bh rounded = _mm512_cvtneps_pbh(_mm512_loadu_ps(from + j));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(to + j), reinterpret_cast<const __m256i&>(rounded));
    }
#endif
    for (; j < cols; ++j) to[j] = to_bf16(from[j]);
  }
}

bool cpu_has_avx512_bf16() {
  __builtin_cpu_init();
  static const bool available = __builtin_cpu_supports("avx512bf16") && __builtin_cpu_supports("avx512f");
  return available;
}

}  // namespace rnnsearch::math
