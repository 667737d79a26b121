#include "math/gemm_kernels.h"

#include <cblas.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "util/error.h"

namespace rnnsearch::math {

namespace {

bool has_avx512() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
}

// OpenBLAS is about to multiply on an AVX-512 CPU with its AVX2 kernels: run again with its AVX-512 ones.
void prefer_openblas_avx512_kernels(char** argv) {
  if (std::getenv("OPENBLAS_CORETYPE") != nullptr) return;
  const std::string core = openblas_get_corename();
  if (core != "Haswell" && core != "haswell" && core != "Zen" && core != "zen") return;
  if (!has_avx512()) return;
  if (setenv("OPENBLAS_CORETYPE", "SkylakeX", 1) != 0) return;
  execv("/proc/self/exe", argv);
  unsetenv("OPENBLAS_CORETYPE");  // exec failed: carry on with the kernels OpenBLAS chose
}

}  // namespace

GemmBackend parse_gemm_backend(const std::string& name) {
  if (name == "onednn") return GemmBackend::kOneDnn;
  if (name == "openblas") return GemmBackend::kOpenBlas;
  throw util::Error("RNNSEARCH_GEMM_BACKEND=" + name + ": expected onednn or openblas");
}

GemmBackend default_gemm_backend() {
  if (!onednn_built_in()) return GemmBackend::kOpenBlas;
  return GemmBackend::kOneDnn;
}

void select_gemm_kernels(char** argv) {
  const char* named = std::getenv("RNNSEARCH_GEMM_BACKEND");
  try {
    use_gemm_backend(named != nullptr && *named != '\0' ? parse_gemm_backend(named) : default_gemm_backend());
  } catch (const util::Error& e) {  // before the tool's own error handling: report as a tool does
    const std::string program = argv[0] != nullptr ? argv[0] : "rnnsearch";
    std::fprintf(stderr, "%s: %s\n", program.substr(program.find_last_of('/') + 1).c_str(), e.what());
    std::exit(2);
  }
  if (gemm_backend_in_use() == GemmBackend::kOpenBlas) prefer_openblas_avx512_kernels(argv);
}

}  // namespace rnnsearch::math
