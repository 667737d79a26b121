#pragma once
// Which library and which kernels multiply the products that need not be row-stable
// (training's; inference multiplies through math::row_stable_gemm whatever is chosen here).
// The choice is the tools' (tools/support/gemm_choice.h, first thing in main): this says
// what to choose and prints, exits or runs nothing itself.
//
// The library: RNNSEARCH_GEMM_BACKEND=onednn|openblas in the environment wins; otherwise
// the rule of default_gemm_backend (data/results/README.md, "Matrix-product libraries", has the
// measurements behind it). The rule depends only on the CPU, so a machine kind always
// trains with the same library and resumed runs stay bit-identical.
//
// OpenBLAS's kernels: OpenBLAS 0.3.21 (Debian 12) picks its kernels by CPU model and files
// AMD Zen 4/5, which have AVX-512, under Haswell (AVX2): its SGEMM then runs at about a
// third of the speed of its SkylakeX (AVX-512) kernels on the same core (build/bench/sgemm_bench;
// data/results/README.md has the figures). OpenBLAS chooses once, when it is loaded, from the OPENBLAS_CORETYPE
// variable, so only a new process can have the faster kernels: the tool then sets
// OPENBLAS_CORETYPE=SkylakeX and executes itself again (same arguments, same file
// descriptors). A user's own OPENBLAS_CORETYPE always wins (these machines' environment
// sets Haswell).
#include <string>

#include "math/gemm.h"

namespace rnnsearch::math {

// The library the rule picks on this CPU when the environment does not say.
GemmBackend default_gemm_backend();

// "onednn" or "openblas" -> the backend; throws util::UsageError naming the variable otherwise.
GemmBackend parse_gemm_backend(const std::string& name);

// The backend RNNSEARCH_GEMM_BACKEND asks for (parse_gemm_backend), or the default when it
// is unset or empty. Throws util::UsageError for an unknown name.
GemmBackend gemm_backend_from_environment();

// True when OpenBLAS multiplies (gemm_backend_in_use), OPENBLAS_CORETYPE is unset,
// OpenBLAS chose its Haswell or Zen kernels and the CPU has AVX-512 (F, BW, DQ and VL,
// math::detected_cpu_isa): a new process with OPENBLAS_CORETYPE=SkylakeX would multiply
// faster.
bool openblas_wants_avx512_kernels();

}  // namespace rnnsearch::math
