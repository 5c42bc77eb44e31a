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
