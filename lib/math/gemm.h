#pragma once
// The one matrix-product entry point: C = alpha * op(A) * op(B) + beta * C over
// row-major float matrices. Every layer multiplies through here, so the backend changes
// in one place: oneDNN's sgemm or OpenBLAS's cblas_sgemm, chosen per process
// (math/gemm_kernels.h says by which rule); oneDNN only when the build finds it (CMake
// RNNSEARCH_GEMM=onednn, the default).
#include <string>
#include <type_traits>

#include "math/types.h"

namespace rnnsearch::math {

enum class Transpose { kNo, kYes };

// A matrix operand seen in place: `rows` x `cols` floats, row-major, row r at
// data + r * stride. Made implicitly from a Matrix, a Map, an Eigen::Ref or a block of
// whole rows or columns of one (middleRows, rightCols, ...), whose stride stays the
// parent's: one time step of a [(T*B) x d] sequence, the z and r columns of [B x 3H]
// gates, say.
template <typename Float>
struct MatrixView {
  Float* data;
  int rows, cols;
  int stride;  // floats from one row to the next (the leading dimension)

  template <typename Xpr, typename = std::enable_if_t<!std::is_base_of_v<MatrixView, std::decay_t<Xpr>>>>
  MatrixView(Xpr&& x)  // NOLINT(google-explicit-constructor): views are made at the call
      : data(x.data()),
        rows(static_cast<int>(x.rows())),
        cols(static_cast<int>(x.cols())),
        stride(static_cast<int>(x.outerStride())) {
    static_assert(std::decay_t<Xpr>::IsRowMajor && std::decay_t<Xpr>::InnerStrideAtCompileTime == 1,
                  "a gemm operand is row-major with consecutive columns");
  }
  // A view of mutable floats is also one of const floats.
  template <typename Other, typename = std::enable_if_t<std::is_same_v<Float, const Other>>>
  MatrixView(const MatrixView<Other>& other)  // NOLINT(google-explicit-constructor)
      : data(other.data), rows(other.rows), cols(other.cols), stride(other.stride) {}
};
using ConstMatrixView = MatrixView<const float>;
using MutableMatrixView = MatrixView<float>;

// c: [M x N] = alpha * op(a): [M x K] * op(b): [K x N] + beta * c, each operand a
// Matrix or a view into a larger one (shapes and strides come with the operands).
// Throws util::Error naming `what` and both shapes when they do not fit. In a
// ProductPrecision(kBf16) scope all but tiny products multiply in bf16 (math/bf16_gemm.h).
void gemm(ConstMatrixView a, Transpose ta, ConstMatrixView b, Transpose tb, MutableMatrixView c, float alpha = 1.0f,
          float beta = 0.0f, const char* what = "gemm");

// Floating-point operations (2 m n k per product) of every product since the program
// started, over all threads: benchmarks check their analytic FLOP counts against it.
double gemm_flops_done();

// Threads the backend may use for one product (1 keeps it in the calling thread). With
// oneDNN this is a setting of the calling thread: a thread that multiplies on its own
// sets it first.
void set_gemm_threads(int threads);
int gemm_threads();
enum class GemmBackend { kOneDnn, kOpenBlas };
// Which library multiplies the products that need not be row-stable (training's): set
// once, before any thread multiplies (the tools' select_gemm_kernels does), never while products
// run. Throws util::Error for oneDNN in a build without it.
void use_gemm_backend(GemmBackend backend);
GemmBackend gemm_backend_in_use();
bool onednn_built_in();
// "oneDNN sgemm" or "OpenBLAS": the backend in use.
const char* gemm_backend();

// While one of these lives, every product the calling thread makes with op(A) = A goes
// through row_stable_gemm: each row of C is the same bits whatever the rows beside it.
// Inference holds one (RnnSearch::encode, decoder_step, forced_attention), so that a
// sentence's scores and weights do not depend on its batch; training, which prints no
// per-sentence numbers, keeps the backend's faster kernels. Scopes nest.
class RowStableProducts {
 public:
  RowStableProducts();
  ~RowStableProducts();
  RowStableProducts(const RowStableProducts&) = delete;
  RowStableProducts& operator=(const RowStableProducts&) = delete;

 private:
  bool previous_;
};

// Off: RowStableProducts scopes change nothing, so inference multiplies with the backend
// and its numbers depend on the batch again. Only for benchmarks that measure what row
// stability costs; on by default.
void allow_row_stable_products(bool allowed);

}  // namespace rnnsearch::math
