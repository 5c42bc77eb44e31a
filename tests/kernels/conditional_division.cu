// A block-uniform division (the block index divided by a kernel argument)
// that only some threads of a block compute. On the CPU the threads of a
// block are the iterations of a loop that the vectorizer turns into vectors
// of threads; the division then runs under the condition of those threads
// alone, while its result serves every thread that needs it. Every kernel
// here leaves out the first thread of each group of 8 (T % 8 == 0), so that
// the first element of each vector of threads never computes it.

// Out[gid] = In[b % M + t] where t % 8 != 0, else 0: the remainder is the
// base of a consecutive load.
extern "C" __global__ void remainderBase(const int *In, int *Out, unsigned M) {
  unsigned T = threadIdx.x;
  int V = 0;
  if (T % 8 != 0)
    V = In[blockIdx.x % M + T];
  Out[blockIdx.x * blockDim.x + T] = V;
}

// Out[gid] = In[b / D + 8 + t] where t % 8 != 0, else 0: a signed quotient
// (D < 0) as the base of a consecutive load.
extern "C" __global__ void quotientBase(const int *In, int *Out, int D) {
  int T = threadIdx.x;
  int V = 0;
  if (T % 8 != 0)
    V = In[(int)blockIdx.x / D + 8 + T];
  Out[blockIdx.x * blockDim.x + T] = V;
}

// Out[gid] = Sh[(5 b) % M] = 3 * ((5 b) % M) where t % 8 != 0, else 0: the
// remainder indexes shared memory at one address for all threads.
extern "C" __global__ void remainderSharedIndex(const int *In, int *Out, unsigned M) {
  __shared__ int Sh[64];
  unsigned T = threadIdx.x;
  Sh[T] = 3 * In[T];
  __syncthreads();
  int V = 0;
  if (T % 8 != 0)
    V = Sh[(blockIdx.x * 5) % M];
  Out[blockIdx.x * blockDim.x + T] = V;
}
