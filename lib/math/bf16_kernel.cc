// The bf16 kernel of quantized_kernels.h: AVX512_BF16 vdpbf16ps over tiles of 32 columns
// (two panels) by up to 12 rows, each element one chain over k in order.
#include <cstring>

#include "math/bf16.h"
#include "math/packed_matrix.h"
#include "math/quantized_kernels.h"
#include "util/error.h"

#if defined(__AVX512BF16__) && defined(__AVX512F__)
#include <immintrin.h>
#define RNNSEARCH_BF16_KERNEL 1
#endif

namespace rnnsearch::math {

#ifdef RNNSEARCH_BF16_KERNEL

namespace {

constexpr int kPanel = PackedMatrix::kPanel;
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
  const __mmask16 valid1 = cols >= kTileCols ? 0xFFFF : cols <= kPanel ? 0 : static_cast<__mmask16>((1u << (cols - kPanel)) - 1);
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

}  // namespace

bool bf16_kernel_available() { return cpu_has_avx512_bf16(); }

void bf16_gemm(ConstMatrixView a, const PackedMatrix& b, MutableMatrixView c, float alpha, float beta) {
  if (!bf16_kernel_available()) throw util::Error("bf16 gemm: this CPU has no bf16 instructions (avx512_bf16)");
  const int k2 = b.depth2(), lda = 2 * k2;
  thread_local std::vector<std::uint16_t> rows;  // a in bfloat16: [M x 2 * K/2], K padded with zeros
  rows.resize(static_cast<std::size_t>(a.rows) * lda);
  round_to_bf16(a.data, a.rows, a.cols, a.stride, rows.data(), lda);
  if (a.cols < lda) {  // odd K: the pad column of every row is zero
    for (int i = 0; i < a.rows; ++i) rows[static_cast<std::size_t>(i) * lda + a.cols] = 0;
  }
  for (int p = 0; p < b.panels(); p += 2) {
    const int j = p * kPanel, cols = std::min(kTileCols, b.cols() - j);
    const std::uint16_t* w0 = b.bf16() + static_cast<std::size_t>(p) * k2 * kPanel * 2;
    const std::uint16_t* w1 = w0 + static_cast<std::size_t>(k2) * kPanel * 2;
    for (int i = 0; i < a.rows; i += kMaxTileRows) {
      const int tile_rows = std::min(kMaxTileRows, a.rows - i);
      kBf16Rows[tile_rows](rows.data() + static_cast<std::size_t>(i) * lda, lda, w0, w1, k2, alpha, beta, cols,
                           c.data + static_cast<long>(i) * c.stride + j, c.stride);
    }
  }
}

#else  // no AVX512_BF16 in this build

bool bf16_kernel_available() { return false; }

void bf16_gemm(ConstMatrixView, const PackedMatrix&, MutableMatrixView, float, float) {
  throw util::Error("bf16 gemm: this CPU has no bf16 instructions (avx512_bf16)");
}

#endif

}  // namespace rnnsearch::math
