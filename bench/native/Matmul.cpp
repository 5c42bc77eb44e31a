//===- Matmul.cpp - C = A * B, native
//--------------------------------------===//
//
// Row by row in i-k-j order, so that the inner loop streams a row of B and
// a row of C and vectorizes; rows are split between the threads.
//
//===----------------------------------------------------------------------===//
#include "NativeHarness.h"

namespace bench::native {

void matmul(const Workload &W, const std::vector<void *> &Buffers) {
  int N = W.intArg(3);
  float *C = static_cast<float *>(Buffers[0]);
  const float *A = static_cast<const float *>(Buffers[1]);
  const float *B = static_cast<const float *>(Buffers[2]);
#pragma omp parallel for schedule(static)
  for (int I = 0; I < N; ++I) {
    float *Row = C + size_t(I) * N;
    for (int J = 0; J < N; ++J)
      Row[J] = 0.0f;
    for (int K = 0; K < N; ++K) {
      float Aik = A[size_t(I) * N + K];
      const float *BRow = B + size_t(K) * N;
#pragma omp simd
      for (int J = 0; J < N; ++J)
        Row[J] += Aik * BRow[J];
    }
  }
}

} // namespace bench::native
