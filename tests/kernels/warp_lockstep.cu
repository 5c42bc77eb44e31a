// Warp-synchronous legacy idioms: code that relies on the implicit lockstep
// of a converged warp (no __syncwarp) through volatile shared memory. On an
// NVIDIA GPU each volatile load or store of such code completes for every
// active lane of the warp before the next one starts: in `S[T] += S[T - D]`
// all active lanes load S[T - D] and S[T] before any lane stores S[T]. A warp
// is 32 consecutive linear thread ids (threadIdx.y * blockDim.x + threadIdx.x
// in 2D blocks); the last warp of a block may be partial. Covered: the
// classic block reduction whose last 64 values one warp sums (int, float,
// double, a struct reduced field by field), the same finished by half a warp,
// per-warp sums by lanes below 16 with a partial last warp, a Hillis-Steele
// inclusive scan within each warp and broadcasts through shared memory.

#define LINEAR_TID (threadIdx.y * blockDim.x + threadIdx.x)
#define BLOCK_SIZE (blockDim.x * blockDim.y)

struct Pair {
  int A;
  float B;
};

// The warp part of the classic reduction: 64 values to one in S[0].
template <typename T> __device__ void warpReduce(volatile T *S, unsigned Tid) {
  S[Tid] += S[Tid + 32];
  S[Tid] += S[Tid + 16];
  S[Tid] += S[Tid + 8];
  S[Tid] += S[Tid + 4];
  S[Tid] += S[Tid + 2];
  S[Tid] += S[Tid + 1];
}

// The same for a struct, field by field through a volatile struct pointer.
__device__ void warpReducePair(volatile Pair *S, unsigned Tid) {
  for (unsigned D = 32; D > 0; D >>= 1) {
    S[Tid].A += S[Tid + D].A;
    S[Tid].B += S[Tid + D].B;
  }
}

// Classic block reduction (block sizes 64, 128, 256, 1D or 2D): a tree with
// __syncthreads down to 64 values, then warp 0 alone without a barrier.
template <typename T> __device__ void blockReduce(const T *In, T *Out, T *Data) {
  unsigned Tid = LINEAR_TID, N = BLOCK_SIZE;
  Data[Tid] = In[blockIdx.x * N + Tid];
  __syncthreads();
  for (unsigned S = N / 2; S > 32; S >>= 1) {
    if (Tid < S)
      Data[Tid] += Data[Tid + S];
    __syncthreads();
  }
  if (Tid < 32)
    warpReduce<T>(Data, Tid);
  if (Tid == 0)
    Out[blockIdx.x] = Data[0];
}

extern "C" __global__ void reduceInt(const int *In, int *Out) {
  __shared__ int Data[256];
  blockReduce<int>(In, Out, Data);
}

extern "C" __global__ void reduceFloat(const float *In, float *Out) {
  __shared__ float Data[256];
  blockReduce<float>(In, Out, Data);
}

extern "C" __global__ void reduceDouble(const double *In, double *Out) {
  __shared__ double Data[256];
  blockReduce<double>(In, Out, Data);
}

// Field A sums InA, field B sums InB.
extern "C" __global__ void reducePair(const int *InA, const float *InB, int *OutA,
                                      float *OutB) {
  __shared__ Pair Data[256];
  unsigned Tid = LINEAR_TID, N = BLOCK_SIZE;
  Data[Tid].A = InA[blockIdx.x * N + Tid];
  Data[Tid].B = InB[blockIdx.x * N + Tid];
  __syncthreads();
  for (unsigned S = N / 2; S > 32; S >>= 1) {
    if (Tid < S) {
      Data[Tid].A += Data[Tid + S].A;
      Data[Tid].B += Data[Tid + S].B;
    }
    __syncthreads();
  }
  if (Tid < 32)
    warpReducePair(Data, Tid);
  if (Tid == 0) {
    OutA[blockIdx.x] = Data[0].A;
    OutB[blockIdx.x] = Data[0].B;
  }
}

// The tree goes down to 16 values; then only half of warp 0 (Tid < 16) runs
// the volatile steps 8, 4, 2, 1 while lanes 16-31 sit idle.
extern "C" __global__ void reduceHalfWarp(const int *In, int *Out) {
  __shared__ int Data[256];
  unsigned Tid = LINEAR_TID, N = BLOCK_SIZE;
  Data[Tid] = In[blockIdx.x * N + Tid];
  __syncthreads();
  for (unsigned S = N / 2; S >= 16; S >>= 1) {
    if (Tid < S)
      Data[Tid] += Data[Tid + S];
    __syncthreads();
  }
  if (Tid < 16) {
    volatile int *V = Data;
    V[Tid] += V[Tid + 8];
    V[Tid] += V[Tid + 4];
    V[Tid] += V[Tid + 2];
    V[Tid] += V[Tid + 1];
  }
  if (Tid == 0)
    Out[blockIdx.x] = Data[0];
}

// Per-warp sums of In: after a zeroed padding (the only barrier), each warp
// stores its values and lanes 0-15 fold them with the volatile steps 16, 8,
// 4, 2, 1; lane 0 writes the warp's sum to Out[block * warps + warp]. Block
// sizes that are not multiples of 32 leave a partial last warp, whose lanes
// read the zeros past the block.
extern "C" __global__ void warpSumsPartial(const int *In, int *Out) {
  __shared__ int Data[256 + 32];
  unsigned Tid = LINEAR_TID, N = BLOCK_SIZE, Lane = Tid % 32;
  unsigned Warps = (N + 31) / 32;
  for (unsigned K = Tid; K < 256 + 32; K += N)
    Data[K] = 0;
  __syncthreads();
  volatile int *V = Data;
  V[Tid] = In[blockIdx.x * N + Tid];
  if (Lane < 16) {
    V[Tid] += V[Tid + 16];
    V[Tid] += V[Tid + 8];
    V[Tid] += V[Tid + 4];
    V[Tid] += V[Tid + 2];
    V[Tid] += V[Tid + 1];
  }
  if (Lane == 0)
    Out[blockIdx.x * Warps + Tid / 32] = V[Tid];
}

// Inclusive scan within each warp (Hillis-Steele, the loads and the store of
// each step in one statement): Out[g] = the sum of In over the warp's lanes
// up to g's.
template <typename T> __device__ void warpScan(const T *In, T *Out, T *Data) {
  unsigned Tid = LINEAR_TID, Lane = Tid % 32;
  unsigned G = blockIdx.x * BLOCK_SIZE + Tid;
  volatile T *S = Data;
  S[Tid] = In[G];
  if (Lane >= 1)
    S[Tid] += S[Tid - 1];
  if (Lane >= 2)
    S[Tid] += S[Tid - 2];
  if (Lane >= 4)
    S[Tid] += S[Tid - 4];
  if (Lane >= 8)
    S[Tid] += S[Tid - 8];
  if (Lane >= 16)
    S[Tid] += S[Tid - 16];
  Out[G] = S[Tid];
}

extern "C" __global__ void scanInt(const int *In, int *Out) {
  __shared__ int Data[256];
  warpScan<int>(In, Out, Data);
}

extern "C" __global__ void scanFloat(const float *In, float *Out) {
  __shared__ float Data[256];
  warpScan<float>(In, Out, Data);
}

// Broadcasts through volatile shared memory, one slot per warp and no sync:
// lane 0 stores its In, every lane reads it (OutFirst); then the warp's last
// lane stores twice its In into the same slot and every lane reads it again
// (OutLast).
extern "C" __global__ void broadcast(const int *In, int *OutFirst, int *OutLast) {
  __shared__ int Slot[8];
  unsigned Tid = LINEAR_TID, N = BLOCK_SIZE, Lane = Tid % 32, Warp = Tid / 32;
  unsigned G = blockIdx.x * N + Tid;
  unsigned Last = N - Warp * 32 > 32 ? 31 : N - Warp * 32 - 1;
  volatile int *S = Slot;
  if (Lane == 0)
    S[Warp] = In[G];
  int First = S[Warp];
  if (Lane == Last)
    S[Warp] = 2 * In[G];
  OutFirst[G] = First;
  OutLast[G] = S[Warp];
}
