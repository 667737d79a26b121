// The driver of the int8 kernels (quantized_kernels.h): a's rows quantized once per product
// in the format the level's tiles read (int8_rows.h), then the tiles of
// math/kernels/int8_tile_kernels.cc over blocks of panels.
#include <algorithm>

#include "math/int8_rows.h"
#include "math/kernel_tables.h"
#include "math/packed_matrix.h"
#include "math/quantized_kernels.h"

namespace rnnsearch::math {

namespace {

static_assert(PackedMatrix::kPanel == kernels::kInt8Panel, "the tiles read panels of PackedMatrix's width");
constexpr int kPanel = kernels::kInt8Panel;
constexpr int kTileCols = kernels::kInt8TileCols;

// The format (and element bytes) of a's rows that `isa`'s tiles read.
Int8RowFormat row_format(CpuIsa isa) {
  if (isa >= CpuIsa::kAvx512Vnni) return Int8RowFormat::kU8;
  if (isa >= CpuIsa::kAvx2) return Int8RowFormat::kS16;
  return Int8RowFormat::kS8;
}

// Panels in blocks of about kBlockBytes of weights (kept in L2), each block read by every
// row tile in turn, so that neither a's rows (many at beam 5) nor the weights leave cache.
void multiply_tiles(const void* a, int lda, std::size_t element, int m, int n, const PackedMatrix& w,
                    const float* row_scale, float alpha, float beta, MutableMatrixView c,
                    const kernels::Int8TileKernels& tiles) {
  constexpr int kBlockBytes = 256 * 1024;
  alignas(64) std::int32_t acc[kernels::kInt8MaxTileRows * kTileCols];
  const int k4 = w.depth4();
  const int block = std::max(2, kBlockBytes / std::max(1, k4 * kPanel * 4) / 2 * 2);  // panels, even
  const auto* bytes = static_cast<const unsigned char*>(a);
  for (int first = 0; first < w.panels(); first += block) {
    for (int i = 0; i < m; i += tiles.rows) {
      const int rows = std::min(tiles.rows, m - i);
      for (int p = first; p < std::min(w.panels(), first + block); p += 2) {
        const int j = p * kPanel, cols = std::min(kTileCols, n - j);
        const std::int8_t* w0 = w.int8() + static_cast<std::size_t>(p) * k4 * kPanel * 4;
        tiles.tile(bytes + static_cast<std::size_t>(i) * lda * element, lda, rows, w0,
                   w0 + static_cast<std::size_t>(k4) * kPanel * 4, k4, w.column_offset() + j, acc);
        tiles.finish(acc, rows, cols, row_scale + i, w.column_scale() + j, alpha, beta,
                     c.data + static_cast<long>(i) * c.stride + j, c.stride);
      }
    }
  }
}

}  // namespace

const char* int8_kernel_name(CpuIsa isa) {
  switch (row_format(isa)) {
    case Int8RowFormat::kS8: return "scalar";
    case Int8RowFormat::kS16: return "avx2";
    case Int8RowFormat::kU8: return "avx512-vnni";
  }
  return "unknown";
}

void int8_gemm(ConstMatrixView a, const PackedMatrix& b, MutableMatrixView c, float alpha, float beta, CpuIsa isa) {
  const Int8RowFormat format = row_format(isa);
  const std::size_t element = format == Int8RowFormat::kS16 ? 2 : 1;
  thread_local Int8Rows rows;
  quantize_int8_rows(a, format, rows, isa);
  multiply_tiles(rows.data(), rows.stride, element, a.rows, b.cols(), b, rows.scale.data(), alpha, beta, c,
                 int8_tile_kernels(isa));
}

}  // namespace rnnsearch::math
