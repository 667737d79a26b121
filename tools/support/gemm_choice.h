#pragma once
// The choice of the library and kernels that multiply training's products
// (math/gemm_kernels.h), made by a tool that multiplies matrices first thing in main,
// before any thread starts (and before MPI, so a run again is still one process).
namespace rnnsearch::tools {

// Reads RNNSEARCH_CPU_ISA (math::cpu_isa) and RNNSEARCH_GEMM_BACKEND and uses the backend
// they give; a value the library does not know, or onednn in a build without it, is one
// line "PROGRAM: message" on stderr and exit 2 (PROGRAM: argv[0]'s file name). Then, when
// math::openblas_wants_avx512_kernels(), executes the program again (same arguments, same
// file descriptors) with OPENBLAS_CORETYPE=SkylakeX; if that fails it carries on with the
// kernels OpenBLAS chose.
void select_gemm_kernels(char** argv);

}  // namespace rnnsearch::tools
