#include "math/precision.h"

#include "math/bf16.h"
#include "math/cpu_isa.h"
#include "math/quantized_kernels.h"
#include "util/error.h"

namespace rnnsearch::math {

const char* precision_name(Precision precision) {
  switch (precision) {
    case Precision::kFp32: return "fp32";
    case Precision::kInt8: return "int8";
    case Precision::kBf16: return "bf16";
  }
  return "unknown";
}

Precision parse_precision(const std::string& name) {
  if (name == "fp32") return Precision::kFp32;
  if (name == "int8") return Precision::kInt8;
  if (name == "bf16") return Precision::kBf16;
  if (name == "auto") return automatic_precision();
  throw util::UsageError("--precision must be fp32, int8, bf16 or auto, got '" + name + "'");
}

bool precision_supported(Precision precision) {
  return precision != Precision::kBf16 || bf16_kernel_available();
}

void check_precision_supported(Precision precision) {
  if (!precision_supported(precision)) {
    throw util::UsageError(std::string("--precision ") + precision_name(precision) + ": " + bf16_missing_reason());
  }
}

Precision automatic_precision() {
  return cpu_isa() >= CpuIsa::kAvx512Vnni ? Precision::kInt8 : Precision::kFp32;
}

}  // namespace rnnsearch::math
