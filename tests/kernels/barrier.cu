// __syncthreads: in straight-line code, in loops, with exited threads, and
// its _count form; static and dynamic shared memory.
extern "C" __global__ void reverse(int *Data) {
  __shared__ int Tile[128];
  int Base = blockIdx.x * blockDim.x;
  Tile[threadIdx.x] = Data[Base + threadIdx.x];
  __syncthreads();
  Data[Base + threadIdx.x] = Tile[blockDim.x - 1 - threadIdx.x];
}

extern "C" __global__ void blockSum(const int *In, int *Sums) {
  __shared__ int Partial[256];
  unsigned T = threadIdx.x;
  Partial[T] = In[blockIdx.x * blockDim.x + T];
  __syncthreads();
  for (unsigned Stride = blockDim.x / 2; Stride > 0; Stride /= 2) {
    if (T < Stride)
      Partial[T] += Partial[T + Stride];
    __syncthreads();
  }
  if (T == 0)
    Sums[blockIdx.x] = Partial[0];
}

extern "C" __global__ void earlyExit(int *Out) {
  __shared__ int Values[64];
  unsigned T = threadIdx.x;
  if (T >= 32)
    return; // Exited threads count as arrived at the barriers below.
  Values[T] = T + 1;
  __syncthreads();
  Out[blockIdx.x * blockDim.x + T] = Values[T];
}

extern "C" __global__ void countOdd(int *Out) {
  int Count = __syncthreads_count(threadIdx.x % 2);
  Out[threadIdx.x] = Count;
}

extern "C" __global__ void dynShared(int *Out) {
  extern __shared__ int Scratch[];
  Scratch[threadIdx.x] = threadIdx.x;
  __syncthreads();
  Out[blockIdx.x * blockDim.x + threadIdx.x] = Scratch[blockDim.x - 1 - threadIdx.x];
}
