#include "math/row_stable_gemm.h"

#include <algorithm>
#include <cmath>
#include <vector>

#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#define RNNSEARCH_ROW_STABLE_AVX2 1
#endif

namespace rnnsearch::math {

namespace {

constexpr int kTileRows = 6;     // rows of c held in registers at once
constexpr int kTileCols = 16;    // columns of c held in registers at once (two 8-float vectors)
constexpr int kDepth = 128;      // k block: a tile's rows of b stay in cache and in the TLB
constexpr int kLanes = 8;        // partial sums of a dot product (op(b) = b^T)
constexpr int kTileSize = kTileRows * kTileCols;

// c = alpha * sum + beta * c, the same expression for every element.
inline float finish(float sum, float alpha, float beta, float old) {
  if (beta == 0.0f) return alpha == 1.0f ? sum : alpha * sum;
  return alpha * sum + beta * old;
}

// One tile's pass over one k block. The running sums of the tile live in `sums`
// ([rows x 16]) between blocks; the last block writes c.
struct TilePass {
  bool first, last;
  float alpha, beta;
  int rows, cols;
};

void write_tile(const TilePass& pass, const float* sums, float* c, int ldc) {
  for (int r = 0; r < pass.rows; ++r) {
    float* crow = c + static_cast<long>(r) * ldc;
    for (int j = 0; j < pass.cols; ++j) crow[j] = finish(sums[r * kTileCols + j], pass.alpha, pass.beta, crow[j]);
  }
}

#ifdef RNNSEARCH_ROW_STABLE_AVX2

inline __m256i lane_mask(int count) {  // the first `count` lanes (0..8) on
  const __m256i index = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(count), index);
}

// For each k of the block: broadcast a(r, k) and add its product with b's row k, one
// fused multiply-add per element of c. The accumulators are named variables, not an
// array: GCC 12 keeps an array of __m256 on the stack and stores it every iteration.
template <int R, bool kFullWidth>
void tile_pass(const TilePass& pass, int depth, const float* a, int lda, const float* b, int ldb, float* sums,
               float* c, int ldc) {
  static_assert(R >= 1 && R <= kTileRows, "a tile has 1 to 6 rows");
  __m256 c00, c01, c10, c11, c20, c21, c30, c31, c40, c41, c50, c51;
  c00 = c01 = c10 = c11 = c20 = c21 = c30 = c31 = c40 = c41 = c50 = c51 = _mm256_setzero_ps();
  if (!pass.first) {
#define RNNSEARCH_LOAD_ROW(r)                                   \
  if constexpr (R > r) {                                        \
    c##r##0 = _mm256_loadu_ps(sums + r * kTileCols);            \
    c##r##1 = _mm256_loadu_ps(sums + r * kTileCols + 8);        \
  }
    RNNSEARCH_LOAD_ROW(0) RNNSEARCH_LOAD_ROW(1) RNNSEARCH_LOAD_ROW(2)
    RNNSEARCH_LOAD_ROW(3) RNNSEARCH_LOAD_ROW(4) RNNSEARCH_LOAD_ROW(5)
#undef RNNSEARCH_LOAD_ROW
  }
  const __m256i m0 = lane_mask(std::min(pass.cols, 8)), m1 = lane_mask(std::max(pass.cols - 8, 0));
  const float* a0 = a;
  const long step = lda;
  for (int p = 0; p < depth; ++p) {
    const float* brow = b + static_cast<long>(p) * ldb;
    const __m256 b0 = kFullWidth ? _mm256_loadu_ps(brow) : _mm256_maskload_ps(brow, m0);
    const __m256 b1 = kFullWidth ? _mm256_loadu_ps(brow + 8) : _mm256_maskload_ps(brow + 8, m1);
#define RNNSEARCH_FMA_ROW(r)                                      \
  if constexpr (R > r) {                                          \
    const __m256 x = _mm256_broadcast_ss(a0 + r * step + p);      \
    c##r##0 = _mm256_fmadd_ps(x, b0, c##r##0);                    \
    c##r##1 = _mm256_fmadd_ps(x, b1, c##r##1);                    \
  }
    RNNSEARCH_FMA_ROW(0) RNNSEARCH_FMA_ROW(1) RNNSEARCH_FMA_ROW(2)
    RNNSEARCH_FMA_ROW(3) RNNSEARCH_FMA_ROW(4) RNNSEARCH_FMA_ROW(5)
#undef RNNSEARCH_FMA_ROW
  }
#define RNNSEARCH_STORE_ROW(r)                                  \
  if constexpr (R > r) {                                        \
    _mm256_storeu_ps(sums + r * kTileCols, c##r##0);            \
    _mm256_storeu_ps(sums + r * kTileCols + 8, c##r##1);        \
  }
  RNNSEARCH_STORE_ROW(0) RNNSEARCH_STORE_ROW(1) RNNSEARCH_STORE_ROW(2)
  RNNSEARCH_STORE_ROW(3) RNNSEARCH_STORE_ROW(4) RNNSEARCH_STORE_ROW(5)
#undef RNNSEARCH_STORE_ROW
  if (pass.last) write_tile(pass, sums, c, ldc);
}

// dot(x, y) over k: eight lanes of fused multiply-adds over whole blocks of eight, the
// lanes added in a fixed tree, then the remaining k % 8 terms in order.
inline float lane_dot(const float* x, const float* y, int k) {
  __m256 acc = _mm256_setzero_ps();
  const int whole = k - k % kLanes;
  for (int p = 0; p < whole; p += kLanes) acc = _mm256_fmadd_ps(_mm256_loadu_ps(x + p), _mm256_loadu_ps(y + p), acc);
  alignas(32) float lane[kLanes];
  _mm256_store_ps(lane, acc);
  float sum = ((lane[0] + lane[4]) + (lane[2] + lane[6])) + ((lane[1] + lane[5]) + (lane[3] + lane[7]));
  for (int p = whole; p < k; ++p) sum = std::fma(x[p], y[p], sum);
  return sum;
}

#else  // the same arithmetic one element at a time: std::fma rounds once, as the vector form does

template <int R, bool kFullWidth>
void tile_pass(const TilePass& pass, int depth, const float* a, int lda, const float* b, int ldb, float* sums,
               float* c, int ldc) {
  for (int r = 0; r < R; ++r) {
    for (int j = 0; j < pass.cols; ++j) {
      float sum = pass.first ? 0.0f : sums[r * kTileCols + j];
      for (int p = 0; p < depth; ++p) {
        sum = std::fma(a[static_cast<long>(r) * lda + p], b[static_cast<long>(p) * ldb + j], sum);
      }
      sums[r * kTileCols + j] = sum;
    }
  }
  if (pass.last) write_tile(pass, sums, c, ldc);
}

inline float lane_dot(const float* x, const float* y, int k) {
  float lane[kLanes] = {};
  const int whole = k - k % kLanes;
  for (int p = 0; p < whole; p += kLanes) {
    for (int l = 0; l < kLanes; ++l) lane[l] = std::fma(x[p + l], y[p + l], lane[l]);
  }
  float sum = ((lane[0] + lane[4]) + (lane[2] + lane[6])) + ((lane[1] + lane[5]) + (lane[3] + lane[7]));
  for (int p = whole; p < k; ++p) sum = std::fma(x[p], y[p], sum);
  return sum;
}

#endif

using TileFunction = void (*)(const TilePass&, int, const float*, int, const float*, int, float*, float*, int);
template <bool kFullWidth>
constexpr TileFunction kTiles[kTileRows + 1] = {
    nullptr, tile_pass<1, kFullWidth>, tile_pass<2, kFullWidth>, tile_pass<3, kFullWidth>,
    tile_pass<4, kFullWidth>, tile_pass<5, kFullWidth>, tile_pass<6, kFullWidth>};

// op(b) = b: blocks of 48 rows of c outside, so their running sums (48 x n) stay in L2;
// then k blocks, so that a block's rows of b are read in order; then column panels, so a
// panel of b (128 x 16) stays in L1 for all row tiles.
void multiply_plain(int m, int n, int k, float alpha, const float* a, int lda, const float* b, int ldb, float beta,
                    float* c, int ldc) {
  constexpr int kBlockTiles = 8;
  thread_local std::vector<float> sums;  // the running sums of every tile between k blocks
  const int row_tiles = (m + kTileRows - 1) / kTileRows, panels = (n + kTileCols - 1) / kTileCols;
  const std::size_t needed = static_cast<std::size_t>(std::min(row_tiles, kBlockTiles)) * panels * kTileSize;
  if (sums.size() < needed) sums.resize(needed);
  for (int first_tile = 0; first_tile < row_tiles; first_tile += kBlockTiles) {
    const int tiles = std::min(kBlockTiles, row_tiles - first_tile);
    for (int k0 = 0; k0 < std::max(k, 1); k0 += kDepth) {
      const int depth = std::min(kDepth, k - k0);
      for (int panel = 0; panel < panels; ++panel) {
        const int j = panel * kTileCols;
        for (int tile = 0; tile < tiles; ++tile) {
          const int i = (first_tile + tile) * kTileRows;
          const TilePass pass{k0 == 0, k0 + kDepth >= k, alpha, beta, std::min(kTileRows, m - i),
                              std::min(kTileCols, n - j)};
          const TileFunction run = pass.cols == kTileCols ? kTiles<true>[pass.rows] : kTiles<false>[pass.rows];
          run(pass, depth, a + static_cast<long>(i) * lda + k0, lda, b + static_cast<long>(k0) * ldb + j, ldb,
              sums.data() + (static_cast<std::size_t>(tile) * panels + panel) * kTileSize,
              c + static_cast<long>(i) * ldc + j, ldc);
        }
      }
    }
  }
}

// op(b) = b^T: b is [N x K], each element a dot product of two rows.
void multiply_transposed(int m, int n, int k, float alpha, const float* a, int lda, const float* b, int ldb,
                         float beta, float* c, int ldc) {
  for (int i = 0; i < m; ++i) {
    const float* arow = a + static_cast<long>(i) * lda;
    float* crow = c + static_cast<long>(i) * ldc;
    for (int j = 0; j < n; ++j) {
      crow[j] = finish(lane_dot(arow, b + static_cast<long>(j) * ldb, k), alpha, beta, crow[j]);
    }
  }
}

}  // namespace

void row_stable_gemm(Transpose tb, int m, int n, int k, float alpha, const float* a, int lda, const float* b,
                     int ldb, float beta, float* c, int ldc) {
  if (m <= 0 || n <= 0) return;
  if (tb == Transpose::kNo) {
    multiply_plain(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  } else {
    multiply_transposed(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  }
}

}  // namespace rnnsearch::math
