// cuda_fp16.h and cuda_bf16.h: conversions in every rounding mode,
// arithmetic, comparisons, shuffles and atomics of __half and
// __nv_bfloat16. Outputs are floats (every 16-bit value is exact in float);
// the runner checks them against the half_* and bf16_* references of
// References.cpp, which round the float inputs to the format first.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#define INDEX unsigned I = blockIdx.x * blockDim.x + threadIdx.x

#define CONVERT(Name, Expr)                                                    \
  extern "C" __global__ void Name(const float *X, float *Y) {                  \
    INDEX;                                                                     \
    float x = X[I];                                                            \
    Y[I] = Expr;                                                               \
  }
CONVERT(half_rn, __half2float(__float2half_rn(x)))
CONVERT(half_rz, __half2float(__float2half_rz(x)))
CONVERT(half_rd, __half2float(__float2half_rd(x)))
CONVERT(half_ru, __half2float(__float2half_ru(x)))
CONVERT(half_ctor, float(__half(x)))
CONVERT(half_sqrt, __half2float(hsqrt(__float2half(x))))
CONVERT(bf16_rn, __bfloat162float(__float2bfloat16_rn(x)))
CONVERT(bf16_rz, __bfloat162float(__float2bfloat16_rz(x)))
CONVERT(bf16_rd, __bfloat162float(__float2bfloat16_rd(x)))
CONVERT(bf16_ru, __bfloat162float(__float2bfloat16_ru(x)))

#define BINARY(Name, T, ToT, ToFloat, Expr)                                    \
  extern "C" __global__ void Name(const float *X, const float *Z, float *Y) {  \
    INDEX;                                                                     \
    T a = ToT(X[I]), b = ToT(Z[I]);                                            \
    Y[I] = ToFloat(Expr);                                                      \
  }
BINARY(half_add, __half, __float2half, __half2float, a + b)
BINARY(half_sub, __half, __float2half, __half2float, __hsub(a, b))
BINARY(half_mul, __half, __float2half, __half2float, __hmul(a, b))
BINARY(half_div, __half, __float2half, __half2float, a / b)
BINARY(half_max, __half, __float2half, __half2float, __hmax(a, b))
BINARY(half2_mul, __half, __float2half, __low2float,
       __hmul2(__halves2half2(a, b), __halves2half2(b, a)))
BINARY(half2_add_high, __half, __float2half, __high2float,
       __halves2half2(b, a) + __halves2half2(a, b))
BINARY(bf16_add, __nv_bfloat16, __float2bfloat16, __bfloat162float, a + b)
BINARY(bf16_sub, __nv_bfloat16, __float2bfloat16, __bfloat162float,
       __hsub(a, b))
BINARY(bf16_mul, __nv_bfloat16, __float2bfloat16, __bfloat162float, a * b)
BINARY(bf16_div, __nv_bfloat16, __float2bfloat16, __bfloat162float,
       __hdiv(a, b))

/// The comparisons' results as bits: lt le gt ge eq ne ltu geu.
extern "C" __global__ void half_compare(const float *X, const float *Z,
                                        float *Y) {
  INDEX;
  __half a = __float2half(X[I]), b = __float2half(Z[I]);
  int Bits = __hlt(a, b) | __hle(a, b) << 1 | __hgt(a, b) << 2 |
             __hge(a, b) << 3 | __heq(a, b) << 4 | __hne(a, b) << 5 |
             __hltu(a, b) << 6 | __hgeu(a, b) << 7;
  Y[I] = Bits;
}

#define FMA(Name, T, ToT, ToFloat)                                             \
  extern "C" __global__ void Name(const float *X, const float *Z,              \
                                  const float *W, float *Y) {                  \
    INDEX;                                                                     \
    Y[I] = ToFloat(__hfma(ToT(X[I]), ToT(Z[I]), ToT(W[I])));                   \
  }
FMA(half_fma, __half, __float2half, __half2float)
FMA(bf16_fma, __nv_bfloat16, __float2bfloat16, __bfloat162float)

/// Every thread adds 1 to *Sum and (1, 2) to *Pair.
extern "C" __global__ void half_atomic_add(__half *Sum, __half2 *Pair) {
  atomicAdd(Sum, __float2half(1.0f));
  atomicAdd(Pair, __floats2half2_rn(1.0f, 2.0f));
}
extern "C" __global__ void bf16_atomic_add(__nv_bfloat16 *Sum,
                                           __nv_bfloat162 *Pair) {
  atomicAdd(Sum, __float2bfloat16(1.0f));
  atomicAdd(Pair, __floats2bfloat162_rn(1.0f, 2.0f));
}

/// Y[i] = i ^ 1, through a shuffle of a __half and a __half2.
extern "C" __global__ void half_shuffle(int *Y) {
  INDEX;
  __half h = __int2half_rn(threadIdx.x);
  __half2 p = __halves2half2(h, __hneg(h));
  h = __shfl_xor_sync(0xffffffffu, h, 1);
  p = __shfl_xor_sync(0xffffffffu, p, 1);
  Y[I] = __half2int_rn(h) - static_cast<int>(__high2float(p)) -
         __half2int_rn(h);
}
