// With rdc_main.cu: the __device__ function and variable it uses.
__device__ int bias;
__device__ int scale(int x) { return 3 * x; }
__global__ void twice(int *p) { p[threadIdx.x] = 2 * scale(threadIdx.x); }
void launchTwice(int *p) {
  twice<<<1, 32>>>(p);
  cudaDeviceSynchronize();
}
