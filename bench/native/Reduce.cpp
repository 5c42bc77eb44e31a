//===- Reduce.cpp - Per-block sums, native: a plain sum per block ---------===//
#include "NativeHarness.h"

namespace bench::native {

void reduce(const Workload &W, const std::vector<void *> &Buffers) {
  const int PerBlock = 1024;
  int N = W.intArg(2);
  int Blocks = (N + PerBlock - 1) / PerBlock;
  const float *In = static_cast<const float *>(Buffers[0]);
  float *Partial = static_cast<float *>(Buffers[1]);
#pragma omp parallel for schedule(static)
  for (int B = 0; B < Blocks; ++B) {
    int End = B * PerBlock + PerBlock < N ? B * PerBlock + PerBlock : N;
    float Sum = 0.0f;
#pragma omp simd reduction(+ : Sum)
    for (int I = B * PerBlock; I < End; ++I)
      Sum += In[I];
    Partial[B] = Sum;
  }
}

} // namespace bench::native
