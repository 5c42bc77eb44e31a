// cmakeHistogram: host C++ (compiled by the C++ compiler, not cucc) that
// calls the device code of histogram.cu and checks its counts on the host.
#include "histogram.h"

#include <cstdio>
#include <vector>

int main() {
  const int N = 1 << 20;
  std::vector<unsigned char> Data(N);
  unsigned Seed = 12345;
  std::vector<unsigned> Expected(256, 0);
  for (int I = 0; I < N; ++I) {
    Seed = Seed * 1103515245u + 12345u;
    Data[I] = static_cast<unsigned char>(Seed >> 16);
    ++Expected[Data[I]];
  }
  unsigned char *DData = nullptr;
  unsigned *DBins = nullptr;
  if (cudaMalloc(&DData, N) != cudaSuccess ||
      cudaMalloc(&DBins, 256 * sizeof(unsigned)) != cudaSuccess) {
    std::printf("cudaMalloc failed\nFAILED\n");
    return 1;
  }
  cudaMemcpy(DData, Data.data(), N, cudaMemcpyHostToDevice);
  cudaError_t E = histogram256(DData, N, DBins);
  std::vector<unsigned> Bins(256, 0);
  if (E == cudaSuccess)
    E = cudaMemcpy(Bins.data(), DBins, 256 * sizeof(unsigned),
                   cudaMemcpyDeviceToHost);
  cudaFree(DData);
  cudaFree(DBins);
  if (E != cudaSuccess) {
    std::printf("%s\nFAILED\n", cudaGetErrorString(E));
    return 1;
  }
  for (int B = 0; B < 256; ++B)
    if (Bins[B] != Expected[B]) {
      std::printf("bin %d: %u, expected %u\nFAILED\n", B, Bins[B], Expected[B]);
      return 1;
    }
  std::printf("256 bins of %d bytes agree with the host's\nPASSED\n", N);
  return 0;
}
