// A runtime program whose kernel tests/debugging stops in with gdb.
#include <cstdio>

__device__ float twice(float X) { return 2 * X; }

__global__ void scale(float *Data, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N) {
    float Before = Data[I];
    Data[I] = twice(Before); // line 10: the breakpoint
  }
}

int main() {
  const int N = 64;
  float *Data = nullptr;
  if (cudaMallocManaged(&Data, N * sizeof(float)) != cudaSuccess)
    return 1;
  for (int I = 0; I < N; ++I)
    Data[I] = float(I);
  scale<<<2, 32>>>(Data, N);
  if (cudaDeviceSynchronize() != cudaSuccess)
    return 1;
  std::printf("Data[37] = %g\n", Data[37]);
  return Data[37] == 74.0f ? 0 : 1;
}
