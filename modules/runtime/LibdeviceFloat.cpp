//===- LibdeviceFloat.cpp - libdevice's single-precision math -------------===//
//
// Single-precision functions are the C library's float functions where they
// exist, otherwise the double function rounded once to float (a double
// result within 1 ulp of double rounds to within 1 ulp of float). The fast
// intrinsics (__sinf, __expf, ...) return accurate results: CUDA bounds
// their error from above only. __fdividef keeps its documented special
// case, which programs can observe.
//
//===----------------------------------------------------------------------===//
#include "cucpu/modules/runtime/RuntimeLibrary.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <math.h>

extern "C" {
double __nv_cospi(double);
double __nv_sinpi(double);
double __nv_cyl_bessel_i0(double);
double __nv_cyl_bessel_i1(double);
double __nv_erfcinv(double);
double __nv_erfinv(double);
double __nv_erfcx(double);
double __nv_normcdf(double);
double __nv_normcdfinv(double);
double __nv_norm(int, const double *);

#define NV_F1(Name, Expr)                                                      \
  float __nv_##Name(float X) { return Expr; }
#define NV_F2(Name, Expr)                                                      \
  float __nv_##Name(float X, float Y) { return Expr; }

NV_F1(acosf, ::acosf(X))
NV_F1(acoshf, ::acoshf(X))
NV_F1(asinf, ::asinf(X))
NV_F1(asinhf, ::asinhf(X))
NV_F2(atan2f, ::atan2f(X, Y))
NV_F1(atanf, ::atanf(X))
NV_F1(atanhf, ::atanhf(X))
NV_F1(cbrtf, ::cbrtf(X))
NV_F1(ceilf, ::ceilf(X))
NV_F2(copysignf, ::copysignf(X, Y))
NV_F1(cosf, ::cosf(X))
NV_F1(coshf, ::coshf(X))
NV_F1(cospif, float(__nv_cospi(X)))
NV_F1(cyl_bessel_i0f, float(__nv_cyl_bessel_i0(X)))
NV_F1(cyl_bessel_i1f, float(__nv_cyl_bessel_i1(X)))
NV_F1(erfcf, ::erfcf(X))
NV_F1(erfcinvf, float(__nv_erfcinv(X)))
NV_F1(erfcxf, float(__nv_erfcx(X)))
NV_F1(erff, ::erff(X))
NV_F1(erfinvf, float(__nv_erfinv(X)))
NV_F1(exp10f, ::exp10f(X))
NV_F1(exp2f, ::exp2f(X))
NV_F1(expf, ::expf(X))
NV_F1(expm1f, ::expm1f(X))
NV_F1(fabsf, ::fabsf(X))
NV_F2(fdimf, ::fdimf(X, Y))
NV_F1(floorf, ::floorf(X))
float __nv_fmaf(float X, float Y, float Z) { return ::fmaf(X, Y, Z); }
NV_F2(fmaxf, ::fmaxf(X, Y))
NV_F2(fminf, ::fminf(X, Y))
NV_F2(fmodf, ::fmodf(X, Y))
float __nv_frexpf(float X, int *E) { return ::frexpf(X, E); }
NV_F2(hypotf, float(std::hypot(double(X), double(Y))))
NV_F1(j0f, ::j0f(X))
NV_F1(j1f, ::j1f(X))
float __nv_jnf(int N, float X) { return ::jnf(N, X); }
float __nv_ldexpf(float X, int E) { return ::ldexpf(X, E); }
float __nv_lgammaf(float X) {
  int Sign;
  return ::lgammaf_r(X, &Sign);
}
NV_F1(log10f, ::log10f(X))
NV_F1(log1pf, ::log1pf(X))
NV_F1(log2f, ::log2f(X))
NV_F1(logbf, ::logbf(X))
NV_F1(logf, ::logf(X))
float __nv_modff(float X, float *I) { return ::modff(X, I); }
float __nv_nanf(const signed char *Tag) {
  return ::nanf(reinterpret_cast<const char *>(Tag));
}
NV_F1(nearbyintf, ::nearbyintf(X))
NV_F2(nextafterf, ::nextafterf(X, Y))
float __nv_norm3df(float A, float B, float C) {
  double V[] = {A, B, C};
  return float(__nv_norm(3, V));
}
float __nv_norm4df(float A, float B, float C, float D) {
  double V[] = {A, B, C, D};
  return float(__nv_norm(4, V));
}
NV_F1(normcdff, float(__nv_normcdf(X)))
NV_F1(normcdfinvf, float(__nv_normcdfinv(X)))
float __nv_normf(int N, const float *V) {
  double Sum = 0.0;
  bool Inf = false;
  for (int I = 0; I < N; ++I) {
    Inf |= std::isinf(V[I]);
    Sum += double(V[I]) * double(V[I]);
  }
  return Inf ? INFINITY : float(std::sqrt(Sum));
}
NV_F2(powf, ::powf(X, Y))
float __nv_powif(float X, int N) {
  return float(std::pow(double(X), double(N)));
}
NV_F1(rcbrtf, float(1.0 / std::cbrt(double(X))))
NV_F2(remainderf, ::remainderf(X, Y))
float __nv_remquof(float X, float Y, int *Q) { return ::remquof(X, Y, Q); }
NV_F2(rhypotf, float(1.0 / std::hypot(double(X), double(Y))))
NV_F1(rintf, ::rintf(X))
float __nv_rnorm3df(float A, float B, float C) {
  return float(1.0 / double(__nv_norm3df(A, B, C)));
}
float __nv_rnorm4df(float A, float B, float C, float D) {
  double V[] = {A, B, C, D};
  return float(1.0 / __nv_norm(4, V));
}
float __nv_rnormf(int N, const float *V) {
  return float(1.0 / double(__nv_normf(N, V)));
}
NV_F1(roundf, ::roundf(X))
NV_F1(rsqrtf, float(1.0 / std::sqrt(double(X))))
/// __saturatef: clamps to [0, 1]; NaN gives 0.
NV_F1(saturatef, X >= 1.0f ? 1.0f : (X > 0.0f ? X : 0.0f))
float __nv_scalbnf(float X, int E) { return ::scalbnf(X, E); }
NV_F1(sinf, ::sinf(X))
void __nv_sincosf(float X, float *S, float *C) {
  *S = ::sinf(X);
  *C = ::cosf(X);
}
void __nv_sincospif(float X, float *S, float *C) {
  *S = float(__nv_sinpi(X));
  *C = float(__nv_cospi(X));
}
NV_F1(sinhf, ::sinhf(X))
NV_F1(sinpif, float(__nv_sinpi(X)))
NV_F1(sqrtf, ::sqrtf(X))
NV_F1(tanf, ::tanf(X))
NV_F1(tanhf, ::tanhf(X))
NV_F1(tgammaf, ::tgammaf(X))
NV_F1(truncf, ::truncf(X))
NV_F1(y0f, ::y0f(X))
NV_F1(y1f, ::y1f(X))
float __nv_ynf(int N, float X) { return ::ynf(N, X); }

// Fast intrinsics.
NV_F1(fast_cosf, ::cosf(X))
NV_F1(fast_exp10f, ::exp10f(X))
NV_F1(fast_expf, ::expf(X))
NV_F1(fast_log10f, ::log10f(X))
NV_F1(fast_log2f, ::log2f(X))
NV_F1(fast_logf, ::logf(X))
NV_F2(fast_powf, ::powf(X, Y))
NV_F1(fast_sinf, ::sinf(X))
NV_F1(fast_tanf, ::tanf(X))
void __nv_fast_sincosf(float X, float *S, float *C) {
  *S = ::sinf(X);
  *C = ::cosf(X);
}
/// "__fdividef(x, y) ... for 2^126 < |y| < 2^128, __fdividef(x,y) delivers a
/// result of zero, ... if x is infinity, __fdividef(x,y) delivers a NaN"
/// (CUDA C Programming Guide, Intrinsic Functions).
float __nv_fast_fdividef(float X, float Y) {
  float A = ::fabsf(Y);
  if (A > 0x1p126f && A < INFINITY)
    return X * ::copysignf(0.0f, Y); // 1/y flushed to zero; inf*0 is NaN
  return X / Y;
}

// Classification and bit casts.
int __nv_finitef(float X) { return std::isfinite(X); }
int __nv_isinff(float X) { return std::isinf(X); }
int __nv_isnanf(float X) { return std::isnan(X); }
int __nv_signbitf(float X) { return std::signbit(X); }
int __nv_ilogbf(float X) { return ::ilogbf(X); }
int __nv_float_as_int(float X) {
  int I;
  std::memcpy(&I, &X, 4);
  return I;
}
unsigned __nv_float_as_uint(float X) {
  unsigned I;
  std::memcpy(&I, &X, 4);
  return I;
}
float __nv_int_as_float(int I) {
  float X;
  std::memcpy(&X, &I, 4);
  return X;
}
float __nv_uint_as_float(unsigned I) {
  float X;
  std::memcpy(&X, &I, 4);
  return X;
}

#undef NV_F1
#undef NV_F2
} // extern "C"

void cucpu::modules::addLibdeviceFloat(llvm::StringMap<void *> &M) {
#define X(Fn) CUCPU_RT_ADD(M, __nv_##Fn);
  // clang-format off
  X(acosf) X(acoshf) X(asinf) X(asinhf) X(atan2f) X(atanf) X(atanhf) X(cbrtf)
  X(ceilf) X(copysignf) X(cosf) X(coshf) X(cospif) X(cyl_bessel_i0f)
  X(cyl_bessel_i1f) X(erfcf) X(erfcinvf) X(erfcxf) X(erff) X(erfinvf) X(exp10f)
  X(exp2f) X(expf) X(expm1f) X(fabsf) X(fdimf) X(floorf) X(fmaf) X(fmaxf)
  X(fminf) X(fmodf) X(frexpf) X(hypotf) X(j0f) X(j1f) X(jnf) X(ldexpf)
  X(lgammaf) X(log10f) X(log1pf) X(log2f) X(logbf) X(logf) X(modff) X(nanf)
  X(nearbyintf) X(nextafterf) X(norm3df) X(norm4df) X(normcdff) X(normcdfinvf)
  X(normf) X(powf) X(powif) X(rcbrtf) X(remainderf) X(remquof) X(rhypotf)
  X(rintf) X(rnorm3df) X(rnorm4df) X(rnormf) X(roundf) X(rsqrtf) X(saturatef)
  X(scalbnf) X(sinf) X(sincosf) X(sincospif) X(sinhf) X(sinpif) X(sqrtf)
  X(tanf) X(tanhf) X(tgammaf) X(truncf) X(y0f) X(y1f) X(ynf) X(fast_cosf)
  X(fast_exp10f) X(fast_expf) X(fast_log10f) X(fast_log2f) X(fast_logf)
  X(fast_powf) X(fast_sinf) X(fast_tanf) X(fast_sincosf) X(fast_fdividef)
  X(finitef) X(isinff) X(isnanf) X(signbitf) X(ilogbf) X(float_as_int)
  X(float_as_uint) X(int_as_float) X(uint_as_float)
  // clang-format on
#undef X
}
