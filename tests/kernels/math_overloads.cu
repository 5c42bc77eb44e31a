// Every C++ math overload nvcc provides for float (math_functions.hpp, and
// the float/integer overloads of <cmath>): one kernel each, Y[i] = f(X[i]),
// checked against the host's long double libm (tests.cmake). Calling the
// overload, not the f-suffixed C function, is the point: each must be
// defined, or the module does not load, and must compute in float. Integer
// arguments and results travel as floats.
#define OV1(Name, Expr)                                                        \
  extern "C" __global__ void ov_##Name(const float *X, float *Y) {             \
    unsigned I = blockIdx.x * blockDim.x + threadIdx.x;                        \
    float x = X[I];                                                            \
    Y[I] = Expr;                                                               \
  }
#define OV2(Name, Expr)                                                        \
  extern "C" __global__ void ov_##Name(const float *X, const float *Z,         \
                                       float *Y) {                             \
    unsigned I = blockIdx.x * blockDim.x + threadIdx.x;                        \
    float x = X[I], y = Z[I];                                                  \
    Y[I] = Expr;                                                               \
  }

OV1(logb, logb(x))
OV1(ilogb, float(ilogb(x)))
OV2(scalbn, scalbn(x, int(y)))
OV2(scalbln, scalbln(x, long(y)))
OV2(ldexp, ldexp(x, int(y)))
OV1(exp2, exp2(x))
OV1(exp10, exp10(x))
OV1(expm1, expm1(x))
OV1(log2, log2(x))
OV1(log1p, log1p(x))
OV1(acosh, acosh(x))
OV1(asinh, asinh(x))
OV1(atanh, atanh(x))
OV2(hypot, hypot(x, y))
OV1(cbrt, cbrt(x))
OV1(erf, erf(x))
OV1(erfc, erfc(x))
OV1(lgamma, lgamma(x))
OV1(tgamma, tgamma(x))
OV2(copysign, copysign(x, y))
OV2(nextafter, nextafter(x, y))
OV2(remainder, remainder(x, y))
OV1(round, round(x))
OV1(lround, float(lround(x)))
OV1(llround, float(llround(x)))
OV1(trunc, trunc(x))
OV1(rint, rint(x))
OV1(lrint, float(lrint(x)))
OV1(llrint, float(llrint(x)))
OV1(nearbyint, nearbyint(x))
OV2(fdim, fdim(x, y))
OV2(fmax, fmax(x, y))
OV2(fmin, fmin(x, y))
OV1(j0, j0(x))
OV1(j1, j1(x))
OV2(jn, jn(int(x), y))
OV1(y0, y0(x))
OV1(y1, y1(x))
OV2(yn, yn(int(x), y))
OV1(cyl_bessel_i0, cyl_bessel_i0(x))
OV1(cyl_bessel_i1, cyl_bessel_i1(x))
OV1(rsqrt, rsqrt(x))
OV1(rcbrt, rcbrt(x))
OV1(sinpi, sinpi(x))
OV1(cospi, cospi(x))
OV1(erfinv, erfinv(x))
OV1(erfcinv, erfcinv(x))
OV1(normcdf, normcdf(x))
OV1(abs, abs(x))
OV2(min, min(x, y))
OV2(max, max(x, y))
OV2(copysign_fd, float(copysign(x, double(y))))
OV2(copysign_df, float(copysign(double(x), y)))

extern "C" __global__ void ov_fma(const float *X, const float *Z,
                                  const float *W, float *Y) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  Y[I] = fma(X[I], Z[I], W[I]);
}

// Overloads with pointer results: both results.
extern "C" __global__ void ov_sincos(const float *X, float *S, float *C) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  sincos(X[I], &S[I], &C[I]);
}
extern "C" __global__ void ov_sincospi(const float *X, float *S, float *C) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  sincospi(X[I], &S[I], &C[I]);
}
extern "C" __global__ void ov_frexp(const float *X, float *M, float *E) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  int Exp = 0;
  M[I] = frexp(X[I], &Exp);
  E[I] = float(Exp);
}
extern "C" __global__ void ov_modf(const float *X, float *F, float *N) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  F[I] = modf(X[I], &N[I]);
}
extern "C" __global__ void ov_remquo(const float *X, const float *Z, float *R,
                                     float *Q) {
  unsigned I = blockIdx.x * blockDim.x + threadIdx.x;
  int Quo = 0;
  R[I] = remquo(X[I], Z[I], &Quo);
  // The sign and at least the three low bits of the quotient are defined.
  Q[I] = float(Quo % 8);
}

// nan(tag) and nanf(tag) give NaNs: Y[i] = 2.
extern "C" __global__ void ov_nan(float *Y) {
  Y[threadIdx.x] = float(isnan(nan("")) + isnan(nanf("1")));
}

// A __device__ constexpr function that calls math: nvcc accepts it.
__device__ constexpr float constexprHypot() { return hypot(3.0f, 4.0f); }
extern "C" __global__ void ov_constexpr(float *Y) {
  Y[threadIdx.x] = constexprHypot();
}

// Integer and mixed-signedness min/max and abs (math_functions.hpp): mixed
// signedness compares as unsigned. Each result by hand in its comment.
extern "C" __global__ void ov_integers(const int *In, long long *Out) {
  int M = In[0];                  // -5
  unsigned U = unsigned(In[1]);   // 3
  long L = In[0];                 // -5
  unsigned long UL = 7;           //
  long long LL = In[0];           // -5
  unsigned long long ULL = 9;     //
  Out[0] = abs(M);                // 5
  Out[1] = abs(L);                // 5
  Out[2] = abs(LL);               // 5
  Out[3] = min(M, U);             // unsigned(-5) > 3: 3
  Out[4] = max(M, U);             // 4294967291
  Out[5] = min(U, M);             // 3
  Out[6] = min(L, L + 1);         // -5
  Out[7] = max(L, UL);            // unsigned long(-5): 18446744073709551611
  Out[8] = (long long)min(LL, ULL); // 9
  Out[9] = max(LL, LL + 10);      // 5
  Out[10] = min(U, 2u);           // 2
  Out[11] = max(UL, (unsigned long)U); // 7
}
