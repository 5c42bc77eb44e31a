//===- detail/math_extras.h - Math overloads clang leaves out ---*- C++ -*-===//
//
// The parts of CUDA's math API that clang's own CUDA headers take from the
// CUDA SDK rather than define: the C++ min/max overloads, float overloads of
// CUDA-only functions (rsqrt, sinpi, ...), half-precision conversions, and
// the cache-operator loads and stores. Part of the prelude.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DEVICE_DETAIL_MATH_EXTRAS_H
#define CUCPU_DEVICE_DETAIL_MATH_EXTRAS_H

#define __CUCPU_MATH_FN static __device__ __forceinline__

// min/max as CUDA's math_functions.hpp overloads them (int min/max comes from
// clang on the device). Mixed signedness compares as unsigned, as the usual
// arithmetic conversions would. nvcc declares them __host__ __device__, so
// host code calls them too (cuda-samples' simpleStreams, simpleMultiCopy,
// alignedTypes); clang's device-only int overloads cannot be redeclared
// __host__ __device__, so each overload here is a __device__ and a __host__
// function (clang overloads on the target attributes).
#define __CUCPU_MINMAX_FN(Q, T, A, B)                                          \
  Q T min(A X, B Y) { return (T)X < (T)Y ? (T)X : (T)Y; }                      \
  Q T max(A X, B Y) { return (T)X > (T)Y ? (T)X : (T)Y; }
#define __CUCPU_MINMAX_HOST static __host__ __forceinline__
#define __CUCPU_MINMAX(T, A, B)                                                \
  __CUCPU_MINMAX_FN(__CUCPU_MATH_FN, T, A, B)                                  \
  __CUCPU_MINMAX_FN(__CUCPU_MINMAX_HOST, T, A, B)
__CUCPU_MINMAX_FN(__CUCPU_MINMAX_HOST, int, int, int)
__CUCPU_MINMAX(unsigned int, unsigned int, unsigned int)
__CUCPU_MINMAX(unsigned int, int, unsigned int)
__CUCPU_MINMAX(unsigned int, unsigned int, int)
__CUCPU_MINMAX(long, long, long)
__CUCPU_MINMAX(unsigned long, unsigned long, unsigned long)
__CUCPU_MINMAX(unsigned long, long, unsigned long)
__CUCPU_MINMAX(unsigned long, unsigned long, long)
__CUCPU_MINMAX(long long, long long, long long)
__CUCPU_MINMAX(unsigned long long, unsigned long long, unsigned long long)
__CUCPU_MINMAX(unsigned long long, long long, unsigned long long)
__CUCPU_MINMAX(unsigned long long, unsigned long long, long long)
#undef __CUCPU_MINMAX
#undef __CUCPU_MINMAX_FN
#define __CUCPU_MINMAX_FP(Q)                                                   \
  Q float min(float X, float Y) { return fminf(X, Y); }                        \
  Q float max(float X, float Y) { return fmaxf(X, Y); }                        \
  Q double min(double X, double Y) { return fmin(X, Y); }                      \
  Q double max(double X, double Y) { return fmax(X, Y); }                      \
  Q double min(float X, double Y) { return fmin((double)X, Y); }               \
  Q double max(float X, double Y) { return fmax((double)X, Y); }               \
  Q double min(double X, float Y) { return fmin(X, (double)Y); }               \
  Q double max(double X, float Y) { return fmax(X, (double)Y); }
__CUCPU_MINMAX_FP(__CUCPU_MATH_FN)
__CUCPU_MINMAX_FP(__CUCPU_MINMAX_HOST)
#undef __CUCPU_MINMAX_FP
#undef __CUCPU_MINMAX_HOST

// Float overloads of CUDA-only functions (the std ones come from clang's
// __clang_cuda_cmath.h).
__CUCPU_MATH_FN float rsqrt(float X) { return rsqrtf(X); }
__CUCPU_MATH_FN float rcbrt(float X) { return rcbrtf(X); }
__CUCPU_MATH_FN float sinpi(float X) { return sinpif(X); }
__CUCPU_MATH_FN float cospi(float X) { return cospif(X); }
__CUCPU_MATH_FN void sincospi(float X, float *S, float *C) {
  sincospif(X, S, C);
}
__CUCPU_MATH_FN float erfcinv(float X) { return erfcinvf(X); }
__CUCPU_MATH_FN float erfcx(float X) { return erfcxf(X); }
__CUCPU_MATH_FN float normcdf(float X) { return normcdff(X); }
__CUCPU_MATH_FN float normcdfinv(float X) { return normcdfinvf(X); }
__CUCPU_MATH_FN float erfinv(float X) { return erfinvf(X); }

/// What __float2half_rn returns: the bits of an IEEE binary16, which
/// convert to unsigned short (the interface before cuda_fp16.h) and, where
/// a kernel includes cuda_fp16.h, to __half.
struct __cucpu_half_bits {
  unsigned short bits;
  __device__ operator unsigned short() const { return bits; }
};
/// float to IEEE binary16 (round to nearest even).
__CUCPU_MATH_FN __cucpu_half_bits __float2half_rn(float X) {
  return {__nv_float2half_rn(X)};
}
/// IEEE binary16 in an unsigned short to float.
__CUCPU_MATH_FN float __half2float(unsigned short X) {
  return __nv_half2float(X);
}
__CUCPU_MATH_FN float __half2float(__cucpu_half_bits X) {
  return __nv_half2float(X.bits);
}

// sm_61_intrinsics.h: dot products of packed bytes and halves, plus an
// accumulator. __dp4a: the four byte products; __dp2a_lo/hi: the two 16-bit
// halves of A times bytes 0-1 (lo) or 2-3 (hi) of B. int operands are
// signed, unsigned ones unsigned; the sum wraps as PTX dp4a/dp2a do.
template <typename Byte, typename Half, typename T>
__CUCPU_MATH_FN T __cucpu_dp(T A, T B, T C, int Halves, int HiBytes) {
  unsigned UA = (unsigned)A, UB = (unsigned)B, Sum = (unsigned)C;
  for (int I = 0; I < 4; ++I) {
    if (Halves && I >= 2)
      break;
    int ShiftA = Halves ? 16 * I : 8 * I;
    int ShiftB = 8 * (I + (HiBytes ? 2 : 0));
    int X = Halves ? (int)(Half)(UA >> ShiftA) : (int)(Byte)(UA >> ShiftA);
    int Y = (int)(Byte)(UB >> ShiftB);
    Sum += (unsigned)(X * Y);
  }
  return (T)Sum;
}
__CUCPU_MATH_FN int __dp4a(int A, int B, int C) {
  return __cucpu_dp<signed char, short>(A, B, C, 0, 0);
}
__CUCPU_MATH_FN unsigned int __dp4a(unsigned int A, unsigned int B,
                                    unsigned int C) {
  return __cucpu_dp<unsigned char, unsigned short>(A, B, C, 0, 0);
}
__CUCPU_MATH_FN int __dp4a(char4 A, char4 B, int C) {
  return __dp4a(__builtin_bit_cast(int, A), __builtin_bit_cast(int, B), C);
}
__CUCPU_MATH_FN unsigned int __dp4a(uchar4 A, uchar4 B, unsigned int C) {
  return __dp4a(__builtin_bit_cast(unsigned int, A),
                __builtin_bit_cast(unsigned int, B), C);
}
#define __CUCPU_DP2A(Name, Hi)                                                 \
  __CUCPU_MATH_FN int Name(int A, int B, int C) {                              \
    return __cucpu_dp<signed char, short>(A, B, C, 1, Hi);                     \
  }                                                                            \
  __CUCPU_MATH_FN unsigned int Name(unsigned int A, unsigned int B,            \
                                    unsigned int C) {                          \
    return __cucpu_dp<unsigned char, unsigned short>(A, B, C, 1, Hi);          \
  }                                                                            \
  __CUCPU_MATH_FN int Name(short2 A, char4 B, int C) {                         \
    return Name(__builtin_bit_cast(int, A), __builtin_bit_cast(int, B), C);    \
  }                                                                            \
  __CUCPU_MATH_FN unsigned int Name(ushort2 A, uchar4 B, unsigned int C) {     \
    return Name(__builtin_bit_cast(unsigned int, A),                           \
                __builtin_bit_cast(unsigned int, B), C);                       \
  }
__CUCPU_DP2A(__dp2a_lo, 0)
__CUCPU_DP2A(__dp2a_hi, 1)
#undef __CUCPU_DP2A

// Loads and stores with a PTX cache operator. The cache hints mean nothing on
// the CPU, so they are plain accesses of any type.
#define __CUCPU_LOAD(Name)                                                     \
  template <typename T> __CUCPU_MATH_FN T Name(const T *Ptr) { return *Ptr; }
#define __CUCPU_STORE(Name)                                                    \
  template <typename T> __CUCPU_MATH_FN void Name(T *Ptr, T Value) {           \
    *Ptr = Value;                                                              \
  }
__CUCPU_LOAD(__ldcg)
__CUCPU_LOAD(__ldca)
__CUCPU_LOAD(__ldcs)
__CUCPU_LOAD(__ldlu)
__CUCPU_LOAD(__ldcv)
__CUCPU_STORE(__stwb)
__CUCPU_STORE(__stcg)
__CUCPU_STORE(__stcs)
__CUCPU_STORE(__stwt)
#undef __CUCPU_LOAD
#undef __CUCPU_STORE
#undef __CUCPU_MATH_FN

#endif // CUCPU_DEVICE_DETAIL_MATH_EXTRAS_H
