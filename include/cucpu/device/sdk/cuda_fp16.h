//===- cuda_fp16.h - Half precision for cucc kernels --------------*- C++
//-*-===//
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
#define __CUCPU_F16 __host__ __device__ inline

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

  __half() = default;
  __CUCPU_F16 constexpr __half(const __half_raw &r) : __x(r.x) {}
  __CUCPU_F16 __half &operator=(const __half_raw &r) {
    __x = r.x;
    return *this;
  }
  __CUCPU_F16 constexpr operator __half_raw() const { return __half_raw{__x}; }
  /// What the prelude's __float2half_rn returns.
  __CUCPU_F16 constexpr __half(__cucpu_half_bits b) : __x(b.bits) {}
#if !defined(__CUDA_NO_HALF_CONVERSIONS__)
  __CUCPU_F16 __half(float f)
      : __x(__cucpu_f16::fromFloat<__cucpu_f16::HalfFormat>(
            f, __cucpu_f16::ToNearest)) {}
  __CUCPU_F16 __half(double d)
      : __x(__cucpu_f16::fromDouble<__cucpu_f16::HalfFormat>(
            d, __cucpu_f16::ToNearest)) {}
  __CUCPU_F16 __half(int v) : __half(static_cast<float>(v)) {}
  __CUCPU_F16 __half(unsigned v) : __half(static_cast<float>(v)) {}
  __CUCPU_F16 __half(short v) : __half(static_cast<float>(v)) {}
  __CUCPU_F16 __half(unsigned short v) : __half(static_cast<float>(v)) {}
  __CUCPU_F16 __half(long v) : __half(static_cast<float>(v)) {}
  __CUCPU_F16 __half(unsigned long v) : __half(static_cast<float>(v)) {}
  __CUCPU_F16 __half(long long v) : __half(static_cast<float>(v)) {}
  __CUCPU_F16 __half(unsigned long long v) : __half(static_cast<float>(v)) {}
  __CUCPU_F16 operator float() const { return __cucpu_f16::halfToFloat(__x); }
  __CUCPU_F16 __half &operator=(float f) { return *this = __half(f); }
  __CUCPU_F16 __half &operator=(double d) { return *this = __half(d); }
  __CUCPU_F16 explicit operator bool() const { return (__x & 0x7fff) != 0; }
  __CUCPU_F16 explicit operator int() const {
    return static_cast<int>(float(*this));
  }
  __CUCPU_F16 explicit operator unsigned() const {
    return static_cast<unsigned>(float(*this));
  }
  __CUCPU_F16 explicit operator short() const {
    return static_cast<short>(float(*this));
  }
  __CUCPU_F16 explicit operator unsigned short() const {
    return static_cast<unsigned short>(float(*this));
  }
  __CUCPU_F16 explicit operator long long() const {
    return static_cast<long long>(float(*this));
  }
  __CUCPU_F16 explicit operator unsigned long long() const {
    return static_cast<unsigned long long>(float(*this));
  }
  __CUCPU_F16 explicit operator double() const { return float(*this); }
#endif
};

/// Two halves, as one 32-bit word (x in the low half).
struct alignas(4) __half2 {
  __half x;
  __half y;

  __half2() = default;
  __CUCPU_F16 constexpr __half2(const __half &a, const __half &b)
      : x(a), y(b) {}
  __CUCPU_F16 constexpr __half2(const __half2_raw &r)
      : x(__half_raw{r.x}), y(__half_raw{r.y}) {}
  __CUCPU_F16 __half2 &operator=(const __half2_raw &r) {
    x = __half_raw{r.x};
    y = __half_raw{r.y};
    return *this;
  }
  __CUCPU_F16 operator __half2_raw() const { return __half2_raw{x.__x, y.__x}; }
};

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

#undef __CUCPU_F16

#endif // __CUDA_FP16_H__
