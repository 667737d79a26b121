// Plain vector arithmetic (math/vector_ops.h), compiled once per level (kernels.h): loops of
// IEEE operations (no fma: -ffp-contract=off) for the compiler to vectorize (CMake adds
// -O3 and -fno-math-errno, which lets sqrt vectorize and changes no value), and the block
// search of the beam's top columns written per level, since it stops at the first hit.
#include <cmath>

#include "math/kernels/kernels.h"

#if defined(__AVX2__) || defined(__AVX512F__)
#include <immintrin.h>
#endif

namespace rnnsearch::math::RNNSEARCH_ISA {

namespace {

constexpr int kBlock = 16;

void add(const float* __restrict x, float* __restrict y, long n) {
  for (long i = 0; i < n; ++i) y[i] += x[i];
}

void subtract_scalar(float s, float* y, long n) {
  for (long i = 0; i < n; ++i) y[i] -= s;
}

void multiply(const float* __restrict a, const float* __restrict b, float* __restrict y, long n) {
  for (long i = 0; i < n; ++i) y[i] = a[i] * b[i];
}

int next_block_above(const float* x, int from, int count, float worst) {
  int i = from;
#if defined(__AVX512F__)
  const __m512 bound = _mm512_set1_ps(worst);
  for (; i + kBlock <= count; i += kBlock) {
    if (_mm512_cmp_ps_mask(_mm512_loadu_ps(x + i), bound, _CMP_GT_OQ) != 0) return i;
  }
#elif defined(__AVX2__)
  const __m256 bound = _mm256_set1_ps(worst);
  for (; i + kBlock <= count; i += kBlock) {
    const __m256 above = _mm256_or_ps(_mm256_cmp_ps(_mm256_loadu_ps(x + i), bound, _CMP_GT_OQ),
                                      _mm256_cmp_ps(_mm256_loadu_ps(x + i + 8), bound, _CMP_GT_OQ));
    if (_mm256_movemask_ps(above) != 0) return i;
  }
#else
  for (; i + kBlock <= count; i += kBlock) {
    bool any = false;
    for (int l = 0; l < kBlock; ++l) any |= x[i + l] > worst;
    if (any) return i;
  }
#endif
  return i;
}

void adam(float* __restrict m, float* __restrict v, float* __restrict w, const float* __restrict g, long n,
          float beta1, float beta2, float step, float inv_sqrt_c2, float epsilon) {
  const float keep1 = 1.0f - beta1, keep2 = 1.0f - beta2;
  for (long i = 0; i < n; ++i) {
    m[i] = beta1 * m[i] + keep1 * g[i];
    v[i] = beta2 * v[i] + keep2 * (g[i] * g[i]);
    w[i] -= step * m[i] / (std::sqrt(v[i]) * inv_sqrt_c2 + epsilon);
  }
}

void adadelta(float* __restrict eg2, float* __restrict edx2, float* __restrict w, const float* __restrict g, long n,
              float rho, float epsilon, float rate) {
  const float keep = 1.0f - rho;
  for (long i = 0; i < n; ++i) {
    eg2[i] = rho * eg2[i] + keep * (g[i] * g[i]);
    const float dx = -(std::sqrt(edx2[i] + epsilon) / std::sqrt(eg2[i] + epsilon) * g[i]);
    edx2[i] = rho * edx2[i] + keep * (dx * dx);
    w[i] += rate * dx;
  }
}

}  // namespace

extern const kernels::VectorKernels kVector{add, subtract_scalar, multiply, next_block_above, adam, adadelta};

}  // namespace rnnsearch::math::RNNSEARCH_ISA
