// Which level's kernel does vector_ops.h's arithmetic (math/kernels/vector_kernels.cc).
#include "math/vector_ops.h"

#include "math/kernel_tables.h"
#include "math/shape_check.h"

namespace rnnsearch::math {

void add_row_to_rows(MatrixRef m, const ConstMatrixRef& row) {
  if (row.rows() != 1 || row.cols() != m.cols()) check_shape(row, 1, m.cols(), "add_row_to_rows: the row");
  const kernels::VectorKernels& f = vector_kernels(cpu_isa());
  for (Eigen::Index r = 0; r < m.rows(); ++r) f.add(row.data(), m.row(r).data(), m.cols());
}

void subtract_scalar(float s, float* y, long n) { vector_kernels(cpu_isa()).subtract_scalar(s, y, n); }

void multiply(const float* a, const float* b, float* y, long n) { vector_kernels(cpu_isa()).multiply(a, b, y, n); }

int next_block_above(const float* x, int from, int count, float worst) {
  return vector_kernels(cpu_isa()).next_block_above(x, from, count, worst);
}

void adam_update(float* m, float* v, float* w, const float* g, long n, float beta1, float beta2, float step,
                 float inv_sqrt_c2, float epsilon) {
  vector_kernels(cpu_isa()).adam(m, v, w, g, n, beta1, beta2, step, inv_sqrt_c2, epsilon);
}

void adadelta_update(float* eg2, float* edx2, float* w, const float* g, long n, float rho, float epsilon, float rate) {
  vector_kernels(cpu_isa()).adadelta(eg2, edx2, w, g, n, rho, epsilon, rate);
}

}  // namespace rnnsearch::math
