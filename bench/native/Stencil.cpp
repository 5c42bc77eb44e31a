//===- Stencil.cpp - One 2D 5-point stencil sweep, native -----------------===//
#include "NativeHarness.h"

namespace bench::native {

void stencil(const Workload &W, const std::vector<void *> &Buffers) {
  int Nx = W.intArg(2), Ny = W.intArg(3);
  float C0 = W.floatArg(4), C1 = W.floatArg(5);
  float *Out = static_cast<float *>(Buffers[0]);
  const float *In = static_cast<const float *>(Buffers[1]);
#pragma omp parallel for schedule(static)
  for (int Y = 0; Y < Ny; ++Y) {
    const float *Row = In + size_t(Y) * Nx;
    float *OutRow = Out + size_t(Y) * Nx;
    if (Y == 0 || Y == Ny - 1) {
      for (int X = 0; X < Nx; ++X)
        OutRow[X] = Row[X];
      continue;
    }
    OutRow[0] = Row[0];
    OutRow[Nx - 1] = Row[Nx - 1];
#pragma omp simd
    for (int X = 1; X < Nx - 1; ++X)
      OutRow[X] = C0 * Row[X] +
                  C1 * (Row[X - 1] + Row[X + 1] + Row[X - Nx] + Row[X + Nx]);
  }
}

} // namespace bench::native
