//===- cuda_bf16.h - bfloat16 for cucc kernels ------------------*- C++ -*-===//
//
// The toolkit's bfloat16 header, as kernels use it: __nv_bfloat16 and
// __nv_bfloat162, conversions in every rounding mode, and the same
// arithmetic, comparisons, math functions, operators, shuffles, __ldg and
// atomicAdd as cuda_fp16.h (detail/float16_ops.h), rounded as NVIDIA's
// hardware rounds them. __CUDA_NO_BFLOAT16_OPERATORS__,
// __CUDA_NO_BFLOAT162_OPERATORS__ and __CUDA_NO_BFLOAT16_CONVERSIONS__ leave
// out what they leave out in NVIDIA's.
//
//===----------------------------------------------------------------------===//
#ifndef __CUDA_BF16_H__
#define __CUDA_BF16_H__

#include "../detail/float16.h"

#define __CUDA_BF16_DECL__ static __host__ __device__ inline

/// The bits of a bfloat16, for conversions to and from __nv_bfloat16.
struct __nv_bfloat16_raw {
  unsigned short x;
};
/// The bits of a bfloat162.
struct __nv_bfloat162_raw {
  unsigned short x;
  unsigned short y;
};

/// A bfloat16 value: float's sign and exponent, 7 fraction bits.
struct alignas(2) __nv_bfloat16 {
  using __cucpu_format = __cucpu_f16::BFloat16Format;
  unsigned short __x;

  __CUCPU_F16_RAW_MEMBERS(__nv_bfloat16, __nv_bfloat16_raw)
#if !defined(__CUDA_NO_BFLOAT16_CONVERSIONS__)
  __CUCPU_F16_VALUE_MEMBERS(__nv_bfloat16)
#endif
};

/// Two bfloat16 values, as one 32-bit word (x in the low half).
struct alignas(4) __nv_bfloat162 {
  __nv_bfloat16 x;
  __nv_bfloat16 y;

  __CUCPU_F16_PAIR_MEMBERS(__nv_bfloat16, __nv_bfloat162, __nv_bfloat16_raw,
                           __nv_bfloat162_raw)
};

typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;

// --- Conversions --------------------------------------------------------

__CUCPU_F16_CONVERSIONS(__nv_bfloat16, __nv_bfloat162, bfloat16)
__CUCPU_F16_FROM_FLOAT(__nv_bfloat16, __float2bfloat16_rn, ToNearest)

#define __CUCPU_T __nv_bfloat16
#define __CUCPU_T2 __nv_bfloat162
#if defined(__CUDA_NO_BFLOAT16_OPERATORS__)
#define __CUCPU_F16_NO_OPERATORS
#endif
#if defined(__CUDA_NO_BFLOAT162_OPERATORS__)
#define __CUCPU_F16_NO_OPERATORS2
#endif
#include "../detail/float16_ops.h"
#undef __CUCPU_F16_NO_OPERATORS
#undef __CUCPU_F16_NO_OPERATORS2
#undef __CUCPU_T
#undef __CUCPU_T2

#endif // __CUDA_BF16_H__
