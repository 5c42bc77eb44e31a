// Kernels for the seeds' §4.5.3 examples (see legacyDriver.cpp).

/// 32 bytes passed by value, as the seeds' char data[32] parameter.
struct Data32 {
  char Bytes[32];
};

__device__ int ResultInt;
__device__ float ResultFloat;
__device__ char ResultData[32];
__device__ float ResultShared;

// §4.5.3.5: an int, a float and 32 bytes of parameters, and dynamic shared
// memory of numElements floats.
extern "C" __global__ void myKernel(int I, float F, Data32 D) {
  extern __shared__ float Scratch[];
  unsigned T = threadIdx.x + blockDim.x * threadIdx.y;
  Scratch[T] = F * T;
  __syncthreads();
  if (T == 0 && blockIdx.x == 0 && blockIdx.y == 0) {
    float Sum = 0;
    for (unsigned K = 0; K < blockDim.x * blockDim.y; ++K)
      Sum += Scratch[K];
    ResultInt = I;
    ResultFloat = F;
    for (int K = 0; K < 32; ++K)
      ResultData[K] = D.Bytes[K];
    ResultShared = Sum;
  }
}

// §4.5.3.6: a kernel walking pitched memory row by row.
extern "C" __global__ void myKernel2(float *DevPtr, unsigned Pitch, int Width,
                                     int Height) {
  int C = blockIdx.x * blockDim.x + threadIdx.x;
  if (C >= Width)
    return;
  for (int R = 0; R < Height; ++R) {
    float *Row = (float *)((char *)DevPtr + R * Pitch);
    Row[C] = R * 1000.0f + C;
  }
}

// The observed NVIDIA row: k(int *out, int a, float f, char c).
extern "C" __global__ void probe(int *Out, int A, float F, char C) {
  if (threadIdx.x + threadIdx.y + threadIdx.z + blockIdx.x + blockIdx.y != 0)
    return;
  Out[0] = A;
  Out[1] = (int)(F * 1000);
  Out[2] = C;
  Out[3] = blockDim.x;
  Out[4] = blockDim.y;
  Out[5] = blockDim.z;
  Out[6] = gridDim.x;
  Out[7] = gridDim.y;
  Out[8] = gridDim.z;
}
