// Quantizing a's rows for the int8 kernels (int8_rows.h), compiled once per level
// (kernels.h): the portable form states the arithmetic; the AVX2 and AVX-512 forms do the
// same operations on 8 or 16 values at a time.
#include <cmath>

#include "math/kernels/kernels.h"

#if defined(__AVX2__) || defined(__AVX512F__)
#include <immintrin.h>
#endif

namespace rnnsearch::math::RNNSEARCH_ISA {

namespace {

// std::max(m, x) for floats, as int8_rows.h defines the maximum: a NaN x never replaces m.
inline float max_of(float m, float x) { return m < x ? x : m; }

// The formats of int8_rows.h by their element type: int8 qa, int16 qa, uint8 qa + 128.
template <typename T>
constexpr bool kUnsigned = sizeof(T) == 1 && static_cast<T>(-1) > 0;

template <typename T>
T encode(std::int8_t q) {
  return static_cast<T>(kUnsigned<T> ? q + 128 : q);
}

// max(max_abs, |row_j|) over j in [from, k): a NaN never replaces the maximum.
float max_abs_portable(const float* row, int from, int k, float max_abs) {
  for (int j = from; j < k; ++j) max_abs = max_of(max_abs, std::fabs(row[j]));
  return max_abs;
}

[[maybe_unused]] float max_abs_portable(const float* row, int k) { return max_abs_portable(row, 0, k, 0.0f); }

// q_j for j in [from, stride): row_j quantized, then zero's code in the padding (j >= k).
template <typename T>
void quantize_portable(const float* row, int from, int k, int stride, float inverse, T* q) {
  for (int j = from; j < k; ++j) q[j] = encode<T>(kernels::quantize_int8(row[j], inverse));
  for (int j = (from > k ? from : k); j < stride; ++j) q[j] = encode<T>(0);
}

template <typename T>
void quantize_portable(const float* row, int k, int stride, float inverse, T* q) {
  quantize_portable<T>(row, 0, k, stride, inverse, q);
}

// The vector forms clamp x * inverse to [-127, 127] before rounding it (vcvtps2dq, in the
// current mode as nearbyint), which gives the integers of rounding first: the rounding is
// monotonic and keeps -127 and 127. vmaxps returns its second operand when either is a
// NaN, so max(x, -127) is -127 for a NaN x, as std::max(-127.0f, NaN) is, and
// max(|x|, m) is m, as std::max(m, NaN) is.

#if defined(__AVX2__)

// The largest of m's lanes, none of them a NaN (so the order does not matter).
float max_lane(__m256 m) {
  __m128 half = _mm_max_ps(_mm256_castps256_ps128(m), _mm256_extractf128_ps(m, 1));
  half = _mm_max_ps(half, _mm_movehl_ps(half, half));
  return _mm_cvtss_f32(_mm_max_ss(half, _mm_movehdup_ps(half)));
}

__m256i quantize8_avx2(const float* x, __m256 inverse) {
  const __m256 product = _mm256_mul_ps(_mm256_loadu_ps(x), inverse);
  return _mm256_cvtps_epi32(_mm256_min_ps(_mm256_max_ps(product, _mm256_set1_ps(-127.0f)), _mm256_set1_ps(127.0f)));
}

[[maybe_unused]] float max_abs_avx2(const float* row, int k) {
  const __m256 magnitude = _mm256_castsi256_ps(_mm256_set1_epi32(0x7FFFFFFF));
  __m256 m0 = _mm256_setzero_ps(), m1 = m0;
  int j = 0;
  for (; j + 16 <= k; j += 16) {
    m0 = _mm256_max_ps(_mm256_and_ps(_mm256_loadu_ps(row + j), magnitude), m0);
    m1 = _mm256_max_ps(_mm256_and_ps(_mm256_loadu_ps(row + j + 8), magnitude), m1);
  }
  return max_abs_portable(row, j, k, max_lane(_mm256_max_ps(m0, m1)));
}

template <typename T>
void quantize_avx2(const float* row, int k, int stride, float inverse, T* q) {
  const __m256 scale = _mm256_set1_ps(inverse);
  int j = 0;
  for (; j + 16 <= k; j += 16) {
    const __m256i low = quantize8_avx2(row + j, scale), high = quantize8_avx2(row + j + 8, scale);
    const __m256i words = _mm256_permute4x64_epi64(_mm256_packs_epi32(low, high), 0xD8);  // 16 in order
    if constexpr (sizeof(T) == 2) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(q + j), words);
    } else {
      __m128i bytes = _mm_packs_epi16(_mm256_castsi256_si128(words), _mm256_extracti128_si256(words, 1));
      if constexpr (kUnsigned<T>) bytes = _mm_xor_si128(bytes, _mm_set1_epi8(-128));  // q + 128
      _mm_storeu_si128(reinterpret_cast<__m128i*>(q + j), bytes);
    }
  }
  quantize_portable<T>(row, j, k, stride, inverse, q);
}

#endif  // __AVX2__

#if defined(__AVX512F__)  // which implies __AVX2__

__m512i quantize16_avx512(__m512 x, __m512 inverse) {
  const __m512 product = _mm512_mul_ps(x, inverse);
  return _mm512_cvtps_epi32(_mm512_min_ps(_mm512_max_ps(product, _mm512_set1_ps(-127.0f)), _mm512_set1_ps(127.0f)));
}

float max_abs_avx512(const float* row, int k) {
  __m512 m0 = _mm512_setzero_ps(), m1 = m0;
  int j = 0;
  for (; j + 32 <= k; j += 32) {
    m0 = _mm512_max_ps(_mm512_abs_ps(_mm512_loadu_ps(row + j)), m0);
    m1 = _mm512_max_ps(_mm512_abs_ps(_mm512_loadu_ps(row + j + 16)), m1);
  }
  for (; j < k; j += 16) {  // the lanes past k load zeros, which change no maximum
    const __mmask16 valid = k - j >= 16 ? 0xFFFF : static_cast<__mmask16>((1u << (k - j)) - 1);
    m0 = _mm512_max_ps(_mm512_abs_ps(_mm512_maskz_loadu_ps(valid, row + j)), m0);
  }
  // Through memory: GCC 12 warns of its own _mm512_undefined_ps in the 512-bit reductions.
  alignas(64) float lanes[32];
  _mm512_store_ps(lanes, m0);
  _mm512_store_ps(lanes + 16, m1);
  const __m256 low = _mm256_max_ps(_mm256_load_ps(lanes), _mm256_load_ps(lanes + 8));
  return max_lane(_mm256_max_ps(low, _mm256_max_ps(_mm256_load_ps(lanes + 16), _mm256_load_ps(lanes + 24))));
}

// Lanes `mask` of the int32 values q (in [-127, 127]) stored in format F.
template <typename T>
void store16_avx512(T* to, __mmask16 mask, __m512i q) {
  if constexpr (kUnsigned<T>) q = _mm512_add_epi32(q, _mm512_set1_epi32(128));
  if constexpr (sizeof(T) == 2) {
    if (mask == 0xFFFF) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(to), _mm512_cvtepi32_epi16(q));
    } else {
      _mm512_mask_cvtepi32_storeu_epi16(to, mask, q);
    }
  } else if (mask == 0xFFFF) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(to), _mm512_cvtepi32_epi8(q));
  } else {
    _mm512_mask_cvtepi32_storeu_epi8(to, mask, q);
  }
}

template <typename T>
void quantize_avx512(const float* row, int k, int stride, float inverse, T* q) {
  const __m512 scale = _mm512_set1_ps(inverse);
  int j = 0;
  for (; j + 16 <= k; j += 16) store16_avx512<T>(q + j, 0xFFFF, quantize16_avx512(_mm512_loadu_ps(row + j), scale));
  if (j == stride) return;
  // k - j < 16 values, then the padding up to stride (at most 16 in all) as zeros.
  const __mmask16 valid = static_cast<__mmask16>((1u << (k - j)) - 1);
  const __m512i tail = quantize16_avx512(_mm512_maskz_loadu_ps(valid, row + j), scale);
  store16_avx512<T>(q + j, static_cast<__mmask16>((1u << (stride - j)) - 1), _mm512_maskz_mov_epi32(valid, tail));
}

#endif  // __AVX512F__


// The level's widest form of each function.
#if defined(__AVX512F__)
template <typename T>
void quantize(const float* row, int k, int stride, float inverse, T* q) {
  quantize_avx512<T>(row, k, stride, inverse, q);
}
float max_abs(const float* row, int k) { return max_abs_avx512(row, k); }
#elif defined(__AVX2__)
template <typename T>
void quantize(const float* row, int k, int stride, float inverse, T* q) {
  quantize_avx2<T>(row, k, stride, inverse, q);
}
float max_abs(const float* row, int k) { return max_abs_avx2(row, k); }
#else
template <typename T>
void quantize(const float* row, int k, int stride, float inverse, T* q) {
  quantize_portable<T>(row, k, stride, inverse, q);
}
float max_abs(const float* row, int k) { return max_abs_portable(row, k); }
#endif

}  // namespace

extern const kernels::Int8RowKernels kInt8Rows{max_abs, quantize<std::int8_t>, quantize<std::int16_t>,
                                               quantize<std::uint8_t>};

}  // namespace rnnsearch::math::RNNSEARCH_ISA
