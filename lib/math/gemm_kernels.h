#pragma once
// OpenBLAS 0.3.21 (Debian 12) picks its kernels by CPU model and files AMD Zen 4/5,
// which have AVX-512, under Haswell (AVX2): its SGEMM then runs at about a third of the
// speed of its SkylakeX (AVX-512) kernels on the same core (sgemm_bench: 47 against 168
// GFLOP/s at 64 x 1536 x 512, one thread). OpenBLAS chooses once, when it is loaded, from
// the OPENBLAS_CORETYPE variable, so a tool that multiplies matrices calls this first
// thing in main: when the variable is unset, OpenBLAS chose Haswell or Zen, and the CPU
// has AVX-512 F/BW/DQ/VL, it sets OPENBLAS_CORETYPE=SkylakeX and executes the program
// again (same arguments, same file descriptors). Anything else returns at once; a user's
// own OPENBLAS_CORETYPE always wins (these machines' environment sets Haswell), and with
// the oneDNN backend, which picks its own kernels, it does nothing.
namespace rnnsearch::math {

void select_gemm_kernels(char** argv);

}  // namespace rnnsearch::math
