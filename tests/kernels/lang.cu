// Language features: 3D grids, device-function calls (inlined, not inlined,
// through pointers, recursive), 64-bit integers, double precision, structs
// by value, vector types, module variables, clock, __ldg, printf, assert and
// large grids.
#define ID (blockIdx.x * blockDim.x + threadIdx.x)

// A grid with y and z > 1: every thread writes its linear id, and the
// dimensions it sees.
extern "C" __global__ void grid3d(int *Out, int *Dims) {
  unsigned Block =
      blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  unsigned Thread =
      threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  unsigned Id = Block * blockDim.x * blockDim.y * blockDim.z + Thread;
  Out[Id] = Id;
  Dims[Id] = blockDim.x + 10 * blockDim.y + 100 * blockDim.z +
             1000 * gridDim.x + 10000 * gridDim.y + 1000000 * gridDim.z;
}

// 65536 or more blocks of one thread.
extern "C" __global__ void manyBlocks(unsigned *Out) {
  Out[blockIdx.x] = blockIdx.x * 3 + threadIdx.x;
}

__device__ __noinline__ int square(int X) { return X * X; }
__device__ __noinline__ bool isOdd(int N);
__device__ __noinline__ bool isEven(int N) {
  return N == 0 ? true : isOdd(N - 1);
}
__device__ __noinline__ bool isOdd(int N) {
  return N == 0 ? false : isEven(N - 1);
}
__device__ __noinline__ int ackermann(int M, int N) {
  if (M == 0)
    return N + 1;
  if (N == 0)
    return ackermann(M - 1, 1);
  return ackermann(M - 1, ackermann(M, N - 1));
}
__device__ int twice(int X) { return 2 * X; }
__device__ int negate(int X) { return -X; }
typedef int (*UnaryFn)(int);

// Out = square(i) + isEven(i) + 10 * pointer call + ackermann(2, i % 8)
// (= 2 (i % 8) + 3).
extern "C" __global__ void calls(int *Out) {
  int I = ID;
  UnaryFn Fn = I % 2 ? twice : negate;
  Out[I] =
      square(I) + (isEven(I) ? 1 : 0) + 10 * Fn(I) + 1000 * ackermann(2, I % 8);
}

// 64-bit integers: products, shifts, division, and unsigned wrap-around.
extern "C" __global__ void int64ops(long long *S, unsigned long long *U) {
  long long I = ID;
  S[I] = (I * 0x100000001ll) / 3 - (I << 40) % 1000000007ll;
  U[I] = (unsigned long long)I * 0xffffffff00000001ull; // Wraps: I - (I << 32).
}

// Doubles: operations IEEE rounds exactly (no contraction into an fma).
extern "C" __global__ void doubles(double *A, double *B, double *C) {
  double I = ID;
  A[ID] = I / 3.0;
  B[ID] = I * I * 0.5;
  C[ID] = __dadd_rn(__dmul_rn(I, 0.1), 1e-300);
}

// Structs by value with mixed alignment, and through a device function.
struct Mixed {
  char C;
  double D;
  short S;
  int I;
  float F;
  long long L;
  unsigned char U;
};
__device__ __noinline__ Mixed bump(Mixed M) {
  M.C += 1;
  M.D *= 2;
  M.S -= 1;
  M.I += 100;
  M.F += 0.5f;
  M.L <<= 1;
  M.U ^= 0xff;
  return M;
}
extern "C" __global__ void mixedStruct(Mixed M, double *Out) {
  Mixed B = bump(M);
  Out[0] = B.C;
  Out[1] = B.D;
  Out[2] = B.S;
  Out[3] = B.I;
  Out[4] = B.F;
  Out[5] = (double)B.L;
  Out[6] = B.U;
  Out[7] = sizeof(Mixed);
}

struct Small {
  char A;
  short B;
};
extern "C" __global__ void twoStructs(Small P, int X, Small Q, long long *Out) {
  Out[threadIdx.x] =
      P.A + 10 * P.B + 100 * X + 10000 * Q.A + 100000 * Q.B + threadIdx.x;
}

// Vector types: make_*, components, sizes and alignments.
extern "C" __global__ void vectors(int *Out) {
  float4 F = make_float4(1.5f, 2.5f, 3.5f, 4.5f);
  int3 I = make_int3(1, 2, 3);
  double2 D = make_double2(0.25, 0.75);
  uchar4 U = make_uchar4(250, 251, 252, 253);
  short2 S = make_short2(-3, 7);
  longlong2 L = make_longlong2(1ll << 40, -5);
  uint2 V = make_uint2(0xffffffffu, 1u);
  char3 C = make_char3(-1, -2, -3);
  ulonglong2 Q = make_ulonglong2(3, 7);
  Out[0] = (int)(F.x + F.y + F.z + F.w);                     // 12
  Out[1] = I.x * 100 + I.y * 10 + I.z;                       // 123
  Out[2] = (int)((D.x + D.y) * 8);                           // 8
  Out[3] = U.x + U.y + U.z + U.w;                            // 1006
  Out[4] = S.x * S.y;                                        // -21
  Out[5] = (int)(L.x >> 38) + (int)L.y;                      // -1
  Out[6] = (int)(V.x + V.y);                                 // 0
  Out[7] = C.x + C.y + C.z;                                  // -6
  Out[8] = (int)(Q.x + Q.y);                                 // 10
  Out[9] = sizeof(float4) * 1000 + alignof(float4);          // 16016
  Out[10] = sizeof(float3) * 1000 + alignof(float3);         // 12004
  Out[11] = sizeof(double2) * 1000 + alignof(double2);       // 16016
  Out[12] = sizeof(char3) * 1000 + alignof(char3);           // 3001
  Out[13] = sizeof(short2) * 1000 + alignof(short2);         // 4004
  Out[14] = sizeof(uchar4) * 1000 + alignof(uchar4);         // 4004
  Out[15] = sizeof(int2) * 1000 + alignof(int2);             // 8008
  Out[16] = sizeof(longlong2) * 1000 + alignof(longlong2);   // 16016
  Out[17] = sizeof(double3) * 1000 + alignof(double3);       // 24008
  Out[18] = sizeof(ulonglong2) * 1000 + alignof(ulonglong2); // 16016
  Out[19] = sizeof(dim3) * 1000 + alignof(dim3);             // 12004
}

// Module variables: initialized __constant__ and __device__ data.
__constant__ int Primes[8] = {2, 3, 5, 7, 11, 13, 17, 19};
__constant__ double Scale = 0.5;
__device__ int Counter = 1000;
__device__ float Table[4] = {1.0f, 2.0f, 4.0f, 8.0f};

extern "C" __global__ void moduleVars(int *Out) {
  unsigned I = ID;
  Out[I] =
      Primes[I % 8] * (int)(Table[I % 4] * Scale * 2) + atomicAdd(&Counter, 0);
}

// The same variables set by the host (cuModuleGetGlobal) before the launch.
__constant__ int Coeffs[16];
__device__ long long Accumulator;
extern "C" __global__ void hostSetVars(int *Out) {
  Out[ID] = Coeffs[ID % 16] * 2;
  atomicAdd((unsigned long long *)&Accumulator, (unsigned long long)ID);
}

// clock and clock64 never go backwards.
extern "C" __global__ void clocks(int *Out) {
  long long A = clock64();
  unsigned C0 = clock();
  volatile int Sink = 0;
  for (int K = 0; K < 1000; ++K)
    Sink += K;
  long long B = clock64();
  unsigned C1 = clock();
  Out[ID] = (B >= A) + 2 * ((int)(C1 - C0) >= 0);
}

// __ldg of several types.
extern "C" __global__ void ldg(const int *I, const float4 *F, const double *D,
                               double *Out) {
  unsigned K = ID;
  float4 V = __ldg(&F[K]);
  Out[K] = __ldg(&I[K]) + V.x + V.y + V.z + V.w + __ldg(&D[K]);
}

// printf with the common conversions.
extern "C" __global__ void formats(int V) {
  if (threadIdx.x == 0 && blockIdx.x == 0)
    printf("d=%d u=%u x=%x f=%f e=%e s=%s c=%c lld=%lld g=%g\n", V, 4000000000u,
           255, 1.5, 12345.678, "str", 'Z', -1234567890123ll, 0.25f);
}

// An assert that holds does not fail the launch.
extern "C" __global__ void assertHolds(int *Out) {
  assert(threadIdx.x < blockDim.x);
  Out[ID] = 1;
}
