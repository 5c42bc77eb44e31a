// Every atomic function: plain atomicrmw/cmpxchg, except inc/dec with wrap
// (NVVM intrinsics).
// CHECK-DAG: atomicrmw add ptr {{.*}}, i32 {{.*}} monotonic
// CHECK-DAG: atomicrmw add ptr {{.*}}, i64 {{.*}} monotonic
// CHECK-DAG: atomicrmw fadd ptr {{.*}}, float {{.*}} monotonic
// CHECK-DAG: atomicrmw fadd ptr {{.*}}, double {{.*}} monotonic
// CHECK-DAG: atomicrmw sub ptr
// CHECK-DAG: atomicrmw xchg ptr {{.*}}, i32
// CHECK-DAG: atomicrmw xchg ptr {{.*}}, i64
// CHECK-DAG: atomicrmw min ptr {{.*}}, i32
// CHECK-DAG: atomicrmw umin ptr {{.*}}, i32
// CHECK-DAG: atomicrmw min ptr {{.*}}, i64
// CHECK-DAG: atomicrmw umax ptr {{.*}}, i64
// CHECK-DAG: atomicrmw max ptr {{.*}}, i32
// CHECK-DAG: atomicrmw and ptr
// CHECK-DAG: atomicrmw or ptr
// CHECK-DAG: atomicrmw xor ptr {{.*}}, i64
// CHECK-DAG: cmpxchg ptr {{.*}}, i32
// CHECK-DAG: cmpxchg ptr {{.*}}, i64
// CHECK-DAG: cmpxchg ptr {{.*}}, i16
// CHECK-DAG: call {{.*}}@llvm.nvvm.atomic.load.inc.32.p0
// CHECK-DAG: call {{.*}}@llvm.nvvm.atomic.load.dec.32.p0
__global__ void atomics(int *I, unsigned *U, unsigned long long *UL,
                        long long *L, float *F, double *D, unsigned short *S) {
  __shared__ int Shared;
  int R = atomicAdd(I, 1) + atomicAdd(&Shared, 2) + atomicSub(I + 1, 3) +
          atomicExch(I + 2, 4) + atomicMin(I + 3, 5) + atomicMax(I + 4, 6) +
          atomicCAS(I + 5, 7, 8) + atomicAnd(I + 6, 9) + atomicOr(I + 7, 10) +
          atomicXor(I + 8, 11);
  unsigned RU = atomicAdd(U, 1u) + atomicSub(U + 1, 1u) + atomicExch(U + 2, 1u) +
                atomicMin(U + 3, 1u) + atomicMax(U + 4, 1u) +
                atomicInc(U + 5, 10u) + atomicDec(U + 6, 10u) +
                atomicCAS(U + 7, 1u, 2u) + atomicAnd(U + 8, 1u) +
                atomicOr(U + 9, 1u) + atomicXor(U + 10, 1u);
  unsigned long long RUL = atomicAdd(UL, 1ull) + atomicExch(UL + 1, 2ull) +
                           atomicCAS(UL + 2, 3ull, 4ull) + atomicMin(UL + 3, 5ull) +
                           atomicMax(UL + 4, 6ull) + atomicAnd(UL + 5, 7ull) +
                           atomicOr(UL + 6, 8ull) + atomicXor(UL + 7, 9ull);
  long long RL = atomicMin(L, 1ll) + atomicMax(L + 1, 2ll);
  float RF = atomicAdd(F, 1.0f) + atomicExch(F + 1, 2.0f);
  double RD = atomicAdd(D, 1.0);
  unsigned short RS = atomicCAS(S, (unsigned short)1, (unsigned short)2);
  int Scoped = atomicAdd_block(I + 9, 1) + atomicAdd_system(I + 10, 1) +
               (int)atomicInc_block(U + 11, 3u) + (int)atomicCAS_system(U + 12, 1u, 2u);
  I[20] = R + RU + RUL + RL + RF + RD + RS + Scoped;
}
