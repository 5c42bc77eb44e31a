// Loops whose trip count differs between the threads of a block, followed by
// __syncthreads: a thread that leaves a loop early (break, continue past its
// last iteration, a per-thread bound, return) must not run the loop body
// again, and must still meet the others at the barrier with its own values.
// Covered: break out of a counted loop with a data-dependent condition,
// continue in a counted and in a while loop, per-thread trip counts (Collatz
// steps) followed by a shared-memory exchange, a barrier in a uniform outer
// loop around a divergent inner loop with break, and threads that return
// before a barrier. Each kernel takes 1D and 2D blocks (linear thread ids)
// of up to 512 threads; the arithmetic is integer (or floats of small
// integers), so results are exact.

#define LINEAR_TID (threadIdx.y * blockDim.x + threadIdx.x)
#define BLOCK_SIZE (blockDim.x * blockDim.y)

// 1D blocks: thread t sums In[t + k * blockDim.x] for the first SeqCount k,
// leaving the loop (break) at the first index >= N; the barrier follows it.
extern "C" __global__ void breakSum(const float *In, float *Out, unsigned SeqCount,
                                    unsigned long N) {
  unsigned long I = threadIdx.x;
  float Acc = 0;
  for (unsigned S = 0; S < SeqCount; ++S) {
    if (I >= N)
      break;
    Acc += In[I];
    I += blockDim.x;
  }
  __syncthreads();
  Out[threadIdx.x] = Acc;
}

// The same over a 2D block (stride: the block size), with a shared-memory
// exchange after the barrier: Out[t] = own sum, OutNext[t] = the sum of
// thread (t + 1) % size.
extern "C" __global__ void breakSum2d(const float *In, float *Out, float *OutNext,
                                      unsigned SeqCount, unsigned long N) {
  __shared__ float Sums[512];
  unsigned T = LINEAR_TID, Size = BLOCK_SIZE;
  unsigned long I = T;
  float Acc = 0;
  for (unsigned S = 0; S < SeqCount; ++S) {
    if (I >= N)
      break;
    Acc += In[I];
    I += Size;
  }
  Sums[T] = Acc;
  __syncthreads();
  Out[T] = Acc;
  OutNext[T] = Sums[(T + 1) % Size];
}

// continue in a counted loop: thread t skips the iterations K with
// (K + t) % 4 == 0 and adds 1 << K for the others (K < Rounds). Out[t] =
// 1000 * own + the value of thread (t + 1) % size, exchanged after a barrier.
extern "C" __global__ void continueFor(int *Out, int Rounds) {
  __shared__ int Vals[512];
  unsigned T = LINEAR_TID, Size = BLOCK_SIZE;
  int Acc = 0;
  for (int K = 0; K < Rounds; ++K) {
    if ((K + T) % 4 == 0)
      continue;
    Acc += 1 << K;
  }
  Vals[T] = Acc;
  __syncthreads();
  Out[T] = 1000 * Acc + Vals[(T + 1) % Size];
}

// continue in a while loop of t % 8 + 1 iterations (K = 1, 2, ...): even K
// are skipped, so the sum of the odd K is ((t % 8 + 2) / 2)^2. Out[t] =
// 1000 * own + the value of thread (t + 1) % size.
extern "C" __global__ void continueWhile(int *Out) {
  __shared__ int Vals[512];
  unsigned T = LINEAR_TID, Size = BLOCK_SIZE;
  unsigned Limit = T % 8 + 1, K = 0;
  int Acc = 0;
  while (K < Limit) {
    ++K;
    if (K % 2 == 0)
      continue;
    Acc += K;
  }
  Vals[T] = Acc;
  __syncthreads();
  Out[T] = 1000 * Acc + Vals[(T + 1) % Size];
}

// Collatz steps of t + 1 (at most Cap), a per-thread trip count, then the
// barrier: Out[t] = the steps of thread (t + 1) % size.
extern "C" __global__ void collatz(int *Out, int Cap) {
  __shared__ int Steps[512];
  unsigned T = LINEAR_TID, Size = BLOCK_SIZE;
  unsigned X = T + 1;
  int N = 0;
  while (X != 1 && N < Cap) {
    X = X % 2 ? 3 * X + 1 : X / 2;
    ++N;
  }
  Steps[T] = N;
  __syncthreads();
  Out[T] = Steps[(T + 1) % Size];
}

// A uniform outer loop with two barriers around a divergent inner loop that
// thread t leaves (break) after (t + R) % 5 iterations of round R; after each
// round t adds the value of thread (t + R + 1) % size.
extern "C" __global__ void outerBarrier(int *Out) {
  __shared__ int Vals[512];
  unsigned T = LINEAR_TID, Size = BLOCK_SIZE;
  int Acc = 0;
  for (unsigned R = 0; R < 3; ++R) {
    for (unsigned K = 0; K < 8; ++K) {
      if (K >= (T + R) % 5)
        break;
      Acc += K + 1;
    }
    Vals[T] = Acc;
    __syncthreads();
    Acc += Vals[(T + R + 1) % Size];
    __syncthreads();
  }
  Out[T] = Acc;
}

// Threads t % 3 == 0 return (Out = -1) before the barrier; the others run a
// loop with a per-thread break (V = the sum of K <= t % 7), store V, and
// after the barrier read their partner's: t % 3 == 1 pairs with t + 1
// (itself if t + 1 is past the block), t % 3 == 2 with t - 1. Out[t] =
// 1000 * own + partner's.
extern "C" __global__ void earlyReturn(int *Out) {
  __shared__ int Vals[512];
  unsigned T = LINEAR_TID, Size = BLOCK_SIZE;
  Out[T] = -1;
  if (T % 3 == 0)
    return;
  int V = 0;
  for (unsigned K = 0; K < 16; ++K) {
    if (K > T % 7)
      break;
    V += K;
  }
  Vals[T] = V;
  __syncthreads();
  unsigned P = T % 3 == 1 ? T + 1 : T - 1;
  if (P >= Size)
    P = T;
  Out[T] = 1000 * V + Vals[P];
}

// A uniform loop with a barrier around a while loop whose step is 1 or 2 by
// thread: threads leave the while loop at different iterations and go on to
// the outer loop's increment while the others still read the outer counter.
extern "C" __global__ void counterAfterDivergentLoop(unsigned *Out,
                                                     unsigned Rounds) {
  unsigned Tid = threadIdx.x + blockDim.x * threadIdx.y;
  unsigned V = Tid & 255u;
  for (unsigned R = 0; R < Rounds; ++R) {
    __syncthreads();
    unsigned I = 0;
    while (I < 7u) {
      I += 1u + (Tid & 1u);
      V = (unsigned)((float)V * 2.0f + (float)(I + R)) & 0xfffffu;
    }
  }
  Out[Tid] = V;
}

// Threads leave the first loop at different iterations, so they enter the
// second, whose trip count is the same for all, in different rounds of the
// block: its counter and its value, the same in every thread, must still be
// each thread's own.
extern "C" __global__ void uniformLoopAfterDivergentLoop(unsigned *Out,
                                                         const unsigned *In,
                                                         unsigned Trips) {
  unsigned Tid = LINEAR_TID;
  unsigned A = Tid;
  for (unsigned I = 0; I < Tid % 7u; ++I)
    A = (A * 3u + In[(I * 5u + Tid) & 63u]) & 0xffffu;
  unsigned B = 1;
  unsigned J = 0;
  do {
    ++J;
    B = (B * 7u + In[(J * 3u) & 63u] + J) & 0xffffu;
  } while (J < Trips);
  __syncthreads();
  Out[blockIdx.x * BLOCK_SIZE + Tid] = A * 65536u + B + J;
}

// __syncthreads_count after a loop with a per-thread trip count: the
// threads that left the loop early wait at the barrier for several rounds;
// every one of them counts.
extern "C" __global__ void countAfterDivergentLoop(unsigned *Out,
                                                   const unsigned *In) {
  unsigned Tid = LINEAR_TID;
  unsigned A = Tid;
  for (unsigned I = 0; I < Tid % 21u; ++I)
    A = (A * 3u + In[(I * 5u + Tid) & 63u]) & 0xffffu;
  unsigned N = __syncthreads_count(In[Tid & 63u] != 12345u);
  Out[blockIdx.x * BLOCK_SIZE + Tid] = N * 65536u + A;
}
