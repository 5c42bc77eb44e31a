// The host half of the cuda-language test, compiled by the C++ compiler:
// copies the inputs to the device, runs saxpy.cu's kernel, checks the result
// and prints PASSED.
#include "saxpy.h"

#include <cstdio>
#include <vector>

#define CHECK(Call)                                                            \
  do {                                                                         \
    cudaError_t Err = (Call);                                                  \
    if (Err != cudaSuccess) {                                                  \
      std::printf("%s failed: %s\n", #Call, cudaGetErrorString(Err));          \
      return 1;                                                                \
    }                                                                          \
  } while (0)

int main() {
  const int N = 10000;
  std::vector<float> X(N), Y(N);
  for (int I = 0; I < N; ++I) {
    X[I] = float(I);
    Y[I] = 1.0f;
  }
  int Runtime = 0;
  CHECK(cudaRuntimeGetVersion(&Runtime));
  float *DX = nullptr, *DY = nullptr;
  CHECK(cudaMalloc(&DX, N * sizeof(float)));
  CHECK(cudaMalloc(&DY, N * sizeof(float)));
  CHECK(cudaMemcpy(DX, X.data(), N * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(DY, Y.data(), N * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(saxpy(N, 2.0f, DX, DY));
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(Y.data(), DY, N * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(DX));
  CHECK(cudaFree(DY));
  for (int I = 0; I < N; ++I) {
    if (Y[I] != 2.0f * float(I) + 1.0f) {
      std::printf("Y[%d] = %g, expected %g\nFAILED\n", I, double(Y[I]),
                  2.0 * I + 1.0);
      return 1;
    }
  }
  std::printf("runtime %d, saxpy of %d elements\nPASSED\n", Runtime, N);
  return 0;
}
