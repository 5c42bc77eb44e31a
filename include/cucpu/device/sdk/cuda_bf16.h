//===- cuda_bf16.h - bfloat16 for cucc kernels --------------------*- C++
//-*-===//
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
#define __CUCPU_BF16 __host__ __device__ inline

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

  __nv_bfloat16() = default;
  __CUCPU_BF16 constexpr __nv_bfloat16(const __nv_bfloat16_raw &r) : __x(r.x) {}
  __CUCPU_BF16 __nv_bfloat16 &operator=(const __nv_bfloat16_raw &r) {
    __x = r.x;
    return *this;
  }
  __CUCPU_BF16 constexpr operator __nv_bfloat16_raw() const {
    return __nv_bfloat16_raw{__x};
  }
#if !defined(__CUDA_NO_BFLOAT16_CONVERSIONS__)
  __CUCPU_BF16 __nv_bfloat16(float f)
      : __x(__cucpu_f16::fromFloat<__cucpu_format>(f, __cucpu_f16::ToNearest)) {
  }
  __CUCPU_BF16 __nv_bfloat16(double d)
      : __x(__cucpu_f16::fromDouble<__cucpu_format>(d,
                                                    __cucpu_f16::ToNearest)) {}
  __CUCPU_BF16 __nv_bfloat16(int v) : __nv_bfloat16(static_cast<float>(v)) {}
  __CUCPU_BF16 __nv_bfloat16(unsigned v)
      : __nv_bfloat16(static_cast<float>(v)) {}
  __CUCPU_BF16 __nv_bfloat16(short v) : __nv_bfloat16(static_cast<float>(v)) {}
  __CUCPU_BF16 __nv_bfloat16(unsigned short v)
      : __nv_bfloat16(static_cast<float>(v)) {}
  __CUCPU_BF16 __nv_bfloat16(long long v)
      : __nv_bfloat16(static_cast<float>(v)) {}
  __CUCPU_BF16 __nv_bfloat16(unsigned long long v)
      : __nv_bfloat16(static_cast<float>(v)) {}
  __CUCPU_BF16 operator float() const {
    return __cucpu_f16::bfloat16ToFloat(__x);
  }
  __CUCPU_BF16 __nv_bfloat16 &operator=(float f) {
    return *this = __nv_bfloat16(f);
  }
  __CUCPU_BF16 __nv_bfloat16 &operator=(double d) {
    return *this = __nv_bfloat16(d);
  }
  __CUCPU_BF16 explicit operator bool() const { return (__x & 0x7fff) != 0; }
  __CUCPU_BF16 explicit operator int() const {
    return static_cast<int>(float(*this));
  }
  __CUCPU_BF16 explicit operator unsigned() const {
    return static_cast<unsigned>(float(*this));
  }
  __CUCPU_BF16 explicit operator long long() const {
    return static_cast<long long>(float(*this));
  }
  __CUCPU_BF16 explicit operator double() const { return float(*this); }
#endif
};

/// Two bfloat16 values, as one 32-bit word (x in the low half).
struct alignas(4) __nv_bfloat162 {
  __nv_bfloat16 x;
  __nv_bfloat16 y;

  __nv_bfloat162() = default;
  __CUCPU_BF16 constexpr __nv_bfloat162(const __nv_bfloat16 &a,
                                        const __nv_bfloat16 &b)
      : x(a), y(b) {}
  __CUCPU_BF16 constexpr __nv_bfloat162(const __nv_bfloat162_raw &r)
      : x(__nv_bfloat16_raw{r.x}), y(__nv_bfloat16_raw{r.y}) {}
  __CUCPU_BF16 __nv_bfloat162 &operator=(const __nv_bfloat162_raw &r) {
    x = __nv_bfloat16_raw{r.x};
    y = __nv_bfloat16_raw{r.y};
    return *this;
  }
  __CUCPU_BF16 operator __nv_bfloat162_raw() const {
    return __nv_bfloat162_raw{x.__x, y.__x};
  }
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

#undef __CUCPU_BF16

#endif // __CUDA_BF16_H__
