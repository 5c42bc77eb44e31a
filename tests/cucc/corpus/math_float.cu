// Every float math function of CUDA's math API compiles to libdevice calls.
// CHECK-DAG: call {{.*}}@__nv_sinf
// CHECK-DAG: call {{.*}}@__nv_expf
// CHECK-DAG: call {{.*}}@__nv_powf
// CHECK-DAG: call {{.*}}@__nv_erfinvf
// CHECK-DAG: call {{.*}}@__nv_cyl_bessel_i0f
// CHECK-DAG: call {{.*}}@__nv_normcdfinvf
// CHECK-DAG: call {{.*}}@__nv_remquof
// CHECK-DAG: call {{.*}}@__nv_sincospif
// CHECK-DAG: call {{.*}}@__nv_rnorm4df
// CHECK-DAG: call {{.*}}@__nv_llrintf
// CHECK-DAG: call {{.*}}@__nv_rsqrtf
// CHECK-DAG: call {{.*}}@__nv_fminf
__global__ void math_float(float *Out, const float *In) {
  int I = 0, E = 0;
  float X = In[0], Y = In[1], Z = In[2];
  float V[3] = {X, Y, Z};
  Out[I++] = acosf(X);
  Out[I++] = acoshf(X);
  Out[I++] = asinf(X);
  Out[I++] = asinhf(X);
  Out[I++] = atanf(X);
  Out[I++] = atanhf(X);
  Out[I++] = cbrtf(X);
  Out[I++] = ceilf(X);
  Out[I++] = cosf(X);
  Out[I++] = coshf(X);
  Out[I++] = cospif(X);
  Out[I++] = cyl_bessel_i0f(X);
  Out[I++] = cyl_bessel_i1f(X);
  Out[I++] = erfcf(X);
  Out[I++] = erfcinvf(X);
  Out[I++] = erfcxf(X);
  Out[I++] = erff(X);
  Out[I++] = erfinvf(X);
  Out[I++] = exp10f(X);
  Out[I++] = exp2f(X);
  Out[I++] = expf(X);
  Out[I++] = expm1f(X);
  Out[I++] = fabsf(X);
  Out[I++] = floorf(X);
  Out[I++] = j0f(X);
  Out[I++] = j1f(X);
  Out[I++] = lgammaf(X);
  Out[I++] = log10f(X);
  Out[I++] = log1pf(X);
  Out[I++] = log2f(X);
  Out[I++] = logbf(X);
  Out[I++] = logf(X);
  Out[I++] = nearbyintf(X);
  Out[I++] = normcdff(X);
  Out[I++] = normcdfinvf(X);
  Out[I++] = rcbrtf(X);
  Out[I++] = rintf(X);
  Out[I++] = roundf(X);
  Out[I++] = rsqrtf(X);
  Out[I++] = sinf(X);
  Out[I++] = sinhf(X);
  Out[I++] = sinpif(X);
  Out[I++] = sqrtf(X);
  Out[I++] = tanf(X);
  Out[I++] = tanhf(X);
  Out[I++] = tgammaf(X);
  Out[I++] = truncf(X);
  Out[I++] = y0f(X);
  Out[I++] = y1f(X);
  Out[I++] = atan2f(X, Y);
  Out[I++] = copysignf(X, Y);
  Out[I++] = fdimf(X, Y);
  Out[I++] = fdividef(X, Y);
  Out[I++] = fmaxf(X, Y);
  Out[I++] = fminf(X, Y);
  Out[I++] = fmodf(X, Y);
  Out[I++] = hypotf(X, Y);
  Out[I++] = nextafterf(X, Y);
  Out[I++] = powf(X, Y);
  Out[I++] = remainderf(X, Y);
  Out[I++] = rhypotf(X, Y);
  Out[I++] = (float)ilogbf(X);
  Out[I++] = (float)lrintf(X);
  Out[I++] = (float)lroundf(X);
  Out[I++] = (float)llrintf(X);
  Out[I++] = (float)llroundf(X);
  Out[I++] = fmaf(X, Y, Z);
  Out[I++] = frexpf(X, &E);
  Out[I++] = ldexpf(X, E);
  Out[I++] = scalbnf(X, E);
  Out[I++] = modff(X, &Z);
  Out[I++] = remquof(X, Y, &E);
  Out[I++] = jnf(2, X) + ynf(2, X);
  Out[I++] = norm3df(X, Y, Z) + norm4df(X, Y, Z, X) + rnorm3df(X, Y, Z) + rnorm4df(X, Y, Z, X);
  Out[I++] = normf(3, V) + rnormf(3, V);
  sincosf(X, &Y, &Z);
  Out[I++] = Y + Z;
  sincospif(X, &Y, &Z);
  Out[I++] = Y + Z + nanf("") + isnan(X) + isinf(X) + isfinite(X) + signbit(X);
  // The C++ overloads nvcc provides.
  Out[I++] = sin(X) + std::cos(X) + sqrt(X) + pow(X, 2) + abs(X) + rsqrt(X) + min(X, Y) + max(X, 1.0f);
  Out[I++] = E;
}
