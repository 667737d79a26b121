// The int8 kernels of quantized_kernels.h, compiled once per level (kernels.h): tiles of
// up to kInt8TileCols columns (two panels) and a few rows, each summed exactly over all of
// K in int32, then finished by the same arithmetic for every kernel.
#include <cmath>
#include <cstring>

#include "math/kernels/kernels.h"

#if defined(__AVX2__)
#include <immintrin.h>
#endif
#if defined(__AVX512VNNI__) && defined(__AVX512BW__)
#define RNNSEARCH_INT8_VNNI 1
#endif

namespace rnnsearch::math::RNNSEARCH_ISA {

namespace {

constexpr int kPanel = kernels::kInt8Panel;
constexpr int kTileCols = kernels::kInt8TileCols;
constexpr int kMaxTileRows = kernels::kInt8MaxTileRows;

// c's tile from its exact sums (acc: [rows x kTileCols]), the same arithmetic for every kernel.
[[maybe_unused]] void finish_tile(const std::int32_t* acc, int rows, int cols, const float* row_scale,
                                  const float* column_scale, float alpha, float beta, float* c, int ldc) {
  for (int r = 0; r < rows; ++r) {
    float* out = c + static_cast<long>(r) * ldc;
    for (int j = 0; j < cols; ++j) {
      float v = static_cast<float>(acc[r * kTileCols + j]) * (row_scale[r] * column_scale[j]);
      if (alpha != 1.0f) v *= alpha;
      out[j] = beta == 0.0f ? v : std::fma(beta, out[j], v);
    }
  }
}

#if defined(__AVX512F__)
// finish_tile 16 columns at a time: the same operations on each element, so the same bits
// (the scalar kernel keeps the scalar form, so the kernel test compares the two).
void finish_tile_avx512(const std::int32_t* acc, int rows, int cols, const float* row_scale,
                        const float* column_scale, float alpha, float beta, float* c, int ldc) {
  for (int j = 0; j < cols; j += kPanel) {
    const __mmask16 valid = cols - j >= kPanel ? 0xFFFF : static_cast<__mmask16>((1u << (cols - j)) - 1);
    const __m512 t = _mm512_loadu_ps(column_scale + j);
    for (int r = 0; r < rows; ++r) {
      float* out = c + static_cast<long>(r) * ldc + j;
      const __m512 sum = _mm512_cvtepi32_ps(_mm512_loadu_si512(acc + r * kTileCols + j));
      __m512 v = _mm512_mul_ps(sum, _mm512_mul_ps(_mm512_set1_ps(row_scale[r]), t));
      if (alpha != 1.0f) v = _mm512_mul_ps(v, _mm512_set1_ps(alpha));
      if (beta != 0.0f) v = _mm512_fmadd_ps(_mm512_set1_ps(beta), _mm512_maskz_loadu_ps(valid, out), v);
      _mm512_mask_storeu_ps(out, valid, v);
    }
  }
}
#endif

// Portable: one sum per element, a (s8) read as quantized.
[[maybe_unused]] void scalar_tile(const void* a, int lda, int rows, const std::int8_t* w0, const std::int8_t* w1,
                                  int k4, const std::int32_t* /*offset*/, std::int32_t* acc) {
  const auto* q = static_cast<const std::int8_t*>(a);
  for (int r = 0; r < rows; ++r) {
    for (int j = 0; j < kTileCols; ++j) {
      const std::int8_t* column = (j < kPanel ? w0 : w1) + (j % kPanel) * 4;
      std::int32_t sum = 0;
      for (int p = 0; p < k4; ++p) {
        for (int kk = 0; kk < 4; ++kk) sum += q[r * lda + 4 * p + kk] * column[p * kPanel * 4 + kk];
      }
      acc[r * kTileCols + j] = sum;
    }
  }
}

#if defined(__AVX2__)

template <typename T>
T load_bits(const void* p) {
  T value;
  std::memcpy(&value, p, sizeof value);
  return value;
}

// One row's step: acc0 += x * w0, acc1 += x * w1 (vpmaddwd pair sums, then vpaddd), x the
// row's four k broadcast. GCC 12 adds the intrinsics' products into new registers and copies
// them back to the accumulators, spilling one to the stack every k step (about twice the
// instructions of the products, 15% slower): the asm adds in place.
inline void madd_row(__m256i& acc0, __m256i& acc1, __m256i x, __m256i w0, __m256i w1) {
#if defined(__GNUC__)
  __m256i product;
  asm("vpmaddwd %4, %3, %2\n\t"
      "vpaddd %2, %0, %0\n\t"
      "vpmaddwd %5, %3, %2\n\t"
      "vpaddd %2, %1, %1"
      : "+x"(acc0), "+x"(acc1), "=&x"(product)
      : "x"(x), "x"(w0), "x"(w1));
#else
  acc0 = _mm256_add_epi32(acc0, _mm256_madd_epi16(x, w0));
  acc1 = _mm256_add_epi32(acc1, _mm256_madd_epi16(x, w1));
#endif
}

// AVX2: 8 columns (two chunks of 4 columns x 4 k, widened to 16 bits) by up to 6 rows
// (a widened to 16 bits, four k broadcast); vpmaddwd sums pairs into 32 bits exactly.
template <int R>
void avx2_part(const std::int16_t* a, int lda, const std::int8_t* w, int k4, std::int32_t* acc) {
  __m256i c00 = _mm256_setzero_si256(), c01 = c00, c10 = c00, c11 = c00, c20 = c00, c21 = c00, c30 = c00, c31 = c00;
  __m256i c40 = c00, c41 = c00, c50 = c00, c51 = c00;
  for (int p = 0; p < k4; ++p) {
    const std::int8_t* chunk = w + p * kPanel * 4;
    const __m256i b0 = _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(chunk)));
    const __m256i b1 = _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(chunk + 16)));
#define RNNSEARCH_INT8_ROW(r)                                                              \
  if constexpr (R > r) {                                                                   \
    const __m256i x = _mm256_set1_epi64x(load_bits<long long>(a + r * lda + 4 * p));       \
    madd_row(c##r##0, c##r##1, x, b0, b1);                                                 \
  }
    RNNSEARCH_INT8_ROW(0) RNNSEARCH_INT8_ROW(1) RNNSEARCH_INT8_ROW(2) RNNSEARCH_INT8_ROW(3)
    RNNSEARCH_INT8_ROW(4) RNNSEARCH_INT8_ROW(5)
#undef RNNSEARCH_INT8_ROW
  }
  // Lanes hold half sums of columns 0,0,1,1,2,2,3,3 and 4,4,...: add the halves, restore the order.
#define RNNSEARCH_INT8_STORE(r)                                                                        \
  if constexpr (R > r) {                                                                               \
    const __m256i sums = _mm256_permute4x64_epi64(_mm256_hadd_epi32(c##r##0, c##r##1), 0xD8);         \
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(acc + r * kTileCols), sums);                       \
  }
  RNNSEARCH_INT8_STORE(0) RNNSEARCH_INT8_STORE(1) RNNSEARCH_INT8_STORE(2) RNNSEARCH_INT8_STORE(3)
  RNNSEARCH_INT8_STORE(4) RNNSEARCH_INT8_STORE(5)
#undef RNNSEARCH_INT8_STORE
}

template <int R>
void avx2_rows(const std::int16_t* a, int lda, const std::int8_t* w0, const std::int8_t* w1, int k4,
               std::int32_t* acc) {
  avx2_part<R>(a, lda, w0, k4, acc);
  avx2_part<R>(a, lda, w0 + 32, k4, acc + 8);
  avx2_part<R>(a, lda, w1, k4, acc + 16);
  avx2_part<R>(a, lda, w1 + 32, k4, acc + 24);
}

[[maybe_unused]] void avx2_tile(const void* a, int lda, int rows, const std::int8_t* w0, const std::int8_t* w1,
                                int k4, const std::int32_t* /*offset*/, std::int32_t* acc) {
  const auto* x = static_cast<const std::int16_t*>(a);
  switch (rows) {
    case 1: avx2_rows<1>(x, lda, w0, w1, k4, acc); break;
    case 2: avx2_rows<2>(x, lda, w0, w1, k4, acc); break;
    case 3: avx2_rows<3>(x, lda, w0, w1, k4, acc); break;
    case 4: avx2_rows<4>(x, lda, w0, w1, k4, acc); break;
    case 5: avx2_rows<5>(x, lda, w0, w1, k4, acc); break;
    default: avx2_rows<6>(x, lda, w0, w1, k4, acc); break;
  }
}

#endif  // __AVX2__

#ifdef RNNSEARCH_INT8_VNNI

// acc += a (u8) x w (s8), four products per int32 lane (vpdpbusd). GCC 12 copies the
// accumulator of _mm512_dpbusd_epi32 to another register and back around the instruction,
// and from 8 rows on spills the tile's accumulators to the stack every k step (12 rows ran
// at half the speed): the asm reads and writes the accumulator in place.
inline void dpbusd(__m512i& acc, __m512i a, __m512i w) {
#if defined(__GNUC__)
  asm("vpdpbusd %2, %1, %0" : "+v"(acc) : "v"(a), "v"(w));
#else
  acc = _mm512_dpbusd_epi32(acc, a, w);
#endif
}

// AVX512_VNNI: 32 columns (two panels, 16 int32 lanes each) by up to 12 rows; each
// vpdpbusd adds four products u8 (a + 128) x s8 (w) into a lane, then 128 * sum_k w goes.
template <int R>
void vnni_rows(const std::uint8_t* a, int lda, const std::int8_t* w0, const std::int8_t* w1, int k4,
               const std::int32_t* offset, std::int32_t* acc) {
  static_assert(R >= 1 && R <= kMaxTileRows, "a tile has 1 to 12 rows");
  __m512i c00 = _mm512_setzero_si512(), c01 = c00, c10 = c00, c11 = c00, c20 = c00, c21 = c00, c30 = c00, c31 = c00;
  __m512i c40 = c00, c41 = c00, c50 = c00, c51 = c00, c60 = c00, c61 = c00, c70 = c00, c71 = c00;
  __m512i c80 = c00, c81 = c00, c90 = c00, c91 = c00, c100 = c00, c101 = c00, c110 = c00, c111 = c00;
  for (int p = 0; p < k4; ++p) {
    const __m512i b0 = _mm512_loadu_si512(w0 + p * kPanel * 4), b1 = _mm512_loadu_si512(w1 + p * kPanel * 4);
#define RNNSEARCH_INT8_ROW(r)                                                  \
  if constexpr (R > r) {                                                       \
    const __m512i x = _mm512_set1_epi32(load_bits<int>(a + r * lda + 4 * p));  \
    dpbusd(c##r##0, x, b0);                                                    \
    dpbusd(c##r##1, x, b1);                                                    \
  }
    RNNSEARCH_INT8_ROW(0) RNNSEARCH_INT8_ROW(1) RNNSEARCH_INT8_ROW(2) RNNSEARCH_INT8_ROW(3)
    RNNSEARCH_INT8_ROW(4) RNNSEARCH_INT8_ROW(5) RNNSEARCH_INT8_ROW(6) RNNSEARCH_INT8_ROW(7)
    RNNSEARCH_INT8_ROW(8) RNNSEARCH_INT8_ROW(9) RNNSEARCH_INT8_ROW(10) RNNSEARCH_INT8_ROW(11)
#undef RNNSEARCH_INT8_ROW
  }
  const __m512i o0 = _mm512_loadu_si512(offset), o1 = _mm512_loadu_si512(offset + kPanel);
#define RNNSEARCH_INT8_STORE(r)                                                     \
  if constexpr (R > r) {                                                            \
    _mm512_storeu_si512(acc + r * kTileCols, _mm512_sub_epi32(c##r##0, o0));        \
    _mm512_storeu_si512(acc + r * kTileCols + kPanel, _mm512_sub_epi32(c##r##1, o1)); \
  }
  RNNSEARCH_INT8_STORE(0) RNNSEARCH_INT8_STORE(1) RNNSEARCH_INT8_STORE(2) RNNSEARCH_INT8_STORE(3)
  RNNSEARCH_INT8_STORE(4) RNNSEARCH_INT8_STORE(5) RNNSEARCH_INT8_STORE(6) RNNSEARCH_INT8_STORE(7)
  RNNSEARCH_INT8_STORE(8) RNNSEARCH_INT8_STORE(9) RNNSEARCH_INT8_STORE(10) RNNSEARCH_INT8_STORE(11)
#undef RNNSEARCH_INT8_STORE
}

using VnniRows = void (*)(const std::uint8_t*, int, const std::int8_t*, const std::int8_t*, int, const std::int32_t*,
                          std::int32_t*);
constexpr VnniRows kVnniRows[kMaxTileRows + 1] = {
    nullptr,      vnni_rows<1>, vnni_rows<2>, vnni_rows<3>,  vnni_rows<4>,  vnni_rows<5>, vnni_rows<6>,
    vnni_rows<7>, vnni_rows<8>, vnni_rows<9>, vnni_rows<10>, vnni_rows<11>, vnni_rows<12>};

void vnni_tile(const void* a, int lda, int rows, const std::int8_t* w0, const std::int8_t* w1, int k4,
               const std::int32_t* offset, std::int32_t* acc) {
  kVnniRows[rows](static_cast<const std::uint8_t*>(a), lda, w0, w1, k4, offset, acc);
}

#endif  // RNNSEARCH_INT8_VNNI

}  // namespace

// The level's widest tiles.
#if defined(RNNSEARCH_INT8_VNNI)
extern const kernels::Int8TileKernels kInt8Tiles{kMaxTileRows, vnni_tile, finish_tile_avx512};
#elif defined(__AVX2__)
extern const kernels::Int8TileKernels kInt8Tiles{6, avx2_tile, finish_tile};
#else
extern const kernels::Int8TileKernels kInt8Tiles{4, scalar_tile, finish_tile};
#endif

}  // namespace rnnsearch::math::RNNSEARCH_ISA
