// Every double math function of CUDA's math API compiles to libdevice calls.
// CHECK-DAG: call {{.*}}@__nv_sin(
// CHECK-DAG: call {{.*}}@__nv_exp(
// CHECK-DAG: call {{.*}}@__nv_pow(
// CHECK-DAG: call {{.*}}@__nv_erfinv(
// CHECK-DAG: call {{.*}}@__nv_cyl_bessel_i0(
// CHECK-DAG: call {{.*}}@__nv_normcdfinv(
// CHECK-DAG: call {{.*}}@__nv_remquo(
// CHECK-DAG: call {{.*}}@__nv_sincospi(
// CHECK-DAG: call {{.*}}@__nv_rnorm4d(
// CHECK-DAG: call {{.*}}@__nv_llrint(
// CHECK-DAG: call {{.*}}@__nv_rsqrt(
// CHECK-DAG: call {{.*}}@__nv_fmin(
__global__ void math_double(double *Out, const double *In) {
  int I = 0, E = 0;
  double X = In[0], Y = In[1], Z = In[2];
  double V[3] = {X, Y, Z};
  Out[I++] = acos(X);
  Out[I++] = acosh(X);
  Out[I++] = asin(X);
  Out[I++] = asinh(X);
  Out[I++] = atan(X);
  Out[I++] = atanh(X);
  Out[I++] = cbrt(X);
  Out[I++] = ceil(X);
  Out[I++] = cos(X);
  Out[I++] = cosh(X);
  Out[I++] = cospi(X);
  Out[I++] = cyl_bessel_i0(X);
  Out[I++] = cyl_bessel_i1(X);
  Out[I++] = erfc(X);
  Out[I++] = erfcinv(X);
  Out[I++] = erfcx(X);
  Out[I++] = erf(X);
  Out[I++] = erfinv(X);
  Out[I++] = exp10(X);
  Out[I++] = exp2(X);
  Out[I++] = exp(X);
  Out[I++] = expm1(X);
  Out[I++] = fabs(X);
  Out[I++] = floor(X);
  Out[I++] = j0(X);
  Out[I++] = j1(X);
  Out[I++] = lgamma(X);
  Out[I++] = log10(X);
  Out[I++] = log1p(X);
  Out[I++] = log2(X);
  Out[I++] = logb(X);
  Out[I++] = log(X);
  Out[I++] = nearbyint(X);
  Out[I++] = normcdf(X);
  Out[I++] = normcdfinv(X);
  Out[I++] = rcbrt(X);
  Out[I++] = rint(X);
  Out[I++] = round(X);
  Out[I++] = rsqrt(X);
  Out[I++] = sin(X);
  Out[I++] = sinh(X);
  Out[I++] = sinpi(X);
  Out[I++] = sqrt(X);
  Out[I++] = tan(X);
  Out[I++] = tanh(X);
  Out[I++] = tgamma(X);
  Out[I++] = trunc(X);
  Out[I++] = y0(X);
  Out[I++] = y1(X);
  Out[I++] = atan2(X, Y);
  Out[I++] = copysign(X, Y);
  Out[I++] = fdim(X, Y);
  Out[I++] = fmax(X, Y);
  Out[I++] = fmin(X, Y);
  Out[I++] = fmod(X, Y);
  Out[I++] = hypot(X, Y);
  Out[I++] = nextafter(X, Y);
  Out[I++] = pow(X, Y);
  Out[I++] = remainder(X, Y);
  Out[I++] = rhypot(X, Y);
  Out[I++] = (double)ilogb(X);
  Out[I++] = (double)lrint(X);
  Out[I++] = (double)lround(X);
  Out[I++] = (double)llrint(X);
  Out[I++] = (double)llround(X);
  Out[I++] = fma(X, Y, Z);
  Out[I++] = frexp(X, &E);
  Out[I++] = ldexp(X, E);
  Out[I++] = scalbn(X, E);
  Out[I++] = modf(X, &Z);
  Out[I++] = remquo(X, Y, &E);
  Out[I++] = jn(2, X) + yn(2, X);
  Out[I++] = norm3d(X, Y, Z) + norm4d(X, Y, Z, X) + rnorm3d(X, Y, Z) + rnorm4d(X, Y, Z, X);
  Out[I++] = norm(3, V) + rnorm(3, V);
  sincos(X, &Y, &Z);
  Out[I++] = Y + Z;
  sincospi(X, &Y, &Z);
  Out[I++] = Y + Z + nan("") + isnan(X) + isinf(X) + isfinite(X) + signbit(X);
  // The C++ overloads nvcc provides.
  Out[I++] = sin(X) + std::cos(X) + sqrt(X) + pow(X, 2) + abs(X) + rsqrt(X) + min(X, Y) + max(X, 1.0);
  Out[I++] = E;
}
