// A runtime program whose kernel has a barrier and a shared-memory atomic:
// tests/debugging prints how it is lowered with CUCPU_DEBUG=dump-ir.
#include <cstdio>

__global__ void reverse(int *Data, int *Count) {
  __shared__ int Tile[64];
  __shared__ int Seen;
  if (threadIdx.x == 0)
    Seen = 0;
  Tile[threadIdx.x] = Data[threadIdx.x];
  __syncthreads();
  atomicAdd(&Seen, 1);
  Data[threadIdx.x] = Tile[blockDim.x - 1 - threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0)
    *Count = Seen;
}

int main() {
  const int N = 64;
  int *Data = nullptr, *Count = nullptr;
  if (cudaMallocManaged(&Data, N * sizeof(int)) != cudaSuccess ||
      cudaMallocManaged(&Count, sizeof(int)) != cudaSuccess)
    return 1;
  for (int I = 0; I < N; ++I)
    Data[I] = I;
  reverse<<<1, N>>>(Data, Count);
  if (cudaDeviceSynchronize() != cudaSuccess)
    return 1;
  bool Ok = *Count == N;
  for (int I = 0; I < N; ++I)
    Ok &= Data[I] == N - 1 - I;
  std::printf("%s\n", Ok ? "PASSED" : "FAILED");
  return Ok ? 0 : 1;
}
