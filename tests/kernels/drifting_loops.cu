// Loops inside a loop that every thread runs the same number of times, whose
// threads still drift apart by whole iterations of it: an inner loop with a
// per-thread trip count (or one that only some threads enter) lets the
// threads that leave it early run on into the next iteration of the outer
// loop while the others are still in the inner one. A value of the outer
// loop read in an inner one must then be each thread's own: it differs
// between threads at the same moment even though every thread computes the
// same sequence of it. In[i] = 37 i % 101 in the tests.

// Out[t]: a hash over Rounds iterations of two do-while loops with per-thread
// trip counts (the first In[t] % 5 + 1 trips, cut short by a break where the
// hash's low bits are 3, the second t % 3 + 1), and Weight, computed from the
// outer counter between the two, read in the second.
extern "C" __global__ void twoInnerLoops(const unsigned *In, unsigned *Out,
                                         unsigned Rounds) {
  unsigned T = threadIdx.x + blockDim.x * threadIdx.y;
  unsigned Sum = 0, Mix = T;
  for (unsigned R = 0; R < Rounds; ++R) {
    unsigned I = 0;
    do {
      Mix = Mix * 0x9e3779b1u + (In[(T + I) % 64u] ^ R);
      if ((Mix & 7u) == 3u)
        break;
      Sum += (I + 1u) + (Mix >> 28);
    } while (++I < In[T] % 5u + 1u);
    unsigned Weight = (min(In[1], R + 1u) + In[2] * In[3]) >> 3;
    unsigned J = 0;
    do {
      Mix ^= Mix >> 13;
      Mix = Mix * 5u + Weight;
      Sum += (Weight << 1) + (Mix & 15u) + J;
    } while (++J < T % 3u + 1u);
  }
  Out[T] = Sum ^ Mix;
}

// Out[t]: a hash over Rounds iterations of a loop that only every fourth
// thread runs (t % 4 == 0; R % 3 + 9 trips, the same for all of them, with
// an atomic add to shared memory), after a barrier that every thread meets
// at the top of each iteration. The others go straight on to the next
// iteration's barrier, past the phi of the outer counter R that the loop
// reads.
extern "C" __global__ void branchAroundLoop(const unsigned *In, unsigned *Out,
                                            unsigned Rounds) {
  __shared__ unsigned Acc[64];
  unsigned T = threadIdx.x + blockDim.x * threadIdx.y;
  unsigned N = blockDim.x * blockDim.y;
  for (unsigned J = T; J < 64u; J += N)
    Acc[J] = 0;
  unsigned Own = 0;
  for (unsigned R = 0; R < Rounds; ++R) {
    __syncthreads();
    if (T % 4u == 0u) {
      for (unsigned I = 0; I < R % 3u + 9u; ++I) {
        atomicAdd(&Acc[(T + I) % 64u], __umulhi(R + 1u, 0x80000000u) + I);
        Own = Own * 3u + (In[(T + I) % 64u] ^ min(R, I));
      }
    }
  }
  __syncthreads();
  Out[T] = Own + (T < 64u ? Acc[T] : 0u) + N;
}
