// The host half of a two-file program built by cucc (program_kernel.cu has
// the kernel): plain C++, compiled by the host compiler, using only
// <cuda_runtime.h>. Prints PASSED when the kernel ran on every element.
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

int addOneOnDevice(int *Data, int N);

int main() {
  const int N = 1000;
  std::vector<int> Host(N);
  for (int I = 0; I < N; ++I)
    Host[I] = I;
  int *Device = nullptr;
  if (cudaMalloc(&Device, N * sizeof(int)) != cudaSuccess ||
      cudaMemcpy(Device, Host.data(), N * sizeof(int),
                 cudaMemcpyHostToDevice) != cudaSuccess) {
    std::printf("FAILED: cudaMalloc/cudaMemcpy\n");
    return 1;
  }
  int Launches = addOneOnDevice(Device, N);
  if (Launches != 1) {
    std::printf("FAILED: the kernel ran %d times\n", Launches);
    return 1;
  }
  if (cudaMemcpy(Host.data(), Device, N * sizeof(int),
                 cudaMemcpyDeviceToHost) != cudaSuccess) {
    std::printf("FAILED: cudaMemcpy back\n");
    return 1;
  }
  for (int I = 0; I < N; ++I)
    if (Host[I] != I + 1) {
      std::printf("FAILED: element %d is %d, not %d\n", I, Host[I], I + 1);
      return 1;
    }
  cudaFree(Device);
  std::printf("PASSED\n");
  return 0;
}
