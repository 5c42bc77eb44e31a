// The two-stream example of the CUDA C++ Programming Guide (§3.2.5.5,
// Streams) made a whole program: page-locked host memory, per stream a copy
// to the device, a kernel and a copy back, then a check. Built by cucc.
#include <cstdio>

__global__ void MyKernel(float *output, const float *input, int size) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < size;
       i += gridDim.x * blockDim.x)
    output[i] = 2 * input[i] + 1;
}

int main() {
  const int size = 1 << 16; // elements per stream
  cudaStream_t stream[2];
  for (int i = 0; i < 2; ++i)
    cudaStreamCreate(&stream[i]);
  float *hostPtr;
  cudaMallocHost(&hostPtr, 2 * size * sizeof(float));
  for (int i = 0; i < 2 * size; ++i)
    hostPtr[i] = float(i % 1000);
  float *inputDevPtr, *outputDevPtr;
  cudaMalloc(&inputDevPtr, 2 * size * sizeof(float));
  cudaMalloc(&outputDevPtr, 2 * size * sizeof(float));

  for (int i = 0; i < 2; ++i) {
    cudaMemcpyAsync(inputDevPtr + i * size, hostPtr + i * size,
                    size * sizeof(float), cudaMemcpyHostToDevice, stream[i]);
    MyKernel<<<100, 512, 0, stream[i]>>>(outputDevPtr + i * size,
                                         inputDevPtr + i * size, size);
    cudaMemcpyAsync(hostPtr + i * size, outputDevPtr + i * size,
                    size * sizeof(float), cudaMemcpyDeviceToHost, stream[i]);
  }
  cudaDeviceSynchronize();
  if (cudaError_t E = cudaGetLastError()) {
    printf("streamsRuntime: %s\n", cudaGetErrorString(E));
    return 1;
  }
  int errors = 0;
  for (int i = 0; i < 2 * size; ++i)
    if (hostPtr[i] != 2 * float(i % 1000) + 1 && ++errors <= 5)
      printf("hostPtr[%d] = %g, expected %g\n", i, hostPtr[i],
             2 * float(i % 1000) + 1);
  for (int i = 0; i < 2; ++i)
    cudaStreamDestroy(stream[i]);
  cudaFree(inputDevPtr);
  cudaFree(outputDevPtr);
  cudaFreeHost(hostPtr);
  printf("streamsRuntime: 2 streams of %d elements, %d mismatches\n", size,
         errors);
  if (errors)
    return 1;
  printf("PASSED\n");
  return 0;
}
