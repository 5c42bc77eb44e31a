// Double-precision math sweeps: one kernel per function, Y[i] = f(X[i]) (or
// f(X[i], Z[i])); the grid covers the buffers exactly. The runner checks
// the results against a long double host reference (sweep() inputs and
// F(...)~<n>ulp checks in KernelRunner.cpp).
#define SWEEP1(Name, Expr)                                                     \
  extern "C" __global__ void Name(const double *X, double *Y) {                \
    unsigned I = blockIdx.x * blockDim.x + threadIdx.x;                        \
    double x = X[I];                                                           \
    Y[I] = Expr;                                                               \
  }
#define SWEEP2(Name, Expr)                                                     \
  extern "C" __global__ void Name(const double *X, const double *Z,            \
                                  double *Y) {                                 \
    unsigned I = blockIdx.x * blockDim.x + threadIdx.x;                        \
    double x = X[I], y = Z[I];                                                 \
    Y[I] = Expr;                                                               \
  }

SWEEP1(sweep_sin, sin(x))
SWEEP1(sweep_cos, cos(x))
SWEEP1(sweep_tan, tan(x))
SWEEP1(sweep_asin, asin(x))
SWEEP1(sweep_acos, acos(x))
SWEEP1(sweep_atan, atan(x))
SWEEP2(sweep_atan2, atan2(x, y))
SWEEP1(sweep_sinh, sinh(x))
SWEEP1(sweep_cosh, cosh(x))
SWEEP1(sweep_tanh, tanh(x))
SWEEP1(sweep_asinh, asinh(x))
SWEEP1(sweep_acosh, acosh(x))
SWEEP1(sweep_atanh, atanh(x))
SWEEP1(sweep_exp, exp(x))
SWEEP1(sweep_exp2, exp2(x))
SWEEP1(sweep_exp10, exp10(x))
SWEEP1(sweep_expm1, expm1(x))
SWEEP1(sweep_log, log(x))
SWEEP1(sweep_log2, log2(x))
SWEEP1(sweep_log10, log10(x))
SWEEP1(sweep_log1p, log1p(x))
SWEEP2(sweep_pow, pow(x, y))
SWEEP1(sweep_sqrt, sqrt(x))
SWEEP1(sweep_rsqrt, rsqrt(x))
SWEEP1(sweep_cbrt, cbrt(x))
SWEEP1(sweep_rcbrt, rcbrt(x))
SWEEP2(sweep_hypot, hypot(x, y))
SWEEP1(sweep_erf, erf(x))
SWEEP1(sweep_erfc, erfc(x))
SWEEP1(sweep_erfinv, erfinv(x))
SWEEP1(sweep_erfcinv, erfcinv(x))
SWEEP1(sweep_lgamma, lgamma(x))
SWEEP1(sweep_tgamma, tgamma(x))
SWEEP2(sweep_fmod, fmod(x, y))
SWEEP2(sweep_remainder, remainder(x, y))
SWEEP1(sweep_sinpi, sinpi(x))
SWEEP1(sweep_cospi, cospi(x))
SWEEP1(sweep_normcdf, normcdf(x))
SWEEP2(sweep_div, x / y)

// sincos: both results.
extern "C" __global__ void sweep_sincos(const double *X, double *S, double *C) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  sincos(X[I], &S[I], &C[I]);
}
