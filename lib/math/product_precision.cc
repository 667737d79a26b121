#include "math/product_precision.h"

#include "math/bf16.h"
#include "math/bf16_gemm.h"
#include "util/error.h"

namespace rnnsearch::math {

namespace {

thread_local Precision current = Precision::kFp32;

}  // namespace

Precision parse_training_precision(const std::string& name) {
  if (name == "fp32") return Precision::kFp32;
  if (name == "bf16") return Precision::kBf16;
  throw util::UsageError("--precision must be one of fp32, bf16, got '" + name + "'");
}

bool bf16_products_available() { return cpu_has_avx512_bf16() && onednn_bf16_gemm_works(); }

void check_precision_available(Precision precision) {
  if (precision != Precision::kBf16 || bf16_products_available()) return;
#ifdef RNNSEARCH_GEMM_ONEDNN
  // A usage error (2), as nmt-decode's: the option asks for what this machine, as set, cannot do.
  throw util::UsageError(cpu_has_avx512_bf16() ? "--precision bf16: oneDNN multiplies no bf16 here (is ONEDNN_MAX_CPU_ISA "
                                                 "set below AVX512_CORE_BF16?); use fp32"
                                               : "--precision bf16: " + bf16_missing_reason() + "; use fp32");
#else
  throw util::UsageError("--precision bf16 needs the oneDNN backend (cmake -DRNNSEARCH_GEMM=onednn); this build uses "
                         "OpenBLAS: use fp32");
#endif
}

ProductPrecision::ProductPrecision(Precision precision) : previous_(current) { current = precision; }

ProductPrecision::~ProductPrecision() { current = previous_; }

Precision product_precision() { return current; }

}  // namespace rnnsearch::math
