// Kernels that fault, and one that does not, for FaultTest.cpp.
extern "C" __global__ void writeNull(int *Out, int Thread) {
  if (threadIdx.x == unsigned(Thread))
    *(volatile int *)nullptr = 1;
  Out[threadIdx.x] = 1;
}

extern "C" __global__ void writeFar(int *Out, long long Offset) {
  if (threadIdx.x == 5)
    Out[Offset] = 7;
}

extern "C" __global__ void divide(int *Out, int Divisor) {
  __syncthreads();
  Out[threadIdx.x] = int(threadIdx.x + 100) / Divisor;
}

extern "C" __global__ void fill(int *Out, int Value) {
  Out[blockIdx.x * blockDim.x + threadIdx.x] = Value;
}

extern "C" __global__ void spin(volatile int *Flag) {
  while (*Flag == 0) {
  }
}

/// One thread writes one element past the end of Out (CUCPU_MEMCHECK).
extern "C" __global__ void writePastEnd(int *Out, int Count) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I == Count - 1)
    Out[I + 1] = 7;
  else if (I < Count)
    Out[I] = 1;
}

/// Thread 3 writes dynamic shared memory at Index (CUCPU_MEMCHECK).
extern "C" __global__ void sharedAt(int *Out, int Index) {
  extern __shared__ int Dynamic[];
  Dynamic[threadIdx.x] = threadIdx.x;
  __syncthreads();
  if (threadIdx.x == 3)
    Dynamic[Index] = 1;
  __syncthreads();
  Out[threadIdx.x] = Dynamic[threadIdx.x];
}
