#pragma once
// Which library and which kernels multiply the products that need not be row-stable
// (training's; inference multiplies through math::row_stable_gemm whatever is chosen here).
// A tool that multiplies matrices calls select_gemm_kernels first thing in main.
//
// The library: RNNSEARCH_GEMM_BACKEND=onednn|openblas in the environment wins; otherwise
// the rule of default_gemm_backend (data/results/README.md, "Matrix-product libraries", has the
// measurements behind it). The rule depends only on the CPU, so a machine kind always
// trains with the same library and resumed runs stay bit-identical.
//
// OpenBLAS's kernels: OpenBLAS 0.3.21 (Debian 12) picks its kernels by CPU model and files
// AMD Zen 4/5, which have AVX-512, under Haswell (AVX2): its SGEMM then runs at about a
// third of the speed of its SkylakeX (AVX-512) kernels on the same core (sgemm_bench: 47
// against 168 GFLOP/s at 64 x 1536 x 512, one thread). OpenBLAS chooses once, when it is
// loaded, from the OPENBLAS_CORETYPE variable, so when OpenBLAS multiplies, the variable is
// unset, OpenBLAS chose Haswell or Zen and the CPU has AVX-512 F/BW/DQ/VL, this sets
// OPENBLAS_CORETYPE=SkylakeX and executes the program again (same arguments, same file
// descriptors). A user's own OPENBLAS_CORETYPE always wins (these machines' environment
// sets Haswell).
#include "math/gemm.h"

namespace rnnsearch::math {

void select_gemm_kernels(char** argv);

// The library the rule picks on this CPU when the environment does not say.
GemmBackend default_gemm_backend();

// "onednn" or "openblas" -> the backend; throws util::Error naming the variable otherwise.
GemmBackend parse_gemm_backend(const std::string& name);

}  // namespace rnnsearch::math
