#include "math/gemm_kernels.h"

#include <cblas.h>

#include <cstdlib>
#include <string>

#include "math/cpu_isa.h"
#include "util/error.h"

namespace rnnsearch::math {

GemmBackend parse_gemm_backend(const std::string& name) {
  if (name == "onednn") return GemmBackend::kOneDnn;
  if (name == "openblas") return GemmBackend::kOpenBlas;
  throw util::UsageError("RNNSEARCH_GEMM_BACKEND=" + name + ": expected onednn or openblas");
}

GemmBackend default_gemm_backend() {
  if (!onednn_built_in()) return GemmBackend::kOpenBlas;
  return GemmBackend::kOneDnn;
}

GemmBackend gemm_backend_from_environment() {
  const char* named = std::getenv("RNNSEARCH_GEMM_BACKEND");
  return named != nullptr && *named != '\0' ? parse_gemm_backend(named) : default_gemm_backend();
}

bool openblas_wants_avx512_kernels() {
  if (gemm_backend_in_use() != GemmBackend::kOpenBlas) return false;
  if (std::getenv("OPENBLAS_CORETYPE") != nullptr) return false;
  const std::string core = openblas_get_corename();
  if (core != "Haswell" && core != "haswell" && core != "Zen" && core != "zen") return false;
  return detected_cpu_isa() >= CpuIsa::kAvx512;
}

}  // namespace rnnsearch::math
