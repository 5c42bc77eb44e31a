// 256-bin histogram of bytes: each block counts its grid-stride share into a
// shared histogram with atomicAdd, then adds it to the global one.
#define BINS 256

extern "C" __global__ void histogram(const unsigned char *data,
                                     unsigned int *bins, int n) {
  __shared__ unsigned int local[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x)
    local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += blockDim.x)
    atomicAdd(&bins[b], local[b]);
}
