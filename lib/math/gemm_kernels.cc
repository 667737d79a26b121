#include "math/gemm_kernels.h"

#include <cblas.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

namespace rnnsearch::math {

void select_gemm_kernels(char** argv) {
#ifdef RNNSEARCH_GEMM_ONEDNN
  (void)argv;  // oneDNN multiplies and picks its kernels itself; OpenBLAS's choice does not matter
#else
  if (std::getenv("OPENBLAS_CORETYPE") != nullptr) return;
  const std::string core = openblas_get_corename();
  if (core != "Haswell" && core != "haswell" && core != "Zen" && core != "zen") return;
  __builtin_cpu_init();
  if (!__builtin_cpu_supports("avx512f") || !__builtin_cpu_supports("avx512bw") ||
      !__builtin_cpu_supports("avx512dq") || !__builtin_cpu_supports("avx512vl")) {
    return;
  }
  if (setenv("OPENBLAS_CORETYPE", "SkylakeX", 1) != 0) return;
  execv("/proc/self/exe", argv);
  unsetenv("OPENBLAS_CORETYPE");  // exec failed: carry on with the kernels OpenBLAS chose
#endif
}

}  // namespace rnnsearch::math
