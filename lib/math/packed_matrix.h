#pragma once
// A constant weight matrix prepared once for inference's products in a math::Precision:
//   c: [M x N] = alpha * a: [M x K] * W: [K x N] + beta * c      (math::gemm below)
// as the layers compute c = a W with W stored [K x N], row-major.
//
//   fp32  a copy of W, multiplied by row_stable_gemm.
//   int8  W quantized per output column j: t_j = max_k |W_kj| / 127, qw_kj = round(W_kj / t_j)
//         in [-127, 127]; each row i of a quantized on the fly: s_i = max_k |a_ik| / 127,
//         qa_ik = round(a_ik / s_i); then c_ij = alpha * (s_i * t_j) * sum_k qa_ik qw_kj
//         + beta * c_ij with the sum exact in int32. The error of an element is at most
//         K * 127 * s_i * t_j (half a step of each factor, times K) plus fp32 rounding.
//   bf16  W and each row of a rounded to bfloat16 (nearest even), products summed in fp32
//         in the order k = 0, 1, ..., K-1 (pairs at a time): relative error about 2^-8 of
//         sum_k |a_ik W_kj| (AVX512_BF16 CPUs only).
// Every element of c depends on its row of a, W and K only: the products are row-stable
// (row_stable_gemm.h) in all three precisions, whatever rows are multiplied together.
//
// Layout (quantized_kernels.h reads it): columns in panels of 16, the panels padded to an
// even count with zero columns; int8 stores panel by panel [K/4 x 16 x 4] (four
// consecutive k of one column next to each other), bf16 [K/2 x 16 x 2], K padded with
// zeros.
#include <cstdint>
#include <memory>
#include <vector>

#include "math/gemm.h"
#include "math/precision.h"
#include "math/types.h"

namespace rnnsearch::math {

class PackedMatrix {
 public:
  static constexpr int kPanel = 16;  // columns of a panel

  PackedMatrix() = default;
  // w: [K x N], or with transpose = kYes w: [N x K] read as its transpose (a tied output
  // layer's embedding table). Throws util::UsageError for bf16 on a CPU without it
  // (check_precision_supported).
  PackedMatrix(ConstMatrixView w, Transpose transpose, Precision precision);
  // The columns `columns` (indices into full's N, any order, repeats allowed) of a packed
  // int8 or bf16 matrix, in that order: the same bytes as packing those columns of the
  // weights would give (each column packs alone), without reading the weights again.
  // Throws util::Error for an fp32 `full` or a column outside it.
  PackedMatrix(const PackedMatrix& full, const std::vector<std::int32_t>& columns);

  Precision precision() const { return precision_; }
  int rows() const { return k_; }  // K
  int cols() const { return n_; }  // N
  int panels() const { return panels_; }
  int depth4() const { return (k_ + 3) / 4; }  // int8: groups of four k
  int depth2() const { return (k_ + 1) / 2; }  // bf16: pairs of k

  const Matrix& fp32() const { return fp32_; }                         // [K x N]
  const std::int8_t* int8() const { return int8_.data(); }             // [panels x K/4 x 16 x 4]
  const float* column_scale() const { return scale_.data(); }          // t_j, [panels * 16]
  const std::int32_t* column_offset() const { return offset_.data(); }  // 128 * sum_k qw_kj, [panels * 16]
  const std::uint16_t* bf16() const { return bf16_.data(); }           // [panels x K/2 x 16 x 2]

 private:
  void pack_int8(ConstMatrixView w, Transpose transpose);
  void pack_bf16(ConstMatrixView w, Transpose transpose);

  Precision precision_ = Precision::kFp32;
  int k_ = 0, n_ = 0, panels_ = 0;
  Matrix fp32_;
  std::vector<std::int8_t> int8_;
  std::vector<float> scale_;
  std::vector<std::int32_t> offset_;
  std::vector<std::uint16_t> bf16_;
};

// What a layer keeps for inference in `precision`: w packed, or null for kFp32 (the layer
// then multiplies its parameters themselves, the same bits as before packing existed).
std::unique_ptr<const PackedMatrix> pack_for_inference(ConstMatrixView w, Precision precision,
                                                       Transpose transpose = Transpose::kNo);

// c: [M x N] = alpha * a: [M x K] * w + beta * c in w's precision, in the calling thread
// (a with consecutive columns and any row stride, as math::gemm takes it). Throws
// util::Error naming `what` and both shapes when they do not fit.
void gemm(ConstMatrixView a, const PackedMatrix& w, MutableMatrixView c, float alpha = 1.0f, float beta = 0.0f,
          const char* what = "gemm");

// A layer's weight product: c = alpha * a * op(w) + beta * c by w's packed copy when the
// layer keeps one (pack_for_inference: int8, bf16), else by w itself through math::gemm.
void gemm(ConstMatrixView a, const PackedMatrix* packed, ConstMatrixView w, Transpose tw, MutableMatrixView c,
          float alpha, float beta, const char* what);

}  // namespace rnnsearch::math
