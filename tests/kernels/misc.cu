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
