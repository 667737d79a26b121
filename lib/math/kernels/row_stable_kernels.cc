// The tiles of math::row_stable_gemm (row_stable_gemm.h), compiled once per level
// (kernels.h): 16-float vectors with AVX-512, 8 with AVX2, one element at a time on the
// baseline; each element of c is the same chain of fused multiply-adds in all three.
#include <cmath>

#include "math/kernels/kernels.h"

#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#define RNNSEARCH_ROW_STABLE_AVX2 1
#endif

namespace rnnsearch::math::RNNSEARCH_ISA {

namespace {

inline int min_of(int a, int b) { return a < b ? a : b; }

// The vectors the tiles compute with: 16 floats with AVX-512, 8 with AVX2. Each element
// of c is the same chain of fused multiply-adds over k either way (only how many
// elements one instruction advances differs), so both give the same bits.
#if defined(RNNSEARCH_ROW_STABLE_AVX2) && defined(__AVX512F__)
using Vec = __m512;
constexpr int kVecWidth = 16;
inline Vec vzero() { return _mm512_setzero_ps(); }
inline Vec vload(const float* p) { return _mm512_loadu_ps(p); }
inline void vstore(float* p, Vec v) { _mm512_storeu_ps(p, v); }
inline Vec vbroadcast(const float* p) { return _mm512_set1_ps(*p); }
inline Vec vset(float x) { return _mm512_set1_ps(x); }
inline Vec vfma(Vec a, Vec b, Vec c) { return _mm512_fmadd_ps(a, b, c); }
inline Vec vmul(Vec a, Vec b) { return _mm512_mul_ps(a, b); }
inline Vec vadd(Vec a, Vec b) { return _mm512_add_ps(a, b); }
#elif defined(RNNSEARCH_ROW_STABLE_AVX2)
using Vec = __m256;
constexpr int kVecWidth = 8;
inline Vec vzero() { return _mm256_setzero_ps(); }
inline Vec vload(const float* p) { return _mm256_loadu_ps(p); }
inline void vstore(float* p, Vec v) { _mm256_storeu_ps(p, v); }
inline Vec vbroadcast(const float* p) { return _mm256_broadcast_ss(p); }
inline Vec vset(float x) { return _mm256_set1_ps(x); }
inline Vec vfma(Vec a, Vec b, Vec c) { return _mm256_fmadd_ps(a, b, c); }
inline Vec vmul(Vec a, Vec b) { return _mm256_mul_ps(a, b); }
inline Vec vadd(Vec a, Vec b) { return _mm256_add_ps(a, b); }
#else
constexpr int kVecWidth = 8;
#endif

// Rows of c held in registers at once: 12 x 2 accumulators of the 32 AVX-512 registers,
// 6 x 2 of AVX2's 16 (each with two registers for b and one for a broadcast).
#if defined(RNNSEARCH_ROW_STABLE_AVX2) && defined(__AVX512F__)
constexpr int kTileRows = 12;
#else
constexpr int kTileRows = 6;
#endif
constexpr int kTileCols = 2 * kVecWidth;   // columns of c held in registers at once (two vectors)
constexpr int kPrefetchRows = 8;           // how far ahead the tiles fetch b's rows
constexpr int kDepth = 256;                // k block: a panel of b (256 rows of a tile's width) stays in cache
constexpr int kLanes = 8;        // partial sums of a dot product (op(b) = b^T)
constexpr int kTileSize = kTileRows * kTileCols;

// c = alpha * sum + beta * c, the same expression for every element.
inline float finish(float sum, float alpha, float beta, float old) {
  if (beta == 0.0f) return alpha == 1.0f ? sum : alpha * sum;
  return alpha * sum + beta * old;
}

// One tile's pass over one k block. The running sums of the tile live in `sums`
// ([rows x kTileCols]) between blocks; the last block writes c.
struct TilePass {
  bool first, last;
  bool fetch;  // the first row tile over a panel fetches b ahead; the others find it in cache
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

// For each k of the block: broadcast a(r, k) and add its product with b's row k, one
// fused multiply-add per element of c. The accumulators are named variables, not an
// array: GCC 12 keeps an array of __m256 on the stack and stores it every iteration.
template <int R>
void tile_pass(const TilePass& pass, int depth, const float* a, int lda, const float* panel, long ldp, float* sums,
               float* c, int ldc) {
  static_assert(R >= 1 && R <= kTileRows, "a tile has 1 to kTileRows rows");
  Vec c00, c01, c10, c11, c20, c21, c30, c31, c40, c41, c50, c51;
  Vec c60, c61, c70, c71, c80, c81, c90, c91, c100, c101, c110, c111;
  c00 = c01 = c10 = c11 = c20 = c21 = c30 = c31 = c40 = c41 = c50 = c51 = vzero();
  c60 = c61 = c70 = c71 = c80 = c81 = c90 = c91 = c100 = c101 = c110 = c111 = vzero();
  if (!pass.first) {
#define RNNSEARCH_LOAD_ROW(r)                                   \
  if constexpr (R > r) {                                        \
    c##r##0 = vload(sums + r * kTileCols);                      \
    c##r##1 = vload(sums + r * kTileCols + kVecWidth);          \
  }
    RNNSEARCH_LOAD_ROW(0) RNNSEARCH_LOAD_ROW(1) RNNSEARCH_LOAD_ROW(2)
    RNNSEARCH_LOAD_ROW(3) RNNSEARCH_LOAD_ROW(4) RNNSEARCH_LOAD_ROW(5)
    RNNSEARCH_LOAD_ROW(6) RNNSEARCH_LOAD_ROW(7) RNNSEARCH_LOAD_ROW(8)
    RNNSEARCH_LOAD_ROW(9) RNNSEARCH_LOAD_ROW(10) RNNSEARCH_LOAD_ROW(11)
#undef RNNSEARCH_LOAD_ROW
  }
  const float* a0 = a;
  const long step = lda;
  for (int p = 0; p < depth; ++p) {
    // b is read in place, a row of the panel per k, each in another cache line: fetched
    // ahead, the loads do not wait on L2 or L3 (they were half of this loop's time). The
    // same row of the next panel is fetched too, so the next tiles find it in cache
    // (decode_bench, greedy: 0.80 -> 0.95 of the backend's speed).
    if (pass.fetch) {
      _mm_prefetch(reinterpret_cast<const char*>(panel + (p + kPrefetchRows) * ldp), _MM_HINT_T0);
      _mm_prefetch(reinterpret_cast<const char*>(panel + (p + kPrefetchRows) * ldp + kTileCols - 1), _MM_HINT_T0);
      _mm_prefetch(reinterpret_cast<const char*>(panel + p * ldp + kTileCols), _MM_HINT_T0);
      _mm_prefetch(reinterpret_cast<const char*>(panel + p * ldp + 2 * kTileCols - 1), _MM_HINT_T0);
    }
    const Vec b0 = vload(panel + p * ldp), b1 = vload(panel + p * ldp + kVecWidth);
#define RNNSEARCH_FMA_ROW(r)                                      \
  if constexpr (R > r) {                                          \
    const Vec x = vbroadcast(a0 + r * step + p);                  \
    c##r##0 = vfma(x, b0, c##r##0);                               \
    c##r##1 = vfma(x, b1, c##r##1);                               \
  }
    RNNSEARCH_FMA_ROW(0) RNNSEARCH_FMA_ROW(1) RNNSEARCH_FMA_ROW(2)
    RNNSEARCH_FMA_ROW(3) RNNSEARCH_FMA_ROW(4) RNNSEARCH_FMA_ROW(5)
    RNNSEARCH_FMA_ROW(6) RNNSEARCH_FMA_ROW(7) RNNSEARCH_FMA_ROW(8)
    RNNSEARCH_FMA_ROW(9) RNNSEARCH_FMA_ROW(10) RNNSEARCH_FMA_ROW(11)
#undef RNNSEARCH_FMA_ROW
  }
  if (pass.last && pass.cols == kTileCols) {  // c = alpha * sum + beta * c, as finish() computes it
    const Vec alpha = vset(pass.alpha), beta = vset(pass.beta);
    const auto out = [&](const Vec sum, float* to) {
      Vec value = pass.alpha == 1.0f ? sum : vmul(alpha, sum);
      if (pass.beta != 0.0f) value = vadd(vmul(alpha, sum), vmul(beta, vload(to)));
      vstore(to, value);
    };
#define RNNSEARCH_WRITE_ROW(r)                                  \
  if constexpr (R > r) {                                        \
    out(c##r##0, c + static_cast<long>(r) * ldc);               \
    out(c##r##1, c + static_cast<long>(r) * ldc + kVecWidth);   \
  }
    RNNSEARCH_WRITE_ROW(0) RNNSEARCH_WRITE_ROW(1) RNNSEARCH_WRITE_ROW(2)
    RNNSEARCH_WRITE_ROW(3) RNNSEARCH_WRITE_ROW(4) RNNSEARCH_WRITE_ROW(5)
    RNNSEARCH_WRITE_ROW(6) RNNSEARCH_WRITE_ROW(7) RNNSEARCH_WRITE_ROW(8)
    RNNSEARCH_WRITE_ROW(9) RNNSEARCH_WRITE_ROW(10) RNNSEARCH_WRITE_ROW(11)
#undef RNNSEARCH_WRITE_ROW
    return;
  }
#define RNNSEARCH_STORE_ROW(r)                                  \
  if constexpr (R > r) {                                        \
    vstore(sums + r * kTileCols, c##r##0);                      \
    vstore(sums + r * kTileCols + kVecWidth, c##r##1);          \
  }
  RNNSEARCH_STORE_ROW(0) RNNSEARCH_STORE_ROW(1) RNNSEARCH_STORE_ROW(2)
  RNNSEARCH_STORE_ROW(3) RNNSEARCH_STORE_ROW(4) RNNSEARCH_STORE_ROW(5)
  RNNSEARCH_STORE_ROW(6) RNNSEARCH_STORE_ROW(7) RNNSEARCH_STORE_ROW(8)
  RNNSEARCH_STORE_ROW(9) RNNSEARCH_STORE_ROW(10) RNNSEARCH_STORE_ROW(11)
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

template <int R>
void tile_pass(const TilePass& pass, int depth, const float* a, int lda, const float* panel, long ldp, float* sums,
               float* c, int ldc) {
  for (int r = 0; r < R; ++r) {
    for (int j = 0; j < pass.cols; ++j) {
      float sum = pass.first ? 0.0f : sums[r * kTileCols + j];
      for (int p = 0; p < depth; ++p) {
        sum = std::fma(a[static_cast<long>(r) * lda + p], panel[p * ldp + j], sum);
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

using TileFunction = void (*)(const TilePass&, int, const float*, int, const float*, long, float*, float*, int);
#if defined(RNNSEARCH_ROW_STABLE_AVX2) && defined(__AVX512F__)
constexpr TileFunction kTiles[kTileRows + 1] = {nullptr,       tile_pass<1>,  tile_pass<2>, tile_pass<3>, tile_pass<4>,
                                                tile_pass<5>,  tile_pass<6>,  tile_pass<7>, tile_pass<8>, tile_pass<9>,
                                                tile_pass<10>, tile_pass<11>, tile_pass<12>};
#else
constexpr TileFunction kTiles[kTileRows + 1] = {nullptr,      tile_pass<1>, tile_pass<2>, tile_pass<3>,
                                                tile_pass<4>, tile_pass<5>, tile_pass<6>};
#endif

// The last column panel, when narrower than a tile: b[k0 .. k0+depth) x [j, j+cols) copied
// into `panel` ([depth x kTileCols], columns past cols zero). Full panels are read in place:
// a panel of 256 rows (32 or 64 KB) stays in L1/L2 for every row tile that reads it, and
// packing them (even eight panels at a time, each row of b read left to right) cost as much
// as the product (perf: 13% of greedy decoding in packing against 15% in the tiles).
void pack_partial_panel(const float* b, int ldb, int depth, int cols, float* panel) {
  for (int p = 0; p < depth; ++p) {
    const float* from = b + static_cast<long>(p) * ldb;
    float* to = panel + p * kTileCols;
    for (int j = 0; j < cols; ++j) to[j] = from[j];
    for (int j = cols; j < kTileCols; ++j) to[j] = 0.0f;
  }
}

constexpr int kBlockTiles = 8;  // row tiles whose running sums are kept between k blocks

std::size_t plain_scratch_floats(int m, int n) {
  const int row_tiles = (m + kTileRows - 1) / kTileRows, panels = (n + kTileCols - 1) / kTileCols;
  return static_cast<std::size_t>(min_of(row_tiles, kBlockTiles)) * static_cast<std::size_t>(panels) * kTileSize;
}

// op(b) = b: blocks of rows of c outside, so their running sums (`sums`, of
// plain_scratch_floats) stay in L2; then k blocks, so that a block's rows of b are read in
// order; then column panels, each read by all row tiles of the block while it is in cache.
void multiply_plain(int m, int n, int k, float alpha, const float* a, int lda, const float* b, int ldb, float beta,
                    float* c, int ldc, float* sums) {
  alignas(64) thread_local float partial[kDepth * kTileCols];
  const int row_tiles = (m + kTileRows - 1) / kTileRows, panels = (n + kTileCols - 1) / kTileCols;
  for (int first_tile = 0; first_tile < row_tiles; first_tile += kBlockTiles) {
    const int tiles = min_of(kBlockTiles, row_tiles - first_tile);
    for (int k0 = 0; k0 < (k > 1 ? k : 1); k0 += kDepth) {
      const int depth = min_of(kDepth, k - k0);
      for (int p = 0; p < panels; ++p) {
        const int j = p * kTileCols, cols = min_of(kTileCols, n - j);
        const float* block = b + static_cast<long>(k0) * ldb + j;
        const bool in_place = cols == kTileCols;
        if (!in_place) pack_partial_panel(block, ldb, depth, cols, partial);
        for (int tile = 0; tile < tiles; ++tile) {
          const int i = (first_tile + tile) * kTileRows;
          const TilePass pass{k0 == 0, k0 + kDepth >= k, tile == 0, alpha, beta, min_of(kTileRows, m - i), cols};
          kTiles[pass.rows](pass, depth, a + static_cast<long>(i) * lda + k0, lda, in_place ? block : partial,
                            in_place ? ldb : kTileCols,
                            sums + (static_cast<std::size_t>(tile) * panels + p) * kTileSize,
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

extern const kernels::RowStableKernels kRowStable{plain_scratch_floats, multiply_plain, multiply_transposed};

}  // namespace rnnsearch::math::RNNSEARCH_ISA
