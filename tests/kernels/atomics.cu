// atomicAdd from every thread of the grid.
extern "C" __global__ void atomicCount(int *Counter) { atomicAdd(Counter, 1); }

// Every atomic family, contended by every thread of the grid; the results
// do not depend on the order. Thread I of N.
#define ID (blockIdx.x * blockDim.x + threadIdx.x)
#define NTHREADS (gridDim.x * blockDim.x)

// Slots: 0 add 1, 1 add I, 2 sub 1, 3 sub I (unsigned).
extern "C" __global__ void addSub32(int *S, unsigned *U) {
  unsigned I = ID;
  atomicAdd(&S[0], 1);
  atomicAdd(&U[0], I);
  atomicSub(&S[1], 1);
  atomicSub(&U[1], I);
}

extern "C" __global__ void add64(unsigned long long *S) {
  unsigned long long I = ID;
  atomicAdd(&S[0], 1ull);
  atomicAdd(&S[1], I << 20);
}

extern "C" __global__ void addFloat(float *F, double *D) {
  unsigned I = ID;
  atomicAdd(&F[0], 0.5f);
  atomicAdd(&F[1], (float)(I % 4)); // Sums stay exact below 2^24.
  atomicAdd(&D[0], I * 0.25);
  atomicAdd(&D[1], -1.0);
}

// The values returned by atomicAdd are unique tickets.
extern "C" __global__ void tickets(unsigned *Counter, int *Seen) {
  unsigned T = atomicAdd(Counter, 1u);
  atomicAdd(&Seen[T], 1);
}

// Min and max over a scrambled sequence: V(I) = (I * 40503) % 65536 - 30000.
extern "C" __global__ void minMax(int *S, unsigned *U, long long *L,
                                  unsigned long long *UL) {
  unsigned I = ID;
  int V = (int)((I * 40503u) % 65536u) - 30000;
  atomicMin(&S[0], V);
  atomicMax(&S[1], V);
  atomicMin(&U[0], (unsigned)(V + 30000) + 7u);
  atomicMax(&U[1], (unsigned)(V + 30000) + 7u);
  atomicMin(&L[0], (long long)V << 32);
  atomicMax(&L[1], (long long)V << 32);
  atomicMin(&UL[0], (unsigned long long)(V + 30000) << 33);
  atomicMax(&UL[1], (unsigned long long)(V + 30000) << 33);
}

// atomicInc wraps at 99 (N incs from 0 end at N % 100); atomicDec from 0
// wraps to 99 (N decs end at (100 - N % 100) % 100).
extern "C" __global__ void incDec(unsigned *S) {
  atomicInc(&S[0], 99u);
  atomicDec(&S[1], 99u);
}

// Bitwise families: or sets bit I%32 (I%64), and clears it, xor of I.
extern "C" __global__ void bitwise(unsigned *U, int *S, unsigned long long *L) {
  unsigned I = ID;
  atomicOr(&U[0], 1u << (I % 32));
  atomicAnd(&U[1], ~(1u << (I % 32)));
  atomicXor(&U[2], I);
  atomicOr(&S[0], 1 << (I % 31));
  atomicAnd(&S[1], ~(1 << (I % 31)));
  atomicXor(&S[2], (int)I);
  atomicOr(&L[0], 1ull << (I % 64));
  atomicAnd(&L[1], ~(1ull << (I % 64)));
  atomicXor(&L[2], (unsigned long long)I << 16);
}

// A counter built from atomicCAS (32 and 64 bit), a float maximum through
// CAS on its bits, and 16-bit CAS.
extern "C" __global__ void casLoops(int *C32, unsigned long long *C64,
                                    float *FMax, unsigned short *C16) {
  unsigned I = ID;
  int Old = *(volatile int *)C32, Seen;
  while ((Seen = atomicCAS(C32, Old, Old + 3)) != Old)
    Old = Seen;
  unsigned long long Old64 = *(volatile unsigned long long *)C64, Seen64;
  while ((Seen64 = atomicCAS(C64, Old64, Old64 + (1ull << 32))) != Old64)
    Old64 = Seen64;
  float V = (float)((I * 40503u) % 65536u) * 0.25f;
  int *Bits = (int *)FMax;
  int OldBits = *(volatile int *)Bits;
  while (__int_as_float(OldBits) < V) {
    int Got = atomicCAS(Bits, OldBits, __float_as_int(V));
    if (Got == OldBits)
      break;
    OldBits = Got;
  }
  unsigned short Old16 = *(volatile unsigned short *)C16, Seen16;
  while ((Seen16 = atomicCAS(C16, Old16, (unsigned short)(Old16 + 1))) != Old16)
    Old16 = Seen16;
}

// atomicExch and __threadfence: every thread exchanges I + 1 into a slot and
// adds what it took out to a sum; the last thread to finish (by a ticket
// taken after a fence) sees every exchange and writes slot + sum, which is
// the sum of 0 .. N.
extern "C" __global__ void exchangeFence(unsigned long long *S, float *F,
                                         unsigned long long *Result) {
  unsigned I = ID;
  unsigned long long Old = atomicExch(&S[0], (unsigned long long)I + 1);
  atomicAdd(&S[1], Old);
  atomicExch(&F[0], 2.5f);
  __threadfence_block();
  __threadfence_system();
  __threadfence();
  unsigned long long Ticket = atomicAdd(&S[2], 1ull);
  if (Ticket == NTHREADS - 1) {
    __threadfence();
    Result[0] = atomicAdd(&S[0], 0ull) + atomicAdd(&S[1], 0ull);
  }
}

// The _block forms on shared memory.
extern "C" __global__ void sharedAtomics(int *Out) {
  __shared__ int Sum, Max;
  if (threadIdx.x == 0)
    Sum = Max = 0;
  __syncthreads();
  atomicAdd_block(&Sum, (int)threadIdx.x);
  atomicMax_block(&Max, (int)threadIdx.x);
  __syncthreads();
  if (threadIdx.x == 0) {
    Out[2 * blockIdx.x] = Sum;
    Out[2 * blockIdx.x + 1] = Max;
  }
}

// A loop with atomics whose trip count differs from thread to thread (thread
// t of a block runs t % 21 iterations: none for some, more than a block
// function runs per region for others), carrying a sum across its
// iterations and the kernel's barriers. Sums[t] = 1 + 2 + ... + t % 21;
// Totals[block] = the sum of all its threads' sums.
extern "C" __global__ void unevenLoopAtomics(const int *Steps, int *Sums,
                                             int *Totals) {
  __shared__ int Total;
  if (threadIdx.x == 0)
    Total = 0;
  __syncthreads();
  int N = threadIdx.x % 21, Sum = 0;
  for (int K = 0; K < N; ++K) {
    Sum += Steps[K];
    atomicAdd(&Total, Steps[K]);
  }
  __syncthreads();
  Sums[blockIdx.x * blockDim.x + threadIdx.x] = Sum;
  if (threadIdx.x == 0)
    Totals[blockIdx.x] = Total;
}
