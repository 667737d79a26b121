#pragma once
// The activation side of int8_gemm (quantized_kernels.h): each row i of a: [M x K]
// quantized as the weights are, s_i = int8_step(max_k |a_ik|) and
// qa_ik = quantize_int8(a_ik, int8_inverse_step(max_k |a_ik|)), in one pass per row that
// writes the format its kernel reads, K padded with zeros to stride = 4 * ceil(K / 4):
//   kS8   int8 qa (the portable kernel)
//   kS16  int16 qa (AVX2: vpmaddwd)
//   kU8   uint8 qa + 128 (AVX512_VNNI: vpdpbusd; the padding is 128, zero's code)
// The vector forms give the bits of those scalar definitions: NaNs left out of the maximum
// (std::max keeps its first argument), x * inverse rounded in the current rounding mode
// (nearest even), clamped to [-127, 127], a NaN product (0 * inf, NaN inputs) to -127.
#include <cstdint>
#include <vector>

#include "math/cpu_isa.h"
#include "math/gemm.h"

namespace rnnsearch::math {

enum class Int8RowFormat { kS8, kS16, kU8 };

// Quantized rows, their buffers reused from product to product (grown, never cleared).
struct Int8Rows {
  Int8RowFormat format = Int8RowFormat::kS8;
  int stride = 0;                     // elements of a row, K padded to a multiple of 4
  std::vector<float> scale;           // s_i, [M]
  std::vector<std::int16_t> storage;  // [M x stride] elements of the format (8-bit ones use its bytes)
  const void* data() const { return storage.data(); }
};

// rows = a quantized in `format` by the row kernels of `isa`'s level (portable C++, AVX2
// or AVX-512; a level up to cpu_isa()): the same bits from each.
void quantize_int8_rows(ConstMatrixView a, Int8RowFormat format, Int8Rows& rows, CpuIsa isa = cpu_isa());

}  // namespace rnnsearch::math
