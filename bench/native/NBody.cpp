//===- NBody.cpp - All-pairs accelerations, native ------------------------===//
//
// Bodies are split between the threads; the inner loop over all bodies
// vectorizes (1 / sqrt stands in for rsqrtf).
//
//===----------------------------------------------------------------------===//
#include "NativeHarness.h"

#include <cmath>

namespace bench::native {

void nbody(const Workload &W, const std::vector<void *> &Buffers) {
  int N = W.intArg(2);
  float Eps2 = W.floatArg(3);
  float *Accel = static_cast<float *>(Buffers[0]);
  const float *Pos = static_cast<const float *>(Buffers[1]);
#pragma omp parallel for schedule(static)
  for (int I = 0; I < N; ++I) {
    float Px = Pos[4 * I], Py = Pos[4 * I + 1], Pz = Pos[4 * I + 2];
    float Ax = 0.0f, Ay = 0.0f, Az = 0.0f;
#pragma omp simd reduction(+ : Ax, Ay, Az)
    for (int J = 0; J < N; ++J) {
      float Dx = Pos[4 * J] - Px, Dy = Pos[4 * J + 1] - Py,
            Dz = Pos[4 * J + 2] - Pz;
      float Inv = 1.0f / std::sqrt(Dx * Dx + Dy * Dy + Dz * Dz + Eps2);
      float S = Pos[4 * J + 3] * Inv * Inv * Inv;
      Ax += Dx * S;
      Ay += Dy * S;
      Az += Dz * S;
    }
    Accel[4 * I] = Ax;
    Accel[4 * I + 1] = Ay;
    Accel[4 * I + 2] = Az;
    Accel[4 * I + 3] = 0.0f;
  }
}

} // namespace bench::native
