//===- NBody.cpp - All-pairs gravitational accelerations ------------------===//
#include "../Reference.h"
#include "Workloads.h"

#include <cmath>

namespace bench {
namespace {
constexpr float Eps2 = 0.01f;

std::string check(const Workload &W, const Contents &After) {
  int N = W.intArg(2);
  const float *P = as<float>(W.Buffers[1].Initial);
  const float *Got = as<float>(After[0]);
  // Every 31st body, all three components: the reference is O(n) per body.
  std::string Msg;
  for (int I = 0; I < N && Msg.empty(); I += 31) {
    double Acc[3] = {0, 0, 0}, Scale = 0;
    for (int J = 0; J < N; ++J) {
      double D[3] = {double(P[4 * J]) - P[4 * I],
                     double(P[4 * J + 1]) - P[4 * I + 1],
                     double(P[4 * J + 2]) - P[4 * I + 2]};
      double R2 = D[0] * D[0] + D[1] * D[1] + D[2] * D[2] + Eps2;
      double S = P[4 * J + 3] / (R2 * std::sqrt(R2));
      for (int C = 0; C < 3; ++C)
        Acc[C] += D[C] * S;
      Scale += std::sqrt(R2) * S;
    }
    double Scales[3] = {Scale, Scale, Scale};
    // n float additions, each term with a few ulps from rsqrt.
    Msg = compareFloats("accel", Got, Acc, 3, N * 0x1p-23 + 1e-5, 1e-6, Scales,
                        size_t(4) * I);
  }
  return Msg;
}
} // namespace

Workload makeNBody(const Sizes &S) {
  int N = S.NBodyN;
  std::vector<float> Pos = randomFloats(size_t(4) * N, -1, 1, 71);
  for (int I = 0; I < N; ++I)
    Pos[4 * I + 3] = 0.5f + 0.25f * (Pos[4 * I + 3] + 1); // mass in [0.5, 1)
  Workload W;
  W.Name = "nbody";
  W.Kernel = "nbody";
  W.Buffers = {{"accel",
                std::vector<unsigned char>(size_t(N) * 4 * sizeof(float)),
                false},
               {"pos", toBytes(Pos), false}};
  W.Args = {KernelArg::buffer(0), KernelArg::buffer(1), KernelArg::i32(N),
            KernelArg::f32(Eps2)};
  W.Block = {256};
  W.Grid = {unsigned(N / 256)};
  W.Check = check;
  return W;
}

} // namespace bench
