#pragma once
// Every file of the project includes Eigen through this header (and nowhere else first),
// so that all see the same definitions.
//
// Eigen 3.4's DenseStorage::resize frees a matrix's buffer before allocating the new one
// and, when that allocation throws std::bad_alloc, leaves the freed pointer in the matrix:
// unwinding then frees it a second time (a double free, and an abort instead of a
// message). Compiled without EIGEN_EXCEPTIONS, Eigen reports a failed allocation by calling
// ::operator new(SIZE_MAX) instead, which runs the new-handler before anything unwinds:
// the tools' handler (tools/support/out_of_memory.h) prints "out of memory" and exits 1 there.
// Macros.h defines EIGEN_EXCEPTIONS whenever C++ exceptions are on; read first, its include
// guard keeps Eigen/Core from defining it again.
//
// Eigen aligns the buffers it allocates to its own vector width, 16 bytes in the portable
// build (compiled for SSE2), while the kernels chosen at run time read weights and
// activations in place with 32- and 64-byte loads: from a 16-byte boundary one in two
// (AVX2) or every (AVX-512) load of a row then spans two cache lines, and the products run
// slower than in a build for the CPU. Every buffer on a cache line's boundary makes the
// loads as in that build. Only where buffers start changes, not the order of any sum: the
// bytes are the same.
#define EIGEN_MAX_ALIGN_BYTES 64
#include <new>

#include <Eigen/src/Core/util/Macros.h>
#undef EIGEN_EXCEPTIONS
#include <Eigen/Core>
