#pragma once
// The table of kernels (math/kernels/kernels.h) a level of instruction sets uses: the
// widest variant compiled at or below it.
#include "math/cpu_isa.h"
#include "math/kernels/kernels.h"

namespace rnnsearch::math {

const kernels::RowStableKernels& row_stable_kernels(CpuIsa isa);
const kernels::DotKernels& dot_kernels(CpuIsa isa);
const kernels::ElementwiseKernels& elementwise_kernels(CpuIsa isa);
const kernels::StepKernels& step_kernels(CpuIsa isa);
const kernels::VectorKernels& vector_kernels(CpuIsa isa);
const kernels::Int8RowKernels& int8_row_kernels(CpuIsa isa);
const kernels::Int8TileKernels& int8_tile_kernels(CpuIsa isa);
// Null below avx512-bf16: there is no portable bf16 kernel.
const kernels::Bf16Kernels* bf16_kernels(CpuIsa isa);

}  // namespace rnnsearch::math
