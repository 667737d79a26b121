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
#include <new>

#include <Eigen/src/Core/util/Macros.h>
#undef EIGEN_EXCEPTIONS
#include <Eigen/Core>
