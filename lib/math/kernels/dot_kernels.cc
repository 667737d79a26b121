// The kernels of math::tanh_dot and math::lane_dot (tanh_dot.h) and of attention's context
// (nn/attention.cc), compiled once per level (kernels.h): one arithmetic, written for the
// baseline (std::fma), AVX2 (two 8-float registers stand for the 16 lanes) and AVX-512.
// The scalar code writes every multiply-add as std::fma and no product feeds an addition.
#include <cmath>

#include "math/kernels/kernels.h"

#if defined(__AVX2__) || defined(__AVX512F__)
#include <immintrin.h>
#endif

namespace rnnsearch::math::RNNSEARCH_ISA {

namespace {

// fast_tanh's clamp and coefficients: P(s) = P0 + P1 s + P2 s^2, Q(s) = 1 + Q1 s + Q2 s^2,
// fitted (Loeb's linearization with Lawson's weights) to tanh on [0, 10] with the clamp.
constexpr float kClamp = 5.0f;
constexpr float kP0 = 0.99980300220794765f, kP1 = 0.10165116056761476f, kP2 = 0.00065321446652657612f;
constexpr float kQ1 = 0.43441560972667479f, kQ2 = 0.012619536398138124f;
constexpr int kLanes = 16;

// The 16 lanes summed pairwise as tanh_dot.h says: l[i] += l[i + 8], then + 4, + 2, + 1.
float sum_lanes(float* lane) {
  for (int width = kLanes / 2; width >= 1; width /= 2) {
    for (int i = 0; i < width; ++i) lane[i] += lane[i + width];
  }
  return lane[0];
}

// fast_tanh (tanh_dot.h), one value: the arithmetic every kernel does per element.
float fast_tanh(float x) {
  float y = kClamp < x ? kClamp : x;  // min and max as the vector instructions take them
  y = -kClamp > y ? -kClamp : y;
  const float s = y * y;
  const float p = std::fma(std::fma(kP2, s, kP1), s, kP0);
  const float d = std::fma(std::fma(kQ2, s, kQ1), s, 1.0f);
  return (y * p) / d;
}

[[maybe_unused]] float tanh_dot_scalar(const float* q, const float* k, const float* v, int n) {
  float lane[kLanes] = {};
  for (int a = 0; a < n; ++a) lane[a % kLanes] = std::fma(v[a], fast_tanh(q[a] + k[a]), lane[a % kLanes]);
  return sum_lanes(lane);
}

#if (defined(__AVX2__) && defined(__FMA__)) || defined(__AVX512F__)
// Lanes 0-7 summed pairwise as tanh_dot.h says: l[i] + l[i + 4], then + 2, then + 1.
inline float sum_8_lanes(__m256 l8) {
  const __m128 l4 = _mm_add_ps(_mm256_castps256_ps128(l8), _mm256_extractf128_ps(l8, 1));
  const __m128 l2 = _mm_add_ps(l4, _mm_movehl_ps(l4, l4));
  return _mm_cvtss_f32(_mm_add_ss(l2, _mm_movehdup_ps(l2)));
}
#endif

#if defined(__AVX2__) && defined(__FMA__)
// acc + v * fast_tanh(x) for 8 elements.
inline __m256 tanh_fma_8(__m256 x, __m256 v, __m256 acc) {
  const __m256 y = _mm256_max_ps(_mm256_set1_ps(-kClamp), _mm256_min_ps(_mm256_set1_ps(kClamp), x));
  const __m256 s = _mm256_mul_ps(y, y);
  const __m256 p_inner = _mm256_fmadd_ps(_mm256_set1_ps(kP2), s, _mm256_set1_ps(kP1));
  const __m256 d_inner = _mm256_fmadd_ps(_mm256_set1_ps(kQ2), s, _mm256_set1_ps(kQ1));
  const __m256 p = _mm256_fmadd_ps(p_inner, s, _mm256_set1_ps(kP0));
  const __m256 d = _mm256_fmadd_ps(d_inner, s, _mm256_set1_ps(1.0f));
  return _mm256_fmadd_ps(v, _mm256_div_ps(_mm256_mul_ps(y, p), d), acc);
}

// maskload masks of the first `count` (< 16) of 16 elements: lanes 0-7 and 8-15.
inline void tail_masks_avx2(int count, __m256i& mask_lo, __m256i& mask_hi) {
  const __m256i index = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  mask_lo = _mm256_cmpgt_epi32(_mm256_set1_epi32(count), index);
  mask_hi = _mm256_cmpgt_epi32(_mm256_set1_epi32(count - 8), index);
}

// The next `count` (< 16) elements' share of lanes lo (0-7) and hi (8-15); the rest read as 0.
inline void tanh_tail_avx2(const float* q, const float* k, const float* v, int count, __m256& lo, __m256& hi) {
  __m256i mask_lo, mask_hi;
  tail_masks_avx2(count, mask_lo, mask_hi);
  lo = tanh_fma_8(_mm256_add_ps(_mm256_maskload_ps(q, mask_lo), _mm256_maskload_ps(k, mask_lo)),
                  _mm256_maskload_ps(v, mask_lo), lo);
  hi = tanh_fma_8(_mm256_add_ps(_mm256_maskload_ps(q + 8, mask_hi), _mm256_maskload_ps(k + 8, mask_hi)),
                  _mm256_maskload_ps(v + 8, mask_hi), hi);
}

[[maybe_unused]] float tanh_dot_avx2(const float* q, const float* k, const float* v, int n) {
  __m256 lo = _mm256_setzero_ps(), hi = _mm256_setzero_ps();  // lanes 0-7 and 8-15
  int a = 0;
  for (; a + kLanes <= n; a += kLanes) {
    lo = tanh_fma_8(_mm256_add_ps(_mm256_loadu_ps(q + a), _mm256_loadu_ps(k + a)), _mm256_loadu_ps(v + a), lo);
    hi = tanh_fma_8(_mm256_add_ps(_mm256_loadu_ps(q + a + 8), _mm256_loadu_ps(k + a + 8)), _mm256_loadu_ps(v + a + 8),
                    hi);
  }
  if (a < n) tanh_tail_avx2(q + a, k + a, v + a, n - a, lo, hi);
  return sum_8_lanes(_mm256_add_ps(lo, hi));
}
#endif

#if defined(__AVX512F__)
// acc + v * fast_tanh(x) for 16 elements.
inline __m512 tanh_fma_16(__m512 x, __m512 v, __m512 acc) {
  const __m512 y = _mm512_max_ps(_mm512_set1_ps(-kClamp), _mm512_min_ps(_mm512_set1_ps(kClamp), x));
  const __m512 s = _mm512_mul_ps(y, y);
  const __m512 p_inner = _mm512_fmadd_ps(_mm512_set1_ps(kP2), s, _mm512_set1_ps(kP1));
  const __m512 d_inner = _mm512_fmadd_ps(_mm512_set1_ps(kQ2), s, _mm512_set1_ps(kQ1));
  const __m512 p = _mm512_fmadd_ps(p_inner, s, _mm512_set1_ps(kP0));
  const __m512 d = _mm512_fmadd_ps(d_inner, s, _mm512_set1_ps(1.0f));
  return _mm512_fmadd_ps(v, _mm512_div_ps(_mm512_mul_ps(y, p), d), acc);
}

float tanh_dot_avx512(const float* q, const float* k, const float* v, int n) {
  __m512 acc = _mm512_setzero_ps();
  int a = 0;
  for (; a + kLanes <= n; a += kLanes) {
    acc = tanh_fma_16(_mm512_add_ps(_mm512_loadu_ps(q + a), _mm512_loadu_ps(k + a)), _mm512_loadu_ps(v + a), acc);
  }
  if (a < n) {
    const auto valid = static_cast<__mmask16>((1u << (n - a)) - 1u);
    acc = tanh_fma_16(_mm512_add_ps(_mm512_maskz_loadu_ps(valid, q + a), _mm512_maskz_loadu_ps(valid, k + a)),
                      _mm512_maskz_loadu_ps(valid, v + a), acc);
  }
  alignas(64) float lane[kLanes];  // summed from memory, as lane_dot does
  _mm512_store_ps(lane, acc);
  return sum_lanes(lane);
}
#endif

// lane_dot without vector instructions.
[[maybe_unused]] float lane_dot_scalar(const float* h, const float* v, int n) {
  float lane[kLanes] = {};
  for (int a = 0; a < n; ++a) lane[a % kLanes] = std::fma(h[a], v[a], lane[a % kLanes]);
  return sum_lanes(lane);
}

float lane_dot(const float* h, const float* v, int n) {
#if defined(__AVX512F__)
  __m512 acc = _mm512_setzero_ps();
  int a = 0;
  for (; a + kLanes <= n; a += kLanes) acc = _mm512_fmadd_ps(_mm512_loadu_ps(h + a), _mm512_loadu_ps(v + a), acc);
  if (a < n) {
    const auto valid = static_cast<__mmask16>((1u << (n - a)) - 1u);
    acc = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(valid, h + a), _mm512_maskz_loadu_ps(valid, v + a), acc);
  }
  // The pairwise sum from memory: extracting the high half made GCC 12 warn of an
  // uninitialized operand inside its own intrinsics.
  alignas(64) float lane[kLanes];
  _mm512_store_ps(lane, acc);
  return sum_lanes(lane);
#elif defined(__AVX2__) && defined(__FMA__)
  __m256 lo = _mm256_setzero_ps(), hi = _mm256_setzero_ps();  // lanes 0-7 and 8-15
  int a = 0;
  for (; a + kLanes <= n; a += kLanes) {
    lo = _mm256_fmadd_ps(_mm256_loadu_ps(h + a), _mm256_loadu_ps(v + a), lo);
    hi = _mm256_fmadd_ps(_mm256_loadu_ps(h + a + 8), _mm256_loadu_ps(v + a + 8), hi);
  }
  if (a < n) {  // the last n - a < 16 elements; the rest read as 0
    __m256i mask_lo, mask_hi;
    tail_masks_avx2(n - a, mask_lo, mask_hi);
    lo = _mm256_fmadd_ps(_mm256_maskload_ps(h + a, mask_lo), _mm256_maskload_ps(v + a, mask_lo), lo);
    hi = _mm256_fmadd_ps(_mm256_maskload_ps(h + a + 8, mask_hi), _mm256_maskload_ps(v + a + 8, mask_hi), hi);
  }
  return sum_8_lanes(_mm256_add_ps(lo, hi));
#else
  return lane_dot_scalar(h, v, n);
#endif
}


float tanh_dot(const float* q, const float* k, const float* v, int n) {
#if defined(__AVX512F__)
  return tanh_dot_avx512(q, k, v, n);
#elif defined(__AVX2__) && defined(__FMA__)
  return tanh_dot_avx2(q, k, v, n);
#else
  return tanh_dot_scalar(q, k, v, n);
#endif
}

// out[0, width) = sum over j < span, in order, of weights[j] * rows[j][0, width) (row j at
// rows + j * stride), each element one fused multiply-add chain from 0: the bits of
// `c += w * h` row by row, with the sums held in registers across the positions.
void weighted_rows(const float* weights, int span, const float* rows, long stride, int width, float* out) {
  int k = 0;
#if defined(__AVX512F__)
  constexpr int kLanes = 16, kRegisters = 8;
  for (; k + kLanes * kRegisters <= width; k += kLanes * kRegisters) {
    __m512 acc[kRegisters];
    for (auto& a : acc) a = _mm512_setzero_ps();
    for (int j = 0; j < span; ++j) {
      const __m512 w = _mm512_set1_ps(weights[j]);
      const float* h = rows + j * stride + k;
      for (int i = 0; i < kRegisters; ++i) acc[i] = _mm512_fmadd_ps(w, _mm512_loadu_ps(h + i * kLanes), acc[i]);
    }
    for (int i = 0; i < kRegisters; ++i) _mm512_storeu_ps(out + k + i * kLanes, acc[i]);
  }
#elif defined(__AVX2__) && defined(__FMA__)
  constexpr int kLanes = 8, kRegisters = 8;
  for (; k + kLanes * kRegisters <= width; k += kLanes * kRegisters) {
    __m256 acc[kRegisters];
    for (auto& a : acc) a = _mm256_setzero_ps();
    for (int j = 0; j < span; ++j) {
      const __m256 w = _mm256_set1_ps(weights[j]);
      const float* h = rows + j * stride + k;
      for (int i = 0; i < kRegisters; ++i) acc[i] = _mm256_fmadd_ps(w, _mm256_loadu_ps(h + i * kLanes), acc[i]);
    }
    for (int i = 0; i < kRegisters; ++i) _mm256_storeu_ps(out + k + i * kLanes, acc[i]);
  }
#endif
  for (; k < width; ++k) {
    float sum = 0.0f;
    for (int j = 0; j < span; ++j) sum = std::fma(weights[j], rows[j * stride + k], sum);
    out[k] = sum;
  }
}

}  // namespace

extern const kernels::DotKernels kDot{fast_tanh, tanh_dot, lane_dot, weighted_rows};

}  // namespace rnnsearch::math::RNNSEARCH_ISA
