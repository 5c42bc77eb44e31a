// Single-precision math sweeps: one kernel per function, Y[i] = f(X[i]) (or
// f(X[i], Z[i])); the grid covers the buffers exactly. The runner checks
// the results against a long double host reference (sweep() inputs and
// F(...)~<n>ulp checks in KernelRunner.cpp).
#define SWEEP1(Name, Expr)                                                     \
  extern "C" __global__ void Name(const float *X, float *Y) {                  \
    unsigned I = blockIdx.x * blockDim.x + threadIdx.x;                        \
    float x = X[I];                                                            \
    Y[I] = Expr;                                                               \
  }
#define SWEEP2(Name, Expr)                                                     \
  extern "C" __global__ void Name(const float *X, const float *Z, float *Y) {  \
    unsigned I = blockIdx.x * blockDim.x + threadIdx.x;                        \
    float x = X[I], y = Z[I];                                                  \
    Y[I] = Expr;                                                               \
  }

SWEEP1(sweep_sinf, sinf(x))
SWEEP1(sweep_cosf, cosf(x))
SWEEP1(sweep_tanf, tanf(x))
SWEEP1(sweep_asinf, asinf(x))
SWEEP1(sweep_acosf, acosf(x))
SWEEP1(sweep_atanf, atanf(x))
SWEEP2(sweep_atan2f, atan2f(x, y))
SWEEP1(sweep_sinhf, sinhf(x))
SWEEP1(sweep_coshf, coshf(x))
SWEEP1(sweep_tanhf, tanhf(x))
SWEEP1(sweep_asinhf, asinhf(x))
SWEEP1(sweep_acoshf, acoshf(x))
SWEEP1(sweep_atanhf, atanhf(x))
SWEEP1(sweep_expf, expf(x))
SWEEP1(sweep_exp2f, exp2f(x))
SWEEP1(sweep_exp10f, exp10f(x))
SWEEP1(sweep_expm1f, expm1f(x))
SWEEP1(sweep_logf, logf(x))
SWEEP1(sweep_log2f, log2f(x))
SWEEP1(sweep_log10f, log10f(x))
SWEEP1(sweep_log1pf, log1pf(x))
SWEEP2(sweep_powf, powf(x, y))
SWEEP1(sweep_sqrtf, sqrtf(x))
SWEEP1(sweep_rsqrtf, rsqrtf(x))
SWEEP1(sweep_cbrtf, cbrtf(x))
SWEEP1(sweep_rcbrtf, rcbrtf(x))
SWEEP2(sweep_hypotf, hypotf(x, y))
SWEEP1(sweep_erff, erff(x))
SWEEP1(sweep_erfcf, erfcf(x))
SWEEP1(sweep_erfinvf, erfinvf(x))
SWEEP1(sweep_erfcinvf, erfcinvf(x))
SWEEP1(sweep_lgammaf, lgammaf(x))
SWEEP1(sweep_tgammaf, tgammaf(x))
SWEEP2(sweep_fmodf, fmodf(x, y))
SWEEP2(sweep_remainderf, remainderf(x, y))
SWEEP1(sweep_sinpif, sinpif(x))
SWEEP1(sweep_cospif, cospif(x))
SWEEP1(sweep_normcdff, normcdff(x))
SWEEP2(sweep_divf, x / y)

// sincosf: both results.
extern "C" __global__ void sweep_sincosf(const float *X, float *S, float *C) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  sincosf(X[I], &S[I], &C[I]);
}

// The fast intrinsics, with their own (looser) bounds.
SWEEP1(sweep_fast_sinf, __sinf(x))
SWEEP1(sweep_fast_cosf, __cosf(x))
SWEEP1(sweep_fast_expf, __expf(x))
SWEEP1(sweep_fast_exp10f, __exp10f(x))
SWEEP1(sweep_fast_logf, __logf(x))
SWEEP1(sweep_fast_log2f, __log2f(x))
SWEEP1(sweep_fast_log10f, __log10f(x))
SWEEP2(sweep_fast_fdividef, __fdividef(x, y))
SWEEP2(sweep_fast_powf, __powf(x, y))
