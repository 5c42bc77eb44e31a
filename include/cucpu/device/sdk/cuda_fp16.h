//===- cuda_fp16.h - Half precision for cucc kernels ------------*- C++ -*-===//
//
// The toolkit's half-precision header, as kernels use it: __half and
// __half2, conversions in every rounding mode, arithmetic, comparisons, the
// h* math functions, shuffles, __ldg and atomicAdd. Results are rounded as
// NVIDIA's hardware rounds them (detail/float16.h says how); the math
// functions (hexp, hsin, ...) are computed in float and rounded once, which
// can differ from NVIDIA's approximations in the last bit. The macros
// __CUDA_NO_HALF_OPERATORS__, __CUDA_NO_HALF2_OPERATORS__ and
// __CUDA_NO_HALF_CONVERSIONS__ leave out what they leave out in NVIDIA's.
//
//===----------------------------------------------------------------------===//
#ifndef __CUDA_FP16_H__
#define __CUDA_FP16_H__

#include "../detail/float16.h"

#define __CUDA_FP16_DECL__ static __host__ __device__ inline

/// The bits of a half, for conversions to and from __half.
struct __half_raw {
  unsigned short x;
};
/// The bits of a half2.
struct __half2_raw {
  unsigned short x;
  unsigned short y;
};

/// An IEEE binary16 value.
struct alignas(2) __half {
  using __cucpu_format = __cucpu_f16::HalfFormat;
  unsigned short __x;

  __CUCPU_F16_RAW_MEMBERS(__half, __half_raw)
  /// What the prelude's __float2half_rn returns.
  __host__ __device__ constexpr __half(__cucpu_half_bits b) : __x(b.bits) {}
#if !defined(__CUDA_NO_HALF_CONVERSIONS__)
  __CUCPU_F16_VALUE_MEMBERS(__half)
#endif
};

/// Two halves, as one 32-bit word (x in the low half).
struct alignas(4) __half2 {
  __half x;
  __half y;

  __CUCPU_F16_PAIR_MEMBERS(__half, __half2, __half_raw, __half2_raw)
};

// The toolkit's other names for the types (cuda_fp16.hpp): programs write
// half and half2 (cuda-samples' fp16ScalarProduct).
typedef __half half;
typedef __half2 half2;
typedef __half __nv_half;
typedef __half2 __nv_half2;
typedef __half_raw __nv_half_raw;
typedef __half2_raw __nv_half2_raw;
typedef __half nv_half;
typedef __half2 nv_half2;

// --- Conversions --------------------------------------------------------

// __float2half_rn is the prelude's (its result converts to __half).
__CUCPU_F16_CONVERSIONS(__half, __half2, half)

#define __CUCPU_T __half
#define __CUCPU_T2 __half2
#if defined(__CUDA_NO_HALF_OPERATORS__)
#define __CUCPU_F16_NO_OPERATORS
#endif
#if defined(__CUDA_NO_HALF2_OPERATORS__)
#define __CUCPU_F16_NO_OPERATORS2
#endif
#include "../detail/float16_ops.h"
#undef __CUCPU_F16_NO_OPERATORS
#undef __CUCPU_F16_NO_OPERATORS2
#undef __CUCPU_T
#undef __CUCPU_T2

#endif // __CUDA_FP16_H__
