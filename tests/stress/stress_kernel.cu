// Kernels of the multi-threaded stress test.
extern "C" __global__ void addValue(int *Data, int N, int Value) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Data[I] += Value;
}

extern "C" __global__ void fill(int *Data, int N, int Base) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Data[I] = Base + I;
}
