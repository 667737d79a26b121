#include "math/kernel_tables.h"

namespace rnnsearch::math {

const kernels::RowStableKernels& row_stable_kernels(CpuIsa isa) {
  if (isa >= CpuIsa::kAvx512) return isa_avx512::kRowStable;
  if (isa >= CpuIsa::kAvx2) return isa_avx2::kRowStable;
  return isa_baseline::kRowStable;
}

const kernels::DotKernels& dot_kernels(CpuIsa isa) {
  if (isa >= CpuIsa::kAvx512) return isa_avx512::kDot;
  if (isa >= CpuIsa::kAvx2) return isa_avx2::kDot;
  return isa_baseline::kDot;
}

const kernels::ElementwiseKernels& elementwise_kernels(CpuIsa isa) {
  if (isa >= CpuIsa::kAvx512) return isa_avx512::kElementwise;
  if (isa >= CpuIsa::kAvx2) return isa_avx2::kElementwise;
  return isa_baseline::kElementwise;
}

const kernels::StepKernels& step_kernels(CpuIsa isa) {
  if (isa >= CpuIsa::kAvx512) return isa_avx512::kStep;
  if (isa >= CpuIsa::kAvx2) return isa_avx2::kStep;
  return isa_baseline::kStep;
}

const kernels::VectorKernels& vector_kernels(CpuIsa isa) {
  if (isa >= CpuIsa::kAvx512) return isa_avx512::kVector;
  if (isa >= CpuIsa::kAvx2) return isa_avx2::kVector;
  return isa_baseline::kVector;
}

const kernels::Int8RowKernels& int8_row_kernels(CpuIsa isa) {
  if (isa >= CpuIsa::kAvx512) return isa_avx512::kInt8Rows;
  if (isa >= CpuIsa::kAvx2) return isa_avx2::kInt8Rows;
  return isa_baseline::kInt8Rows;
}

const kernels::Int8TileKernels& int8_tile_kernels(CpuIsa isa) {
  if (isa >= CpuIsa::kAvx512Vnni) return isa_avx512_vnni::kInt8Tiles;
  if (isa >= CpuIsa::kAvx2) return isa_avx2::kInt8Tiles;
  return isa_baseline::kInt8Tiles;
}

const kernels::Bf16Kernels* bf16_kernels(CpuIsa isa) {
  return isa >= CpuIsa::kAvx512Bf16 ? &isa_avx512_bf16::kBf16 : nullptr;
}

}  // namespace rnnsearch::math
