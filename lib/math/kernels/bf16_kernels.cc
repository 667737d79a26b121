// The bf16 kernels (quantized_kernels.h, bf16.h), compiled for the avx512-bf16 level only
// (kernels.h): vdpbf16ps over tiles of 32 columns (two panels) by up to 12 rows, each element
// one chain over k in order, and the rounding of fp32 rows to bfloat16 (vcvtneps2bf16, the
// bits of math::to_bf16).
#include <cstring>

#include "math/bf16.h"
#include "math/kernels/kernels.h"

#include <immintrin.h>

namespace rnnsearch::math::RNNSEARCH_ISA {

namespace {

constexpr int kPanel = kernels::kInt8Panel;  // the panels of PackedMatrix, whatever the precision
constexpr int kTileCols = 2 * kPanel;
constexpr int kMaxTileRows = 12;

inline __m512bh pair_of(const std::uint16_t* p) {
  int bits;
  std::memcpy(&bits, p, sizeof bits);
  return reinterpret_cast<__m512bh>(_mm512_set1_epi32(bits));
}

inline __m512bh load_pairs(const std::uint16_t* p) { return reinterpret_cast<__m512bh>(_mm512_loadu_si512(p)); }

// c = alpha * sum + beta * c for the valid columns of one row's vector.
inline void write(__m512 sum, float alpha, float beta, __mmask16 valid, float* c) {
  if (alpha != 1.0f) sum = _mm512_mul_ps(_mm512_set1_ps(alpha), sum);
  if (beta != 0.0f) sum = _mm512_fmadd_ps(_mm512_set1_ps(beta), _mm512_maskz_loadu_ps(valid, c), sum);
  _mm512_mask_storeu_ps(c, valid, sum);
}

template <int R>
void bf16_rows(const std::uint16_t* a, int lda, const std::uint16_t* w0, const std::uint16_t* w1, int k2, float alpha,
               float beta, int cols, float* c, int ldc) {
  static_assert(R >= 1 && R <= kMaxTileRows, "a tile has 1 to 12 rows");
  __m512 c00 = _mm512_setzero_ps(), c01 = c00, c10 = c00, c11 = c00, c20 = c00, c21 = c00, c30 = c00, c31 = c00;
  __m512 c40 = c00, c41 = c00, c50 = c00, c51 = c00, c60 = c00, c61 = c00, c70 = c00, c71 = c00;
  __m512 c80 = c00, c81 = c00, c90 = c00, c91 = c00, c100 = c00, c101 = c00, c110 = c00, c111 = c00;
  for (int p = 0; p < k2; ++p) {
    const __m512bh b0 = load_pairs(w0 + p * kPanel * 2), b1 = load_pairs(w1 + p * kPanel * 2);
#define RNNSEARCH_BF16_ROW(r)                               \
  if constexpr (R > r) {                                    \
    const __m512bh x = pair_of(a + r * lda + 2 * p);        \
    c##r##0 = _mm512_dpbf16_ps(c##r##0, x, b0);             \
    c##r##1 = _mm512_dpbf16_ps(c##r##1, x, b1);             \
  }
    RNNSEARCH_BF16_ROW(0) RNNSEARCH_BF16_ROW(1) RNNSEARCH_BF16_ROW(2) RNNSEARCH_BF16_ROW(3)
    RNNSEARCH_BF16_ROW(4) RNNSEARCH_BF16_ROW(5) RNNSEARCH_BF16_ROW(6) RNNSEARCH_BF16_ROW(7)
    RNNSEARCH_BF16_ROW(8) RNNSEARCH_BF16_ROW(9) RNNSEARCH_BF16_ROW(10) RNNSEARCH_BF16_ROW(11)
#undef RNNSEARCH_BF16_ROW
  }
  const __mmask16 valid0 = cols >= kPanel ? 0xFFFF : static_cast<__mmask16>((1u << cols) - 1);
  const __mmask16 valid1 = cols >= kTileCols ? 0xFFFF
                           : cols <= kPanel  ? 0
                                             : static_cast<__mmask16>((1u << (cols - kPanel)) - 1);
#define RNNSEARCH_BF16_STORE(r)                                                      \
  if constexpr (R > r) {                                                             \
    write(c##r##0, alpha, beta, valid0, c + static_cast<long>(r) * ldc);             \
    write(c##r##1, alpha, beta, valid1, c + static_cast<long>(r) * ldc + kPanel);    \
  }
  RNNSEARCH_BF16_STORE(0) RNNSEARCH_BF16_STORE(1) RNNSEARCH_BF16_STORE(2) RNNSEARCH_BF16_STORE(3)
  RNNSEARCH_BF16_STORE(4) RNNSEARCH_BF16_STORE(5) RNNSEARCH_BF16_STORE(6) RNNSEARCH_BF16_STORE(7)
  RNNSEARCH_BF16_STORE(8) RNNSEARCH_BF16_STORE(9) RNNSEARCH_BF16_STORE(10) RNNSEARCH_BF16_STORE(11)
#undef RNNSEARCH_BF16_STORE
}

using Bf16Rows = void (*)(const std::uint16_t*, int, const std::uint16_t*, const std::uint16_t*, int, float, float, int,
                          float*, int);
constexpr Bf16Rows kBf16Rows[kMaxTileRows + 1] = {
    nullptr,      bf16_rows<1>, bf16_rows<2>, bf16_rows<3>,  bf16_rows<4>,  bf16_rows<5>, bf16_rows<6>,
    bf16_rows<7>, bf16_rows<8>, bf16_rows<9>, bf16_rows<10>, bf16_rows<11>, bf16_rows<12>};

// c [m x n] = alpha * rows * packed + beta * c, rows [m x 2 * k2] in bfloat16.
void multiply(const std::uint16_t* rows, int m, int k2, const std::uint16_t* packed, int panels, int n, float alpha,
              float beta, float* c, int ldc) {
  const int lda = 2 * k2;
  for (int p = 0; p < panels; p += 2) {
    const int j = p * kPanel, cols = n - j < kTileCols ? n - j : kTileCols;
    const std::uint16_t* w0 = packed + static_cast<std::size_t>(p) * k2 * kPanel * 2;
    const std::uint16_t* w1 = w0 + static_cast<std::size_t>(k2) * kPanel * 2;
    for (int i = 0; i < m; i += kMaxTileRows) {
      const int tile_rows = m - i < kMaxTileRows ? m - i : kMaxTileRows;
      kBf16Rows[tile_rows](rows + static_cast<std::size_t>(i) * lda, lda, w0, w1, k2, alpha, beta, cols,
                           c + static_cast<long>(i) * ldc + j, ldc);
    }
  }
}

// Rows rounded to bfloat16, 16 values at a time, the rest by math::to_bf16.
void round_rows(const float* in, int rows, int cols, int in_stride, std::uint16_t* out, int out_stride) {
  for (int r = 0; r < rows; ++r) {
    const float* from = in + static_cast<std::size_t>(r) * static_cast<std::size_t>(in_stride);
    std::uint16_t* to = out + static_cast<std::size_t>(r) * static_cast<std::size_t>(out_stride);
    int j = 0;
    for (; j + 16 <= cols; j += 16) {
      const __m256bh rounded = _mm512_cvtneps_pbh(_mm512_loadu_ps(from + j));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(to + j), reinterpret_cast<const __m256i&>(rounded));
    }
    for (; j < cols; ++j) to[j] = to_bf16(from[j]);
  }
}

}  // namespace

extern const kernels::Bf16Kernels kBf16{round_rows, multiply};

}  // namespace rnnsearch::math::RNNSEARCH_ISA
