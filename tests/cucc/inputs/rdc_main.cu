// With rdc_lib.cu: relocatable device code across two files (-rdc=true).
// A kernel here calls a __device__ function and reads a __device__ variable
// that rdc_lib.cu defines; rdc_lib.cu launches its own kernel too.
#include <cstdio>

extern __device__ int scale(int);
extern __device__ int bias;
__global__ void scaleAndBias(int *p) {
  p[threadIdx.x] = scale(threadIdx.x) + bias;
}
void launchTwice(int *p);

int main() {
  int *d = nullptr;
  cudaMalloc(&d, 32 * sizeof(int));
  int b = 100;
  cudaMemcpyToSymbol(bias, &b, sizeof b);
  scaleAndBias<<<1, 32>>>(d);
  int h[32];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  launchTwice(d);
  int h2[32];
  cudaMemcpy(h2, d, sizeof h2, cudaMemcpyDeviceToHost);
  int errors = 0;
  for (int i = 0; i < 32; ++i)
    errors += (h[i] != 3 * i + 100) + (h2[i] != 6 * i);
  if (cudaGetLastError() != cudaSuccess || errors)
    return 1;
  printf("PASSED\n");
  return 0;
}
