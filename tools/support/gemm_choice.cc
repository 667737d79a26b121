#include "tools/support/gemm_choice.h"

#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <stdexcept>
#include <string>

#include "math/cpu_isa.h"
#include "math/gemm_kernels.h"
#include "util/cli.h"
#include "util/error.h"

namespace rnnsearch::tools {

namespace {

// Before run_tool's error handling: reported as run_tool reports a usage error, less the
// --help hint (the environment is at fault, not the command line).
[[noreturn]] void refuse(char** argv, const std::exception& e) {
  const std::string program = argv[0] != nullptr ? argv[0] : "rnnsearch";
  std::cerr << program.substr(program.find_last_of('/') + 1) << ": " << e.what() << "\n";
  std::exit(util::kExitUsage);
}

}  // namespace

void select_gemm_kernels(char** argv) {
  try {
    math::cpu_isa();
    math::use_gemm_backend(math::gemm_backend_from_environment());
  } catch (const util::UsageError& e) {
    refuse(argv, e);
  } catch (const util::Error& e) {  // onednn named in a build without oneDNN
    refuse(argv, e);
  }
  if (!math::openblas_wants_avx512_kernels()) return;
  if (setenv("OPENBLAS_CORETYPE", "SkylakeX", 1) != 0) return;
  execv("/proc/self/exe", argv);
  unsetenv("OPENBLAS_CORETYPE");  // exec failed: carry on with the kernels OpenBLAS chose
}

}  // namespace rnnsearch::tools
