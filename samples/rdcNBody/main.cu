// rdcNBody: a whole program in two .cu files linked with relocatable device
// code (cucc -rdc=true, as nvcc -rdc=true): the kernel here calls
// pairForce() and reads Softening, both defined in forces.cu. It computes
// one step of an n-body force sum on the device and on the host, and prints
// PASSED when they agree.
#include "forces.h"

#include <cmath>
#include <cstdio>
#include <vector>

__global__ void accelerations(const float3 *Pos, float3 *Acc, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I >= N)
    return;
  float3 Sum = make_float3(0, 0, 0);
  for (int J = 0; J < N; ++J) {
    float3 F = pairForce(Pos[I], Pos[J]);
    Sum.x += F.x;
    Sum.y += F.y;
    Sum.z += F.z;
  }
  Acc[I] = Sum;
}

int main() {
  const int N = 512;
  std::vector<float3> Pos(N), Acc(N);
  for (int I = 0; I < N; ++I)
    Pos[I] =
        make_float3(std::sin(0.7f * I), std::cos(1.3f * I), 0.001f * I - 0.25f);
  float3 *DPos = nullptr, *DAcc = nullptr;
  if (cudaMalloc(&DPos, N * sizeof(float3)) != cudaSuccess ||
      cudaMalloc(&DAcc, N * sizeof(float3)) != cudaSuccess) {
    std::printf("cudaMalloc failed\n");
    return 1;
  }
  cudaMemcpy(DPos, Pos.data(), N * sizeof(float3), cudaMemcpyHostToDevice);
  float Soft = 0;
  cudaMemcpyFromSymbol(&Soft, Softening, sizeof(float));
  accelerations<<<(N + 127) / 128, 128>>>(DPos, DAcc, N);
  cudaError_t E =
      cudaMemcpy(Acc.data(), DAcc, N * sizeof(float3), cudaMemcpyDeviceToHost);
  if (E != cudaSuccess) {
    std::printf("the kernel failed: %s\n", cudaGetErrorString(E));
    return 1;
  }
  double MaxError = 0;
  for (int I = 0; I < N; ++I) {
    double S[3] = {0, 0, 0};
    for (int J = 0; J < N; ++J) {
      double D[3] = {Pos[J].x - Pos[I].x, Pos[J].y - Pos[I].y,
                     Pos[J].z - Pos[I].z};
      double R2 = D[0] * D[0] + D[1] * D[1] + D[2] * D[2] + Soft;
      double Inv3 = 1 / (R2 * std::sqrt(R2));
      for (int K = 0; K < 3; ++K)
        S[K] += D[K] * Inv3;
    }
    double Got[3] = {Acc[I].x, Acc[I].y, Acc[I].z};
    for (int K = 0; K < 3; ++K)
      MaxError = std::fmax(MaxError, std::fabs(Got[K] - S[K]) /
                                         std::fmax(1.0, std::fabs(S[K])));
  }
  cudaFree(DPos);
  cudaFree(DAcc);
  std::printf("softening %g (from forces.cu), largest relative error %.2e\n",
              Soft, MaxError);
  bool Ok = Soft == 0.01f && MaxError < 1e-3;
  std::printf("%s\n", Ok ? "PASSED" : "FAILED");
  return Ok ? 0 : 1;
}
