//===- Transpose.cpp - Square transpose in 32 x 32 blocks, native ---------===//
#include "NativeHarness.h"

namespace bench::native {

void transpose(const Workload &W, const std::vector<void *> &Buffers) {
  const int Tile = 32;
  int Width = W.intArg(2), Height = W.intArg(3);
  float *Out = static_cast<float *>(Buffers[0]);
  const float *In = static_cast<const float *>(Buffers[1]);
#pragma omp parallel for collapse(2) schedule(static)
  for (int Y0 = 0; Y0 < Height; Y0 += Tile)
    for (int X0 = 0; X0 < Width; X0 += Tile)
      for (int Y = Y0; Y < Y0 + Tile; ++Y)
        for (int X = X0; X < X0 + Tile; ++X)
          Out[size_t(X) * Height + Y] = In[size_t(Y) * Width + X];
}

} // namespace bench::native
