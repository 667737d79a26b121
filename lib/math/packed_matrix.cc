#include "math/packed_matrix.h"

#include <cmath>
#include <cstring>

#include "math/bf16.h"
#include "math/quantized_kernels.h"
#include "util/error.h"

namespace rnnsearch::math {

namespace {

// w(k, j) of a [K x N] weight matrix given as itself or as its transpose.
struct WeightReader {
  ConstMatrixView w;
  bool transposed;
  float operator()(int k, int j) const {
    return transposed ? w.data[static_cast<long>(j) * w.stride + k] : w.data[static_cast<long>(k) * w.stride + j];
  }
};

}  // namespace


std::unique_ptr<const PackedMatrix> pack_for_inference(ConstMatrixView w, Precision precision, Transpose transpose) {
  if (precision == Precision::kFp32) return nullptr;
  return std::make_unique<const PackedMatrix>(w, transpose, precision);
}

PackedMatrix::PackedMatrix(ConstMatrixView w, Transpose transpose, Precision precision)
    : precision_(precision),
      k_(transpose == Transpose::kNo ? w.rows : w.cols),
      n_(transpose == Transpose::kNo ? w.cols : w.rows),
      panels_(2 * ((n_ + 2 * kPanel - 1) / (2 * kPanel))) {
  check_precision_supported(precision);
  const WeightReader at{w, transpose == Transpose::kYes};
  switch (precision) {
    case Precision::kFp32:
      fp32_.resize(k_, n_);
      for (int k = 0; k < k_; ++k)
        for (int j = 0; j < n_; ++j) fp32_(k, j) = at(k, j);
      break;
    case Precision::kInt8: pack_int8(w, transpose); break;
    case Precision::kBf16: pack_bf16(w, transpose); break;
  }
}

PackedMatrix::PackedMatrix(const PackedMatrix& full, const std::vector<std::int32_t>& columns)
    : precision_(full.precision_),
      k_(full.k_),
      n_(static_cast<int>(columns.size())),
      panels_(2 * ((n_ + 2 * kPanel - 1) / (2 * kPanel))) {
  if (precision_ == Precision::kFp32) throw util::Error("PackedMatrix: gathering columns of an fp32 matrix");
  const int width = panels_ * kPanel;
  // Per column: `groups` runs of `run` bytes, kPanel * run bytes apart (a panel's layout).
  const bool int8 = precision_ == Precision::kInt8;
  const int groups = int8 ? depth4() : depth2(), run = 4;  // 4 int8 values or 2 bf16 values
  const std::size_t size = static_cast<std::size_t>(width) * groups * run;
  unsigned char* to = nullptr;
  const unsigned char* from = nullptr;
  if (int8) {
    int8_.assign(size, 0);
    scale_.assign(static_cast<std::size_t>(width), 0.0f);
    offset_.assign(static_cast<std::size_t>(width), 0);
    to = reinterpret_cast<unsigned char*>(int8_.data());
    from = reinterpret_cast<const unsigned char*>(full.int8_.data());
  } else {
    bf16_.assign(size / 2, 0);
    to = reinterpret_cast<unsigned char*>(bf16_.data());
    from = reinterpret_cast<const unsigned char*>(full.bf16_.data());
  }
  for (int c = 0; c < n_; ++c) {
    const std::int32_t j = columns[static_cast<std::size_t>(c)];
    if (j < 0 || j >= full.n_) {
      throw util::Error("PackedMatrix: column " + std::to_string(j) + " of " + std::to_string(full.n_));
    }
    const unsigned char* source = from + (static_cast<std::size_t>(j / kPanel) * groups * kPanel + j % kPanel) * run;
    unsigned char* target = to + (static_cast<std::size_t>(c / kPanel) * groups * kPanel + c % kPanel) * run;
    for (int g = 0; g < groups; ++g) {
      std::memcpy(target + static_cast<std::size_t>(g) * kPanel * run, source + static_cast<std::size_t>(g) * kPanel * run, run);
    }
    if (int8) {
      scale_[static_cast<std::size_t>(c)] = full.scale_[static_cast<std::size_t>(j)];
      offset_[static_cast<std::size_t>(c)] = full.offset_[static_cast<std::size_t>(j)];
    }
  }
}

void PackedMatrix::pack_int8(ConstMatrixView w, Transpose transpose) {
  const WeightReader at{w, transpose == Transpose::kYes};
  const int k4 = depth4(), width = panels_ * kPanel;
  int8_.assign(static_cast<std::size_t>(width) * k4 * 4, 0);
  scale_.assign(static_cast<std::size_t>(width), 0.0f);
  offset_.assign(static_cast<std::size_t>(width), 0);
  for (int j = 0; j < n_; ++j) {
    float max_abs = 0.0f;
    for (int k = 0; k < k_; ++k) max_abs = std::max(max_abs, std::fabs(at(k, j)));
    scale_[static_cast<std::size_t>(j)] = int8_step(max_abs);
    const float inverse = int8_inverse_step(max_abs);
    std::int32_t sum = 0;
    std::int8_t* column = int8_.data() + (static_cast<std::size_t>(j / kPanel) * k4 * kPanel + j % kPanel) * 4;
    for (int k = 0; k < k_; ++k) {
      const std::int8_t q = quantize_int8(at(k, j), inverse);
      column[(k / 4) * kPanel * 4 + k % 4] = q;
      sum += q;
    }
    offset_[static_cast<std::size_t>(j)] = 128 * sum;
  }
}

void PackedMatrix::pack_bf16(ConstMatrixView w, Transpose transpose) {
  const WeightReader at{w, transpose == Transpose::kYes};
  const int k2 = depth2(), width = panels_ * kPanel;
  bf16_.assign(static_cast<std::size_t>(width) * k2 * 2, 0);
  for (int j = 0; j < n_; ++j) {
    std::uint16_t* column = bf16_.data() + (static_cast<std::size_t>(j / kPanel) * k2 * kPanel + j % kPanel) * 2;
    for (int k = 0; k < k_; ++k) column[(k / 2) * kPanel * 2 + k % 2] = to_bf16(at(k, j));
  }
}

}  // namespace rnnsearch::math
