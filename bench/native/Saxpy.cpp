//===- Saxpy.cpp - y = a * x + y, native
//-----------------------------------===//
#include "NativeHarness.h"

namespace bench::native {

void saxpy(const Workload &W, const std::vector<void *> &Buffers) {
  int N = W.intArg(0);
  float A = W.floatArg(1);
  const float *X = static_cast<const float *>(Buffers[0]);
  float *Y = static_cast<float *>(Buffers[1]);
#pragma omp parallel for simd schedule(static)
  for (int I = 0; I < N; ++I)
    Y[I] = A * X[I] + Y[I];
}

} // namespace bench::native
