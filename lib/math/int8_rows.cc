// Quantizing a's rows for the int8 kernels (int8_rows.h) with a level's row kernels
// (math/kernels/int8_row_kernels.cc).
#include "math/int8_rows.h"

#include "math/kernel_tables.h"
#include "math/quantized_kernels.h"

namespace rnnsearch::math {

namespace {

template <typename T>
void quantize_rows(ConstMatrixView a, const kernels::Int8RowKernels& f,
                   void (*quantize)(const float*, int, int, float, T*), Int8Rows& rows) {
  const std::size_t elements = static_cast<std::size_t>(a.rows) * static_cast<std::size_t>(rows.stride);
  const std::size_t words = (elements * sizeof(T) + 1) / 2;
  if (rows.storage.size() < words) rows.storage.resize(words);  // grown only: never filled again
  if (rows.scale.size() < static_cast<std::size_t>(a.rows)) rows.scale.resize(static_cast<std::size_t>(a.rows));
  auto* out = reinterpret_cast<T*>(rows.storage.data());  // 8-bit formats: its bytes
  for (int i = 0; i < a.rows; ++i) {
    const float* row = a.data + static_cast<long>(i) * a.stride;
    const float max_abs = f.max_abs(row, a.cols);
    rows.scale[static_cast<std::size_t>(i)] = int8_step(max_abs);
    quantize(row, a.cols, rows.stride, int8_inverse_step(max_abs), out + static_cast<std::size_t>(i) * rows.stride);
  }
}

}  // namespace

void quantize_int8_rows(ConstMatrixView a, Int8RowFormat format, Int8Rows& rows, CpuIsa isa) {
  const kernels::Int8RowKernels& f = int8_row_kernels(isa);
  rows.format = format;
  rows.stride = 4 * ((a.cols + 3) / 4);
  switch (format) {
    case Int8RowFormat::kS8: quantize_rows(a, f, f.quantize_s8, rows); break;
    case Int8RowFormat::kS16: quantize_rows(a, f, f.quantize_s16, rows); break;
    case Int8RowFormat::kU8: quantize_rows(a, f, f.quantize_u8, rows); break;
  }
}

}  // namespace rnnsearch::math
