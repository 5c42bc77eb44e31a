// cmakeHistogram's kernel: each block counts into shared memory with shared
// atomics, then adds its counts to the global bins.
#include "histogram.h"

__global__ void histogramKernel(const unsigned char *Data, int N,
                                unsigned *Bins) {
  __shared__ unsigned Local[256];
  for (int I = threadIdx.x; I < 256; I += blockDim.x)
    Local[I] = 0;
  __syncthreads();
  for (int I = blockIdx.x * blockDim.x + threadIdx.x; I < N;
       I += gridDim.x * blockDim.x)
    atomicAdd(&Local[Data[I]], 1u);
  __syncthreads();
  for (int I = threadIdx.x; I < 256; I += blockDim.x)
    atomicAdd(&Bins[I], Local[I]);
}

cudaError_t histogram256(const unsigned char *Data, int N, unsigned *Bins) {
  cudaError_t E = cudaMemset(Bins, 0, 256 * sizeof(unsigned));
  if (E != cudaSuccess)
    return E;
  histogramKernel<<<32, 256>>>(Data, N, Bins);
  return cudaGetLastError();
}
