// __syncthreads inside loops and branches that are uniform across the
// block, with exited threads, and its _count/_and/_or forms.

// Inclusive Hillis-Steele scan of In within each block: a barrier in a loop.
extern "C" __global__ void scan(const int *In, int *Out) {
  __shared__ int Buf[256];
  unsigned T = threadIdx.x, G = blockIdx.x * blockDim.x + T;
  Buf[T] = In[G];
  __syncthreads();
  for (unsigned Offset = 1; Offset < blockDim.x; Offset *= 2) {
    int V = T >= Offset ? Buf[T - Offset] : 0;
    __syncthreads();
    Buf[T] += V;
    __syncthreads();
  }
  Out[G] = Buf[T];
}

// Barriers in a branch taken by whole blocks (odd blocks rotate their tile
// by one, even blocks by Rounds), inside a loop whose trip count is a kernel
// argument.
extern "C" __global__ void uniformBranch(int *Data, int Rounds) {
  __shared__ int Tile[64];
  unsigned T = threadIdx.x, G = blockIdx.x * blockDim.x + T;
  Tile[T] = Data[G];
  __syncthreads();
  if (blockIdx.x % 2) {
    int V = Tile[(T + 1) % 64];
    __syncthreads();
    Tile[T] = V;
    __syncthreads();
  } else {
    for (int R = 0; R < Rounds; ++R) {
      int V = Tile[(T + 1) % 64];
      __syncthreads();
      Tile[T] = V;
      __syncthreads();
    }
  }
  Data[G] = Tile[T];
}

// Threads past N leave before barriers in a loop; the rest keep going.
extern "C" __global__ void exitThenLoop(int *Out, int N) {
  __shared__ int Sum[1];
  unsigned T = threadIdx.x;
  if (T == 0)
    Sum[0] = 0;
  __syncthreads();
  if (T >= N)
    return;
  for (int K = 0; K < 4; ++K) {
    atomicAdd(&Sum[0], 1);
    __syncthreads();
    Out[blockIdx.x * blockDim.x + T] = Sum[0];
    __syncthreads();
  }
}

// __syncthreads_and/_or/_count in a 3D block: bit 0 and(1), bit 1 and(one
// thread false), bit 2 or(one thread true), bit 3 or(0); count in the upper
// bits.
extern "C" __global__ void votes(int *Out) {
  unsigned T =
      threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  int A = __syncthreads_and(1);
  int B = __syncthreads_and(T != 5);
  int C = __syncthreads_or(T == 77);
  int D = __syncthreads_or(0);
  int N = __syncthreads_count(T % 3 == 0);
  Out[blockIdx.x * blockDim.x * blockDim.y * blockDim.z + T] =
      (A != 0) | (B != 0) << 1 | (C != 0) << 2 | (D != 0) << 3 | N << 4;
}

// Static and dynamic shared memory together: they must not overlap.
extern "C" __global__ void staticAndDynamic(int *Out) {
  __shared__ int Static[64];
  extern __shared__ double Dynamic[];
  unsigned T = threadIdx.x;
  Static[T] = T;
  Dynamic[T] = 1000.0 + T;
  __syncthreads();
  Out[blockIdx.x * 64 + T] = Static[63 - T] + (int)Dynamic[63 - T];
}

// 1024 threads, a 32x8x4 block: sum reduction over the block.
extern "C" __global__ void bigBlock(const int *In, int *Out) {
  __shared__ int Partial[1024];
  unsigned T = threadIdx.x + 32 * (threadIdx.y + 8 * threadIdx.z);
  Partial[T] = In[blockIdx.x * 1024 + T];
  __syncthreads();
  for (unsigned Stride = 512; Stride > 0; Stride /= 2) {
    if (T < Stride)
      Partial[T] += Partial[T + Stride];
    __syncthreads();
  }
  if (T == 0)
    Out[blockIdx.x] = Partial[0];
}

// Out[t] = In[63 - t] + t: thread t waits in __nanosleep (longer for lower
// t) after writing its own slot, then reads its mirror's after a barrier.
extern "C" __global__ void nanosleepThenSync(const int *In, int *Out) {
  __shared__ int Slot[64];
  int T = threadIdx.x;
  Slot[T] = In[T];
  __nanosleep(64u * (64 - T));
  __syncthreads();
  Out[T] = Slot[63 - T] + T;
}
