#pragma once
// The kernels compiled once per instruction-set level (math/cpu_isa.h), and their tables.
//
// Each .cc file of this folder is compiled for the levels lib/CMakeLists.txt lists for it,
// with that level's flags (-mavx2 -mfma, -mavx512f ..., and -ffp-contract=off, so that no
// product and sum is fused unless the code says fma) and with RNNSEARCH_ISA set to the
// level's namespace below; it ends with its tables. The dispatchers of the library
// (row_stable_gemm.cc, tanh_dot.cc, int8_rows.cc, int8_kernels.cc, bf16.cc, bf16_kernel.cc)
// are compiled for the baseline and take the table of math::cpu_isa()'s level.
//
// Every level's kernel computes the same bits: the arithmetic is written once, in the
// order the headers of the dispatchers state, and the vector forms only do more elements
// per instruction.
//
// These files include only this header, headers of plain declarations (math/bf16.h) and
// the C++ library's plain ones (<cstdint>, <cstddef>, <cmath>, <immintrin.h>), and use no
// template or inline function that baseline code also uses: the linker keeps one copy of
// such a function for the whole program, and the AVX-512 copy would then run on every CPU
// (what they share, like quantize_int8 below and exp_tanh.h's functions, is static). The
// ctest isa_confinement checks it.
#include <cmath>
#include <cstddef>
#include <cstdint>

namespace rnnsearch::math::kernels {

// round(x * inverse_step) to nearest even, within [-127, 127] (a NaN gives -127): the int8
// quantization of weights and activations (quantized_kernels.h). static, so that each file
// compiles its own copy (see above).
static inline std::int8_t quantize_int8(float x, float inverse_step) {
  const float q = std::nearbyint(x * inverse_step);
  const float at_least = -127.0f < q ? q : -127.0f;  // std::max(-127.0f, q): a NaN gives -127
  return static_cast<std::int8_t>(at_least < 127.0f ? at_least : 127.0f);
}

// math::row_stable_gemm's fp32 products (row_stable_gemm.h).
struct RowStableKernels {
  // Floats of scratch multiply_plain needs for an m x n product.
  std::size_t (*plain_scratch_floats)(int m, int n);
  // c = alpha * a b + beta * c, b [K x N], with `scratch` of plain_scratch_floats(m, n) floats.
  void (*multiply_plain)(int m, int n, int k, float alpha, const float* a, int lda, const float* b, int ldb,
                         float beta, float* c, int ldc, float* scratch);
  // c = alpha * a b^T + beta * c, b [N x K].
  void (*multiply_transposed)(int m, int n, int k, float alpha, const float* a, int lda, const float* b, int ldb,
                              float beta, float* c, int ldc);
};

// Attention's fp32 sums: math::tanh_dot, math::lane_dot (tanh_dot.h) and the context.
struct DotKernels {
  float (*fast_tanh)(float x);
  float (*tanh_dot)(const float* q, const float* k, const float* v, int n);
  float (*lane_dot)(const float* h, const float* v, int n);
  // out[0, width) = sum over j < span, in order, of weights[j] * rows[j][0, width) (row j at
  // rows + j * stride), each element one fused multiply-add chain from 0.
  void (*weighted_rows)(const float* weights, int span, const float* rows, long stride, int width, float* out);
};

// Elementwise functions of inference and training (math/elementwise.h).
struct ElementwiseKernels {
  void (*exp)(const float* x, float shift, float* y, int n);  // y = exp(x - shift)
  void (*tanh)(const float* x, float* y, int n);              // y = tanh(x); y may be x
  void (*logistic)(const float* x, float* y, int n);          // y = 1 / (1 + exp(-x)); y may be x
  float (*exp_sum)(const float* x, float shift, int n);       // sum exp(x - shift), in 16 lanes
  float (*largest)(const float* x, int n);                    // max x, n >= 1
};

// The recurrent step's elementwise work, fused where a row is read several times
// (math/step_ops.h says what each computes and in which order).
struct StepKernels {
  // hidden = tanh(q + k), then sum_a hidden_a v_a in DotKernels::lane_dot's lanes.
  float (*tanh_score)(const float* q, const float* k, const float* v, float* hidden, int n);
  // With h = tanh(q + k): dv += g h; d = g v (1 - h^2); dk += d; dq += d.
  void (*tanh_score_backward)(float g, const float* q, const float* k, const float* v, float* dv, float* dk,
                              float* dq, int n);
  // h = (1 - z) h_prev + z candidate.
  void (*gru_update)(const float* z, const float* candidate, const float* h_prev, float* h, int n);
  // dz = dh (candidate - h_prev) z (1 - z); d_candidate = dh z (1 - candidate^2); d_prev += dh (1 - z).
  void (*gru_update_backward)(const float* dh, const float* z, const float* candidate, const float* h_prev,
                              float* dz, float* d_candidate, float* d_prev, int n);
  // d_prev += d_r r; d_r = d_r h_prev r (1 - r).
  void (*gru_reset_backward)(const float* r, const float* h_prev, float* d_r, float* d_prev, int n);
  // out[k] = max(pre[2k], pre[2k + 1]), winner[k] its column (a tie or NaN keeps 2k).
  void (*maxout)(const float* pre, int n, std::int32_t* winner, float* out);
};

// Plain vector arithmetic (math/vector_ops.h).
struct VectorKernels {
  void (*add)(const float* x, float* y, long n);                     // y += x
  void (*subtract_scalar)(float s, float* y, long n);                // y -= s
  void (*multiply)(const float* a, const float* b, float* y, long n);  // y = a b, y apart from a and b
  // The first i = from + 16 t (t >= 0) with a value > worst in x[i, i + 16), or the first
  // such i with i + 16 > count when no block has one.
  int (*next_block_above)(const float* x, int from, int count, float worst);
  // Adam's step (optimizer.h): m = b1 m + (1 - b1) g; v = b2 v + (1 - b2) g^2;
  // w -= step m / (sqrt(v) inv_sqrt_c2 + epsilon).
  void (*adam)(float* m, float* v, float* w, const float* g, long n, float beta1, float beta2, float step,
               float inv_sqrt_c2, float epsilon);
  // Adadelta's step (optimizer.h): eg2 = rho eg2 + (1 - rho) g^2;
  // dx = -(sqrt(edx2 + epsilon) / sqrt(eg2 + epsilon) g); edx2 = rho edx2 + (1 - rho) dx^2; w += rate dx.
  void (*adadelta)(float* eg2, float* edx2, float* w, const float* g, long n, float rho, float epsilon, float rate);
};

// Quantizing rows of activations for the int8 products (int8_rows.h).
struct Int8RowKernels {
  float (*max_abs)(const float* row, int k);  // max_j |row_j|, NaNs left out
  // q[0, stride) = row quantized with `inverse`, then zero's code in the padding (j >= k).
  void (*quantize_s8)(const float* row, int k, int stride, float inverse, std::int8_t* q);
  void (*quantize_s16)(const float* row, int k, int stride, float inverse, std::int16_t* q);
  void (*quantize_u8)(const float* row, int k, int stride, float inverse, std::uint8_t* q);
};

// The int8 product's tiles (quantized_kernels.h): columns in panels of kInt8Panel, a tile
// two panels wide and up to `rows` rows.
constexpr int kInt8Panel = 16;
constexpr int kInt8TileCols = 2 * kInt8Panel;
constexpr int kInt8MaxTileRows = 12;
struct Int8TileKernels {
  int rows;  // rows of a tile
  // acc [rows x kInt8TileCols] = the rows of a (stride lda, in the level's row format)
  // times panels w0, w1 (offset: 128 * sum_k w of each column, for the u8 format).
  void (*tile)(const void* a, int lda, int rows, const std::int8_t* w0, const std::int8_t* w1, int k4,
               const std::int32_t* offset, std::int32_t* acc);
  // c's tile from its exact sums: c = alpha * (s_i * t_j) * acc + beta * c.
  void (*finish)(const std::int32_t* acc, int rows, int cols, const float* row_scale, const float* column_scale,
                 float alpha, float beta, float* c, int ldc);
};

// bfloat16 (bf16.h, quantized_kernels.h).
struct Bf16Kernels {
  // The rows x cols matrix `in` rounded to bfloat16 as math::to_bf16 rounds.
  void (*round_rows)(const float* in, int rows, int cols, int in_stride, std::uint16_t* out, int out_stride);
  // c [m x n] = alpha * rows (bf16, [m x 2 * k2]) * packed + beta * c.
  void (*multiply)(const std::uint16_t* rows, int m, int k2, const std::uint16_t* packed, int panels, int n,
                   float alpha, float beta, float* c, int ldc);
};

}  // namespace rnnsearch::math::kernels

// The tables each level has (lib/CMakeLists.txt compiles the files that define them).
namespace rnnsearch::math::isa_baseline {
extern const kernels::RowStableKernels kRowStable;
extern const kernels::ElementwiseKernels kElementwise;
extern const kernels::DotKernels kDot;
extern const kernels::StepKernels kStep;
extern const kernels::VectorKernels kVector;
extern const kernels::Int8RowKernels kInt8Rows;
extern const kernels::Int8TileKernels kInt8Tiles;
}  // namespace rnnsearch::math::isa_baseline
namespace rnnsearch::math::isa_avx2 {
extern const kernels::RowStableKernels kRowStable;
extern const kernels::ElementwiseKernels kElementwise;
extern const kernels::DotKernels kDot;
extern const kernels::StepKernels kStep;
extern const kernels::VectorKernels kVector;
extern const kernels::Int8RowKernels kInt8Rows;
extern const kernels::Int8TileKernels kInt8Tiles;
}  // namespace rnnsearch::math::isa_avx2
namespace rnnsearch::math::isa_avx512 {
extern const kernels::RowStableKernels kRowStable;
extern const kernels::ElementwiseKernels kElementwise;
extern const kernels::DotKernels kDot;
extern const kernels::StepKernels kStep;
extern const kernels::VectorKernels kVector;
extern const kernels::Int8RowKernels kInt8Rows;
}  // namespace rnnsearch::math::isa_avx512
namespace rnnsearch::math::isa_avx512_vnni {
extern const kernels::Int8TileKernels kInt8Tiles;
}  // namespace rnnsearch::math::isa_avx512_vnni
namespace rnnsearch::math::isa_avx512_bf16 {
extern const kernels::Bf16Kernels kBf16;
}  // namespace rnnsearch::math::isa_avx512_bf16
