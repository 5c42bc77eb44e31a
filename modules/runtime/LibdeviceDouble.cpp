//===- LibdeviceDouble.cpp - libdevice's double-precision math ------------===//
//
// Host definitions of libdevice's double functions. Most are the C library's
// (glibc is within 1 ulp where CUDA allows 1-8); the ones C lacks (erfinv,
// erfcx, normcdf, Bessel I0/I1, sinpi, rsqrt, ...) are built from it with
// care for the ranges where a naive formula loses accuracy. Where CUDA
// allows 1 ulp and glibc's double function (or a formula of two roundings)
// can be 2 ulp from the correctly rounded result (tanh, exp10, cbrt, rcbrt,
// sinpi, cospi: found by tests/kernels' sweeps; sinh, cosh, log10: 2 ulp in
// glibc's own tables; rsqrt), the long double function is rounded once to
// double instead.
//
//===----------------------------------------------------------------------===//
#include "cucpu/modules/runtime/RuntimeLibrary.h"

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <math.h>

namespace {

constexpr long double PiL = 3.141592653589793238462643383279502884L;
constexpr double TwoOverSqrtPi = 1.12837916709551257390;

/// sin(pi * X) with exact argument reduction: X - 2k is exact in double.
double sinPi(double X) {
  if (std::isinf(X) || std::isnan(X))
    return std::nan("");
  double R = std::fmod(X, 2.0); // exact, in (-2, 2)
  if (R == 0.0)
    return std::copysign(0.0, X);
  if (R > 1.0)
    R -= 2.0;
  else if (R < -1.0)
    R += 2.0;
  // Reduce to [-0.5, 0.5] with sin(pi r) = sin(pi (1 - r)).
  if (R > 0.5)
    R = 1.0 - R;
  else if (R < -0.5)
    R = -1.0 - R;
  return double(std::sin(PiL * R));
}

double cosPi(double X) {
  if (std::isinf(X) || std::isnan(X))
    return std::nan("");
  double R = std::fabs(std::fmod(X, 2.0)); // [0, 2)
  if (R > 1.0)
    R = 2.0 - R; // cos(pi r) = cos(pi (2 - r))
  if (R == 0.5)
    return 0.0;
  if (R > 0.5)
    return double(-std::sin(PiL * (R - 0.5)));
  return double(std::sin(PiL * (0.5 - R)));
}

double erfInv(double Y);

/// The inverse of erfc for Y in (0, 2), by Newton's method on erfc
/// (quadratic convergence from a good start; log form in the far tail).
double erfcInv(double Y) {
  if (std::isnan(Y) || Y < 0.0 || Y > 2.0)
    return std::nan("");
  if (Y == 0.0)
    return INFINITY;
  if (Y == 2.0)
    return -INFINITY;
  if (Y == 1.0)
    return 0.0;
  if (Y > 1.0)
    return -erfcInv(2.0 - Y);
  // Near 1 solve erf(x) = 1 - y (exact) instead: erfc's absolute error
  // there is many ulps of the small result (7.8 ulp at y = 0.93).
  if (Y > 0.5)
    return erfInv(1.0 - Y);
  // Start: asymptotic inverse of erfc(x) ~ exp(-x^2) / (x sqrt(pi)).
  double T = std::sqrt(-std::log(Y));
  double X = T - std::log(T * 1.7724538509055160273) / (2.0 * T);
  if (!(X > 0.0) || Y > 0.3)
    X = 0.5 * (1.0 - Y) * 1.7724538509055160273; // erf(x) ~ 2x/sqrt(pi)
  for (int I = 0; I < 100; ++I) {
    double Dx;
    double E = std::erfc(X);
    if (E > 1e-300) {
      // erfc'(x) = -2/sqrt(pi) exp(-x^2).
      Dx = -(E - Y) / (TwoOverSqrtPi * std::exp(-X * X));
    } else {
      // Newton on log erfc(x) = log y in long double, where erfc(x) does not
      // underflow (an asymptotic series here was 2e4 ulp off at y = 2^-1074).
      long double XL = X, EL = std::erfc(XL);
      long double F = std::log(EL) - std::log((long double)Y);
      long double DF = -(long double)TwoOverSqrtPi * std::exp(-XL * XL) / EL;
      Dx = double(F / DF);
    }
    double Next = X - Dx;
    if (!(std::fabs(Dx) > 1e-17 * std::fabs(X)) || Next == X) {
      X = Next;
      break;
    }
    X = Next;
  }
  return X;
}

double erfInv(double Y) {
  if (std::isnan(Y) || Y < -1.0 || Y > 1.0)
    return std::nan("");
  if (Y == 1.0)
    return INFINITY;
  if (Y == -1.0)
    return -INFINITY;
  if (Y == 0.0)
    return Y;
  // For small |y| solve erf(x) = y directly (1 - y would lose its digits).
  if (std::fabs(Y) < 0.5) {
    double X = Y / TwoOverSqrtPi;
    for (int I = 0; I < 50; ++I) {
      double Dx = (std::erf(X) - Y) / (TwoOverSqrtPi * std::exp(-X * X));
      X -= Dx;
      if (!(std::fabs(Dx) > 1e-17 * std::fabs(X)))
        break;
    }
    return X;
  }
  return Y > 0 ? erfcInv(1.0 - Y) : -erfcInv(1.0 + Y);
}

/// exp(x^2) erfc(x) without overflow, with x^2 split exactly (x*x's rounding
/// error would otherwise be multiplied by 2x^2 ulps).
double erfcx(double X) {
  if (std::isnan(X))
    return X;
  if (X > 26.0) {
    if (std::isinf(X))
      return 0.0;
    // Asymptotic series 1/(x sqrt(pi)) sum (-1)^n (2n-1)!! / (2x^2)^n.
    double Inv = 1.0 / (2.0 * X * X), Term = 1.0, Sum = 1.0;
    for (int N = 1; N < 12; ++N) {
      Term *= -(2.0 * N - 1.0) * Inv;
      Sum += Term;
    }
    return Sum / (X * 1.7724538509055160273);
  }
  double Hi = X * X;
  double Lo = std::fma(X, X, -Hi);
  double E = std::exp(Hi);
  return E * std::erfc(X) + E * Lo * std::erfc(X);
}

/// Phi(x) = erfc(-x / sqrt 2) / 2, with -x / sqrt 2 split into hi + lo and
/// the lo part applied through the derivative of erfc.
double normCdf(double X) {
  if (!std::isfinite(X)) // The split below would give inf - inf.
    return std::isnan(X) ? X : (X > 0 ? 1.0 : 0.0);
  constexpr double R2Hi = 0.70710678118654757;     // 1/sqrt(2) rounded
  constexpr double R2Lo = -4.8336466567264567e-17; // its remainder
  double Zh = -X * R2Hi;
  double Zl = std::fma(-X, R2Hi, -Zh) + (-X) * R2Lo;
  return 0.5 * (std::erfc(Zh) - Zl * TwoOverSqrtPi * std::exp(-Zh * Zh));
}

/// Modified Bessel function of the first kind, order 0 or 1.
double besselI(int Order, double X) {
  if (std::isnan(X))
    return X;
  double A = std::fabs(X);
  if (std::isinf(A))
    return Order == 0 ? INFINITY : std::copysign(INFINITY, X);
  double R = std::cyl_bessel_i(double(Order), A);
  return Order == 1 && X < 0 ? -R : R;
}

/// sqrt of the sum of squares of N values, scaled to avoid overflow.
double scaledNorm(int N, const double *V) {
  double Max = 0.0;
  bool Nan = false;
  for (int I = 0; I < N; ++I) {
    if (std::isinf(V[I]))
      return INFINITY;
    Nan |= std::isnan(V[I]);
    Max = std::fmax(Max, std::fabs(V[I]));
  }
  if (Nan)
    return std::nan("");
  if (Max == 0.0)
    return 0.0;
  double Sum = 0.0;
  for (int I = 0; I < N; ++I) {
    double S = V[I] / Max;
    Sum += S * S;
  }
  return Max * std::sqrt(Sum);
}

double remainderSigned(double X, double Y) {
  double R = std::remainder(X, Y);
  return R == 0.0 ? std::copysign(0.0, X) : R;
}

} // namespace

extern "C" {

#define NV_D1(Name, Expr)                                                      \
  double __nv_##Name(double X) { return Expr; }
#define NV_D2(Name, Expr)                                                      \
  double __nv_##Name(double X, double Y) { return Expr; }

NV_D1(acos, std::acos(X))
NV_D1(acosh, std::acosh(X))
NV_D1(asin, std::asin(X))
NV_D1(asinh, std::asinh(X))
NV_D1(atan, std::atan(X))
NV_D2(atan2, std::atan2(X, Y))
NV_D1(atanh, std::atanh(X))
NV_D1(cbrt, double(std::cbrt((long double)X)))
NV_D1(ceil, std::ceil(X))
NV_D2(copysign, std::copysign(X, Y))
NV_D1(cos, std::cos(X))
NV_D1(cosh, double(std::cosh((long double)X)))
NV_D1(cospi, cosPi(X))
NV_D1(cyl_bessel_i0, besselI(0, X))
NV_D1(cyl_bessel_i1, besselI(1, X))
NV_D1(erf, std::erf(X))
NV_D1(erfc, std::erfc(X))
NV_D1(erfcinv, erfcInv(X))
NV_D1(erfcx, erfcx(X))
NV_D1(erfinv, erfInv(X))
NV_D1(exp, std::exp(X))
NV_D1(exp10, double(::exp10l(X)))
NV_D1(exp2, std::exp2(X))
NV_D1(expm1, std::expm1(X))
NV_D1(fabs, std::fabs(X))
NV_D2(fdim, std::fdim(X, Y))
NV_D1(floor, std::floor(X))
double __nv_fma(double X, double Y, double Z) { return std::fma(X, Y, Z); }
NV_D2(fmax, std::fmax(X, Y))
NV_D2(fmin, std::fmin(X, Y))
NV_D2(fmod, std::fmod(X, Y))
double __nv_frexp(double X, int *E) { return std::frexp(X, E); }
NV_D2(hypot, std::hypot(X, Y))
NV_D1(j0, ::j0(X))
NV_D1(j1, ::j1(X))
double __nv_jn(int N, double X) { return ::jn(N, X); }
double __nv_ldexp(double X, int E) { return std::ldexp(X, E); }
double __nv_lgamma(double X) {
  int Sign;
  return ::lgamma_r(X, &Sign);
}
NV_D1(log, std::log(X))
NV_D1(log10, double(std::log10((long double)X)))
NV_D1(log1p, std::log1p(X))
NV_D1(log2, std::log2(X))
NV_D1(logb, std::logb(X))
double __nv_modf(double X, double *I) { return std::modf(X, I); }
double __nv_nan(const signed char *Tag) {
  return std::nan(reinterpret_cast<const char *>(Tag));
}
NV_D1(nearbyint, std::nearbyint(X))
NV_D2(nextafter, std::nextafter(X, Y))
double __nv_norm(int N, const double *V) { return scaledNorm(N, V); }
double __nv_norm3d(double A, double B, double C) {
  double V[] = {A, B, C};
  return scaledNorm(3, V);
}
double __nv_norm4d(double A, double B, double C, double D) {
  double V[] = {A, B, C, D};
  return scaledNorm(4, V);
}
NV_D1(normcdf, normCdf(X))
NV_D1(normcdfinv, -1.41421356237309504880 * erfcInv(2.0 * X))
NV_D2(pow, std::pow(X, Y))
double __nv_powi(double X, int N) { return std::pow(X, double(N)); }
NV_D1(rcbrt, double(1.0L / std::cbrt((long double)X)))
// A zero result has the sign of X (IEEE 754); glibc's gives +0 for some X.
NV_D2(remainder, remainderSigned(X, Y))
double __nv_remquo(double X, double Y, int *Q) { return std::remquo(X, Y, Q); }
NV_D2(rhypot, 1.0 / std::hypot(X, Y))
NV_D1(rint, std::rint(X))
double __nv_rnorm(int N, const double *V) { return 1.0 / scaledNorm(N, V); }
double __nv_rnorm3d(double A, double B, double C) {
  return 1.0 / __nv_norm3d(A, B, C);
}
double __nv_rnorm4d(double A, double B, double C, double D) {
  return 1.0 / __nv_norm4d(A, B, C, D);
}
NV_D1(round, std::round(X))
NV_D1(rsqrt, double(1.0L / std::sqrt((long double)X)))
double __nv_scalbn(double X, int E) { return std::scalbn(X, E); }
NV_D1(sin, std::sin(X))
void __nv_sincos(double X, double *S, double *C) {
  *S = std::sin(X);
  *C = std::cos(X);
}
void __nv_sincospi(double X, double *S, double *C) {
  *S = sinPi(X);
  *C = cosPi(X);
}
NV_D1(sinh, double(std::sinh((long double)X)))
NV_D1(sinpi, sinPi(X))
NV_D1(sqrt, std::sqrt(X))
NV_D1(tan, std::tan(X))
NV_D1(tanh, double(std::tanh((long double)X)))
NV_D1(tgamma, std::tgamma(X))
NV_D1(trunc, std::trunc(X))
NV_D1(y0, ::y0(X))
NV_D1(y1, ::y1(X))
double __nv_yn(int N, double X) { return ::yn(N, X); }
/// rcp64h: the reciprocal of the high word, as an approximation of 1/x.
double __nv_rcp64h(double X) {
  uint64_t Bits;
  std::memcpy(&Bits, &X, 8);
  Bits &= 0xffffffff00000000ull;
  double Hi;
  std::memcpy(&Hi, &Bits, 8);
  double R = 1.0 / Hi;
  std::memcpy(&Bits, &R, 8);
  Bits &= 0xffffffff00000000ull;
  std::memcpy(&R, &Bits, 8);
  return R;
}

#undef NV_D1
#undef NV_D2
} // extern "C"

void cucpu::modules::addLibdeviceDouble(llvm::StringMap<void *> &M) {
#define X(Fn) CUCPU_RT_ADD(M, __nv_##Fn);
  // clang-format off
  X(acos) X(acosh) X(asin) X(asinh) X(atan) X(atan2) X(atanh) X(cbrt) X(ceil)
  X(copysign) X(cos) X(cosh) X(cospi) X(cyl_bessel_i0) X(cyl_bessel_i1) X(erf)
  X(erfc) X(erfcinv) X(erfcx) X(erfinv) X(exp) X(exp10) X(exp2) X(expm1)
  X(fabs) X(fdim) X(floor) X(fma) X(fmax) X(fmin) X(fmod) X(frexp) X(hypot)
  X(j0) X(j1) X(jn) X(ldexp) X(lgamma) X(log) X(log10) X(log1p) X(log2) X(logb)
  X(modf) X(nan) X(nearbyint) X(nextafter) X(norm) X(norm3d) X(norm4d)
  X(normcdf) X(normcdfinv) X(pow) X(powi) X(rcbrt) X(remainder) X(remquo)
  X(rhypot) X(rint) X(rnorm) X(rnorm3d) X(rnorm4d) X(round) X(rsqrt) X(scalbn)
  X(sin) X(sincos) X(sincospi) X(sinh) X(sinpi) X(sqrt) X(tan) X(tanh)
  X(tgamma) X(trunc) X(y0) X(y1) X(yn) X(rcp64h)
  // clang-format on
#undef X
}
