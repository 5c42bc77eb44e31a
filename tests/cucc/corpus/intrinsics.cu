// Fast-math and integer intrinsics, rounding-mode arithmetic and
// conversions. None may leave inline PTX assembly in the IR.
// CHECK-NOT: asm
// CHECK-DAG: @__nv_fast_sinf
// CHECK-DAG: @__nv_fast_expf
// CHECK-DAG: @__nv_fast_fdividef
// CHECK-DAG: @__nv_fadd_rn
// CHECK-DAG: @__nv_fmul_rz
// CHECK-DAG: @__nv_fdiv_ru
// CHECK-DAG: @__nv_fsqrt_rd
// CHECK-DAG: @__nv_dadd_rz
// CHECK-DAG: @__nv_fmaf_rn
// CHECK-DAG: @__nv_mul24
// CHECK-DAG: @__nv_umul24
// CHECK-DAG: @__nv_mulhi
// CHECK-DAG: @__nv_popc
// CHECK-DAG: @__nv_clz
// CHECK-DAG: @__nv_brev
// CHECK-DAG: @__nv_ffs
// CHECK-DAG: @__nv_float2int_rn
// CHECK-DAG: @__nv_float2half_rn
// CHECK-DAG: @__nv_vadd2
// CHECK-DAG: @__nv_saturatef
// CHECK-DAG: call void @llvm.trap()
__global__ void intrinsics(float *F, double *D, int *I, unsigned *U,
                           long long *L) {
  float X = F[0], Y = F[1];
  F[2] = __sinf(X) + __cosf(X) + __expf(X) + __logf(X) + __powf(X, Y) +
         __tanf(X) + __exp10f(X) + __log2f(X) + __log10f(X);
  F[3] = __fdividef(X, Y) + __saturatef(X);
  F[4] = __fadd_rn(X, Y) + __fadd_rz(X, Y) + __fsub_ru(X, Y) +
         __fmul_rz(X, Y) + __fmul_rd(X, Y) + __fdiv_ru(X, Y) +
         __fdiv_rn(X, Y) + __frcp_rn(X) + __fsqrt_rd(X) + __frsqrt_rn(X) +
         __fmaf_rn(X, Y, X);
  D[0] = __dadd_rz(D[1], D[2]) + __dmul_ru(D[1], D[2]) + __fma_rn(D[1], D[2], D[3]) +
         __ddiv_rd(D[1], D[2]) + __dsqrt_rn(D[1]);
  I[0] = __mul24(I[1], I[2]) + __mulhi(I[1], I[2]) + __float_as_int(X) +
         __popc(U[0]) + __popcll(L[0]) + __clz(I[1]) + __clzll(L[1]) +
         __ffs(I[2]) + __ffsll(L[2]) + __float2int_rn(X) + __float2int_rz(Y) +
         __double2int_rd(D[1]) + (int)__float2uint_ru(X) + __hadd(I[1], I[2]);
  U[1] = __umul24(U[2], U[3]) + __umulhi(U[2], U[3]) + __brev(U[2]) +
         (unsigned)__brevll(L[3]) + __sad(I[1], I[2], U[2]) +
         __usad(U[1], U[2], U[3]) + __byte_perm(U[1], U[2], U[3]) +
         __funnelshift_l(U[1], U[2], U[3]) + __funnelshift_rc(U[1], U[2], U[3]) +
         __vadd2(U[1], U[2]) + __float2half_rn(X) + __float_as_uint(Y);
  L[4] = __mul64hi(L[1], L[2]) + __double_as_longlong(D[1]) + __float2ll_rn(X);
  F[5] = __int_as_float(I[3]) + __uint_as_float(U[4]) + __int2float_rn(I[4]) +
         __uint2float_rz(U[5]) + __half2float((unsigned short)U[6]) +
         (float)__longlong_as_double(L[5]);
  if (I[9])
    __trap();
}
