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

/// Recursion \p Depth calls deep with a local array in every frame: far
/// deeper than any stack (the frames cannot be merged into a loop).
__device__ int recurse(int Depth, volatile int *Out) {
  volatile int Local[64];
  Local[Depth & 63] = Depth;
  if (Depth == 0)
    return Local[0];
  int Below = recurse(Depth - 1, Out);
  return Below * 3 - Local[(Depth * 7) & 63] + Out[0];
}

extern "C" __global__ void overflowStack(int *Out, int Depth) {
  Out[threadIdx.x] = recurse(Depth + int(threadIdx.x), Out);
}

/// Like recurse, with frames of 2 MiB: each is larger than the guard page
/// below a stack and than the reach of the overflow test, so only stack
/// probes make the first frame that does not fit meet the guard.
__device__ int recurseLarge(int Depth, volatile int *Out) {
  volatile int Local[1 << 19];
  Local[Depth & 1023] = Depth;
  if (Depth == 0)
    return Local[0];
  int Below = recurseLarge(Depth - 1, Out);
  return Below * 3 - Local[(Depth * 7) & 1023] + Out[0];
}

extern "C" __global__ void overflowStackLarge(int *Out, int Depth) {
  Out[threadIdx.x] = recurseLarge(Depth + int(threadIdx.x), Out);
}

/// The sum of Out[0..63] into Out[0], the last steps done by the first warp
/// (CUCPU_SYNCCHECK): through volatile shared memory alone when \p Ordered
/// is 0 (relying on implicit warp synchrony), with __syncwarp() between
/// each read and write when it is 1 (as CUDA asks). Every thread of block
/// 0's second warp also reads a word the first warp writes when \p Race is
/// 1: a race, no barrier between.
extern "C" __global__ void warpSum(int *Out, int Ordered, int Race) {
  __shared__ int Sums[64];
  unsigned T = threadIdx.x;
  Sums[T] = Out[T];
  __syncthreads();
  if (T < 32) {
    volatile int *S = Sums;
    for (int Step = 32; Step > 0; Step /= 2) {
      int Mine = S[T] + S[T + Step];
      if (Ordered)
        __syncwarp();
      S[T] = Mine;
      if (Ordered)
        __syncwarp();
    }
  } else if (Race) {
    Out[T] = Sums[0];
  }
  __syncthreads();
  if (T == 0)
    Out[0] = Sums[0];
}

/// Thread 2 copies Bytes bytes from Source (a copy of unknown size, which
/// the code generator makes a call to the runtime's memcpy).
extern "C" __global__ void copyFrom(int *Out, long long Source, int Bytes) {
  if (threadIdx.x == 2)
    memcpy(Out, reinterpret_cast<const void *>(Source), Bytes);
}

/// Thread 2 sets Bytes bytes at Target (a call to the runtime's memset).
extern "C" __global__ void setAt(long long Target, int Bytes) {
  if (threadIdx.x == 2)
    memset(reinterpret_cast<void *>(Target), 0x5a, Bytes);
}

/// Every thread reads texel threadIdx.x of the texture object Texture.
extern "C" __global__ void fetchTexel(unsigned long long Texture, float *Out) {
  Out[threadIdx.x] = tex1Dfetch<float>(Texture, threadIdx.x);
}

/// Thread 2 frees Pointer, which device malloc did not return.
extern "C" __global__ void freeForeign(long long Pointer) {
  if (threadIdx.x == 2)
    free(reinterpret_cast<void *>(Pointer));
}

/// Thread 2 frees a block twice (its address stored, so that the compiler
/// keeps the allocation).
extern "C" __global__ void freeTwice(long long *Out) {
  if (threadIdx.x == 2) {
    void *P = malloc(64);
    Out[0] = reinterpret_cast<long long>(P);
    free(P);
    free(P);
  }
}

/// Thread 0 allocates a block, stores its address and frees it.
extern "C" __global__ void mallocAndFree(long long *Out) {
  if (threadIdx.x == 0) {
    void *P = malloc(16);
    Out[0] = reinterpret_cast<long long>(P);
    free(P);
  }
}
