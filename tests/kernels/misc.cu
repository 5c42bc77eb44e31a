// Structs by value, double precision, recursion, printf, assert and trap.
struct Params {
  int A;
  double B;
  int C;
};

extern "C" __global__ void structArg(Params P, double *Out) {
  Out[threadIdx.x] = P.A * P.B + P.C + threadIdx.x;
}

__device__ long long fibonacci(int N) {
  return N < 2 ? N : fibonacci(N - 1) + fibonacci(N - 2);
}

// Out[i] = fib(i) - fib(i) computed two ways (0 when both agree).
extern "C" __global__ void fib(long long *Out) {
  int N = threadIdx.x;
  long long A = 0, B = 1;
  for (int K = 0; K < N; ++K) {
    long long T = A + B;
    A = B;
    B = T;
  }
  Out[N] = fibonacci(N) - A;
}

extern "C" __global__ void hello(int V) {
  printf("hello %d from block %d thread %d\n", V, blockIdx.x, threadIdx.x);
}

extern "C" __global__ void failAssert(int Bad) {
  assert(threadIdx.x != Bad);
}

extern "C" __global__ void trapAt(int Where) {
  if (blockIdx.x * blockDim.x + threadIdx.x == Where)
    __trap();
}

/// Device heap: each thread allocates Count ints, fills them, publishes the
/// block through shared memory; its neighbour sums them; each frees its own.
extern "C" __global__ void heapNeighbourSum(int *Out, int Count) {
  __shared__ int *Blocks[64];
  int T = threadIdx.x;
  int *Mine = static_cast<int *>(malloc(Count * sizeof(int)));
  if (Mine)
    for (int I = 0; I < Count; ++I)
      Mine[I] = T * 1000 + I;
  Blocks[T] = Mine;
  __syncthreads();
  int *Theirs = Blocks[(T + 1) % blockDim.x];
  int Sum = -1;
  if (Theirs) {
    Sum = 0;
    for (int I = 0; I < Count; ++I)
      Sum += Theirs[I];
  }
  Out[blockIdx.x * blockDim.x + T] = Sum;
  __syncthreads();
  free(Mine);
}

/// Device heap: one thread allocates Bytes-sized blocks until malloc returns
/// null (at most Limit of them), writes the first and last byte of each,
/// frees them all and allocates once more. Out: 1 if some but not all Limit
/// allocations succeeded, then 1 if the allocation after the frees did.
extern "C" __global__ void heapUntilFull(int *Out, unsigned long long Bytes,
                                         int Limit) {
  char *Blocks[256];
  int Got = 0;
  while (Got < Limit && Got < 256) {
    char *P = static_cast<char *>(malloc(Bytes));
    if (!P)
      break;
    P[0] = 1;
    P[Bytes - 1] = 2;
    Blocks[Got++] = P;
  }
  for (int I = 0; I < Got; ++I)
    free(Blocks[I]);
  void *Again = malloc(Bytes);
  Out[0] = Got > 0 && Got < Limit;
  Out[1] = Again != nullptr;
  free(Again);
}

// The address-space predicates and conversions of sm_20_intrinsics.h: true
// for a pointer into the space it names, and a generic -> space -> generic
// round trip gives the pointer back. Out[i] is 1 when all hold.
extern "C" __global__ void addressSpaces(unsigned *Out) {
  __shared__ int Shared[64];
  int Local[2] = {int(threadIdx.x), 0};
  Shared[threadIdx.x] = Local[0];
  unsigned Ok = __isShared(&Shared[threadIdx.x]) && __isGlobal(Out) &&
                __isLocal(Local) &&
                __cvta_shared_to_generic(__cvta_generic_to_shared(
                    &Shared[threadIdx.x])) == &Shared[threadIdx.x] &&
                __cvta_global_to_generic(__cvta_generic_to_global(Out + 1)) ==
                    Out + 1 &&
                __cvta_local_to_generic(__cvta_generic_to_local(Local)) ==
                    Local;
  Out[threadIdx.x] = Ok;
}

// sm_61_intrinsics.h: byte and half dot products (the values worked out by
// hand in the comments). A and B come from memory so that nothing folds.
extern "C" __global__ void dotProducts(const unsigned *In, int *Out) {
  // bytes 4,3,2,1 times -4,-3,-2,-1, plus 10: -16-9-4-1+10
  Out[0] = __dp4a(int(In[0]), int(In[1]), 10);
  // bytes 4,3,2,1 times 252,253,254,255, plus 10: 1008+759+508+255+10
  Out[1] = int(__dp4a(In[0], In[1], 10u));
  // halves -2, 3 times bytes 0-1 (2, -1), plus 1: -4-3+1
  Out[2] = __dp2a_lo(int(In[2]), int(In[3]), 1);
  // halves -2, 3 times bytes 2-3 (-2, 5): 4+15
  Out[3] = __dp2a_hi(int(In[2]), int(In[4]), 0);
}
