//===- detail/math_overloads.h - nvcc's C++ math overloads ------*- C++ -*-===//
//
// The float overloads of the C math functions that CUDA's math_functions.hpp
// defines (hypot(float, float), round(float), fma(float, float, float), ...)
// and the other C++ overloads nvcc provides for float and integers (sincos,
// exp10, the Bessel functions, mixed copysign), plus nan/nanf. clang's
// __clang_cuda_math_forward_declares.h declares many of them and leaves their
// definitions to the SDK; without these a kernel compiles and cuModuleLoad
// fails on an undefined `_ZL5hypotff`. Part of the prelude, read after
// clang's math headers.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DEVICE_DETAIL_MATH_OVERLOADS_H
#define CUCPU_DEVICE_DETAIL_MATH_OVERLOADS_H

#define __CUCPU_MATH_FN static __device__ __forceinline__

#define __CUCPU_F1(R, Name)                                                    \
  __CUCPU_MATH_FN R Name(float X) { return Name##f(X); }
#define __CUCPU_F2(Name)                                                       \
  __CUCPU_MATH_FN float Name(float X, float Y) { return Name##f(X, Y); }

// math_functions.hpp's list, in its order.
__CUCPU_F1(float, logb)
__CUCPU_F1(int, ilogb)
__CUCPU_MATH_FN float scalbn(float X, int N) { return scalbnf(X, N); }
__CUCPU_MATH_FN float scalbln(float X, long N) { return scalblnf(X, N); }
__CUCPU_F1(float, exp2)
__CUCPU_F1(float, expm1)
__CUCPU_F1(float, log2)
__CUCPU_F1(float, log1p)
__CUCPU_F1(float, acosh)
__CUCPU_F1(float, asinh)
__CUCPU_F1(float, atanh)
__CUCPU_F2(hypot)
__CUCPU_F1(float, cbrt)
__CUCPU_F1(float, erf)
__CUCPU_F1(float, erfc)
__CUCPU_F1(float, lgamma)
__CUCPU_F1(float, tgamma)
__CUCPU_F2(copysign)
__CUCPU_F2(nextafter)
__CUCPU_F2(remainder)
__CUCPU_MATH_FN float remquo(float X, float Y, int *Quo) {
  return remquof(X, Y, Quo);
}
__CUCPU_F1(float, round)
__CUCPU_F1(long, lround)
__CUCPU_F1(long long, llround)
__CUCPU_F1(float, trunc)
__CUCPU_F1(float, rint)
__CUCPU_F1(long, lrint)
__CUCPU_F1(long long, llrint)
__CUCPU_F1(float, nearbyint)
__CUCPU_F2(fdim)
__CUCPU_MATH_FN float fma(float X, float Y, float Z) { return fmaf(X, Y, Z); }
__CUCPU_F2(fmax)
__CUCPU_F2(fmin)
__CUCPU_F1(float, exp10)
__CUCPU_MATH_FN void sincos(float X, float *S, float *C) { sincosf(X, S, C); }
__CUCPU_F1(float, j0)
__CUCPU_F1(float, j1)
__CUCPU_MATH_FN float jn(int N, float X) { return jnf(N, X); }
__CUCPU_F1(float, y0)
__CUCPU_F1(float, y1)
__CUCPU_MATH_FN float yn(int N, float X) { return ynf(N, X); }
__CUCPU_F1(float, cyl_bessel_i0)
__CUCPU_F1(float, cyl_bessel_i1)
__CUCPU_MATH_FN double copysign(double X, float Y) {
  return copysign(X, (double)Y);
}
__CUCPU_MATH_FN double copysign(float X, double Y) {
  return copysign((double)X, Y);
}

#undef __CUCPU_F1
#undef __CUCPU_F2

// nan and nanf: declared by clang's forward declarations, and by the C
// library, defined by neither for the device.
__CUCPU_MATH_FN double nan(const char *Tag) {
  return __nv_nan((const signed char *)Tag);
}
__CUCPU_MATH_FN float nanf(const char *Tag) {
  return __nv_nanf((const signed char *)Tag);
}

#undef __CUCPU_MATH_FN

#endif // CUCPU_DEVICE_DETAIL_MATH_OVERLOADS_H
