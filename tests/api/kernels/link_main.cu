// Relocatable device code of LinkTest.cpp (compiled with -rdc=true): the
// kernel calls a function and reads a variable that link_lib.cu defines.
// cucc builds it for cucpu, nvcc -cubin -rdc=true for NVIDIA's driver.

extern __device__ int scale(int X);
extern __device__ int offset;

/// A constant of this image, to show that both images' data survive.
__constant__ int bias = 7;

/// Out[I] = scale(I) + offset + bias for the first N elements.
extern "C" __global__ void applyScale(int *Out, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = scale(I) + offset + bias;
}
