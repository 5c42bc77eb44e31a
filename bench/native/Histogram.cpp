//===- Histogram.cpp - 256-bin byte histogram, native ---------------------===//
//
// Each thread counts its share into a private histogram (the counterpart of
// the shared-memory histogram) and adds it to the result under a critical
// section.
//
//===----------------------------------------------------------------------===//
#include "NativeHarness.h"

#include <cstdint>

namespace bench::native {

void histogram(const Workload &W, const std::vector<void *> &Buffers) {
  int N = W.intArg(2);
  const unsigned char *Data = static_cast<const unsigned char *>(Buffers[0]);
  uint32_t *Bins = static_cast<uint32_t *>(Buffers[1]);
#pragma omp parallel
  {
    uint32_t Local[256] = {};
#pragma omp for schedule(static) nowait
    for (int I = 0; I < N; ++I)
      ++Local[Data[I]];
#pragma omp critical
    for (int B = 0; B < 256; ++B)
      Bins[B] += Local[B];
  }
}

} // namespace bench::native
