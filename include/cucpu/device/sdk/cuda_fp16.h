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

struct __half;
__CUDA_FP16_DECL__ __half __float2half(float a);
__CUDA_FP16_DECL__ float __half2float(__half a);

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

#define __CUCPU_HALF_FROM_FLOAT(Name, Mode)                                    \
  __CUDA_FP16_DECL__ __half Name(float a) {                                    \
    return __cucpu_f16::round<__half>(a, __cucpu_f16::Mode);                   \
  }
// __float2half_rn is the prelude's (its result converts to __half).
__CUCPU_HALF_FROM_FLOAT(__float2half, ToNearest)
__CUCPU_HALF_FROM_FLOAT(__float2half_rz, TowardZero)
__CUCPU_HALF_FROM_FLOAT(__float2half_rd, Downward)
__CUCPU_HALF_FROM_FLOAT(__float2half_ru, Upward)
#undef __CUCPU_HALF_FROM_FLOAT

__CUDA_FP16_DECL__ __half __double2half(double a) {
  return __cucpu_f16::bits<__half>(
      __cucpu_f16::fromDouble<__cucpu_f16::HalfFormat>(a,
                                                       __cucpu_f16::ToNearest));
}
__CUDA_FP16_DECL__ float __half2float(__half a) {
  return __cucpu_f16::value(a);
}
__CUDA_FP16_DECL__ __half2 __float2half2_rn(float a) {
  return __half2(__float2half(a), __float2half(a));
}
__CUDA_FP16_DECL__ __half2 __floats2half2_rn(float a, float b) {
  return __half2(__float2half(a), __float2half(b));
}
__CUDA_FP16_DECL__ __half2 __float22half2_rn(float2 a) {
  return __floats2half2_rn(a.x, a.y);
}
__CUDA_FP16_DECL__ float2 __half22float2(__half2 a) {
  return make_float2(__half2float(a.x), __half2float(a.y));
}
__CUDA_FP16_DECL__ __half __low2half(__half2 a) { return a.x; }
__CUDA_FP16_DECL__ __half __high2half(__half2 a) { return a.y; }
__CUDA_FP16_DECL__ __half2 __halves2half2(__half a, __half b) {
  return __half2(a, b);
}
__CUDA_FP16_DECL__ __half2 __half2half2(__half a) { return __half2(a, a); }
__CUDA_FP16_DECL__ __half2 make_half2(__half x, __half y) {
  return __half2(x, y);
}
__CUDA_FP16_DECL__ __half2 __low2half2(__half2 a) { return __half2(a.x, a.x); }
__CUDA_FP16_DECL__ __half2 __high2half2(__half2 a) { return __half2(a.y, a.y); }
__CUDA_FP16_DECL__ __half2 __lows2half2(__half2 a, __half2 b) {
  return __half2(a.x, b.x);
}
__CUDA_FP16_DECL__ __half2 __highs2half2(__half2 a, __half2 b) {
  return __half2(a.y, b.y);
}

__CUCPU_F16_INTEGER_CONVERSIONS(__half, half)

__CUDA_FP16_DECL__ short __half_as_short(__half h) {
  return static_cast<short>(h.__x);
}
__CUDA_FP16_DECL__ unsigned short __half_as_ushort(__half h) { return h.__x; }
__CUDA_FP16_DECL__ __half __short_as_half(short i) {
  return __cucpu_f16::bits<__half>(static_cast<unsigned short>(i));
}
__CUDA_FP16_DECL__ __half __ushort_as_half(unsigned short i) {
  return __cucpu_f16::bits<__half>(i);
}

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
