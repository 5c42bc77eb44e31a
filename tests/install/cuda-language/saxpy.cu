// The device half of the cuda-language test: a kernel and its launch.
#include "saxpy.h"

__global__ void saxpyKernel(int N, float A, const float *X, float *Y) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Y[I] = A * X[I] + Y[I];
}

cudaError_t saxpy(int N, float A, const float *X, float *Y) {
  saxpyKernel<<<(N + 255) / 256, 256>>>(N, A, X, Y);
  return cudaGetLastError();
}
