#pragma once
// The precision of training's matrix products: fp32, or bf16 inputs with fp32
// accumulation and fp32 outputs (nmt-train --precision). The parameters, their
// gradients and the optimizer stay fp32 either way; only math::gemm's operands are
// rounded to bf16, and only for products large enough to pay for the rounding
// (math/bf16_gemm.h). Inference never multiplies in bf16.
#include <string>

#include "math/precision.h"

namespace rnnsearch::math {

// nmt-train's --precision: fp32 or bf16 (int8 is for inference only). Throws
// util::UsageError "--precision must be one of fp32, bf16, got 'NAME'".
Precision parse_training_precision(const std::string& name);

// True when this CPU multiplies bf16 in hardware (AVX512_BF16; AMX-BF16 CPUs have it too)
// and the build's backend uses it (oneDNN, not held below that ISA by ONEDNN_MAX_CPU_ISA).
bool bf16_products_available();
// Throws util::Error saying why when `precision` is bf16 and bf16_products_available() is not.
void check_precision_available(Precision precision);

// While one of these lives, the calling thread's math::gemm products run in `precision`
// (RnnSearch::loss holds one while it computes gradients). Scopes nest.
class ProductPrecision {
 public:
  explicit ProductPrecision(Precision precision);
  ~ProductPrecision();
  ProductPrecision(const ProductPrecision&) = delete;
  ProductPrecision& operator=(const ProductPrecision&) = delete;

 private:
  Precision previous_;
};

// The calling thread's precision now (fp32 outside any scope).
Precision product_precision();

}  // namespace rnnsearch::math
