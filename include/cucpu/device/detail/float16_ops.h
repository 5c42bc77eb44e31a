//===- float16_ops.h - Operations of 16-bit floats --------------*- C++ -*-===//
//
// Included by cuda_fp16.h and cuda_bf16.h (no include guard) with
// __CUCPU_T and __CUCPU_T2 naming the scalar and pair types, to define the
// overloads both headers share: arithmetic, comparisons, the h* and h2*
// math functions, operators (unless __CUCPU_F16_NO_OPERATORS or
// __CUCPU_F16_NO_OPERATORS2 is defined), shuffles, __ldg and atomicAdd.
// Every result is rounded once, as detail/float16.h describes.
//
//===----------------------------------------------------------------------===//

#define __CUCPU_F16_DECL static __host__ __device__ inline
#define __CUCPU_F16 __host__ __device__ inline

// --- Arithmetic ---------------------------------------------------------

__CUCPU_F16_DECL float __low2float(__CUCPU_T2 a) {
  return __cucpu_f16::value(a.x);
}
__CUCPU_F16_DECL float __high2float(__CUCPU_T2 a) {
  return __cucpu_f16::value(a.y);
}
__CUCPU_F16_DECL __CUCPU_T2 __lowhigh2highlow(__CUCPU_T2 a) {
  return __CUCPU_T2(a.y, a.x);
}

#define __CUCPU_F16_BINARY(Name, Expr)                                         \
  __CUCPU_F16_DECL __CUCPU_T Name(__CUCPU_T a, __CUCPU_T b) {                  \
    float x = __cucpu_f16::value(a), y = __cucpu_f16::value(b);                \
    return __cucpu_f16::canonical(__cucpu_f16::round<__CUCPU_T>(Expr));        \
  }
__CUCPU_F16_BINARY(__hadd, x + y)
__CUCPU_F16_BINARY(__hsub, x - y)
__CUCPU_F16_BINARY(__hmul, x *y)
__CUCPU_F16_BINARY(__hadd_rn, x + y)
__CUCPU_F16_BINARY(__hsub_rn, x - y)
__CUCPU_F16_BINARY(__hmul_rn, x *y)
__CUCPU_F16_BINARY(__hdiv, x / y)
#undef __CUCPU_F16_BINARY

__CUCPU_F16_DECL __CUCPU_T __hfma(__CUCPU_T a, __CUCPU_T b, __CUCPU_T c) {
  return __cucpu_f16::canonical(__cucpu_f16::bits<__CUCPU_T>(
      __cucpu_f16::fusedMultiplyAdd<__CUCPU_T::__cucpu_format>(
          __cucpu_f16::value(a), __cucpu_f16::value(b),
          __cucpu_f16::value(c))));
}
__CUCPU_F16_DECL __CUCPU_T __hadd_sat(__CUCPU_T a, __CUCPU_T b) {
  return __cucpu_f16::saturate(__hadd(a, b));
}
__CUCPU_F16_DECL __CUCPU_T __hsub_sat(__CUCPU_T a, __CUCPU_T b) {
  return __cucpu_f16::saturate(__hsub(a, b));
}
__CUCPU_F16_DECL __CUCPU_T __hmul_sat(__CUCPU_T a, __CUCPU_T b) {
  return __cucpu_f16::saturate(__hmul(a, b));
}
__CUCPU_F16_DECL __CUCPU_T __hfma_sat(__CUCPU_T a, __CUCPU_T b, __CUCPU_T c) {
  return __cucpu_f16::saturate(__hfma(a, b, c));
}
__CUCPU_F16_DECL __CUCPU_T __hfma_relu(__CUCPU_T a, __CUCPU_T b, __CUCPU_T c) {
  __CUCPU_T r = __hfma(a, b, c);
  return __cucpu_f16::isNaN(r) || __cucpu_f16::value(r) >= 0
             ? r
             : __cucpu_f16::bits<__CUCPU_T>(0);
}
__CUCPU_F16_DECL __CUCPU_T __hneg(__CUCPU_T a) {
  return __cucpu_f16::bits<__CUCPU_T>(
      static_cast<unsigned short>(a.__x ^ 0x8000));
}
__CUCPU_F16_DECL __CUCPU_T __habs(__CUCPU_T a) {
  return __cucpu_f16::bits<__CUCPU_T>(
      static_cast<unsigned short>(a.__x & 0x7fff));
}
/// Without _nan: a NaN input gives the other input (NaN if both are).
__CUCPU_F16_DECL __CUCPU_T __hmax(__CUCPU_T a, __CUCPU_T b) {
  if (__cucpu_f16::isNaN(a))
    return __cucpu_f16::canonical(b);
  if (__cucpu_f16::isNaN(b))
    return a;
  float x = __cucpu_f16::value(a), y = __cucpu_f16::value(b);
  if (x == y) // +0 is larger than -0.
    return (a.__x & 0x8000) ? b : a;
  return x > y ? a : b;
}
__CUCPU_F16_DECL __CUCPU_T __hmin(__CUCPU_T a, __CUCPU_T b) {
  if (__cucpu_f16::isNaN(a))
    return __cucpu_f16::canonical(b);
  if (__cucpu_f16::isNaN(b))
    return a;
  float x = __cucpu_f16::value(a), y = __cucpu_f16::value(b);
  if (x == y)
    return (a.__x & 0x8000) ? a : b;
  return x < y ? a : b;
}
__CUCPU_F16_DECL __CUCPU_T __hmax_nan(__CUCPU_T a, __CUCPU_T b) {
  if (__cucpu_f16::isNaN(a) || __cucpu_f16::isNaN(b))
    return __cucpu_f16::bits<__CUCPU_T>(__CUCPU_T::__cucpu_format::QuietNaN);
  return __hmax(a, b);
}
__CUCPU_F16_DECL __CUCPU_T __hmin_nan(__CUCPU_T a, __CUCPU_T b) {
  if (__cucpu_f16::isNaN(a) || __cucpu_f16::isNaN(b))
    return __cucpu_f16::bits<__CUCPU_T>(__CUCPU_T::__cucpu_format::QuietNaN);
  return __hmin(a, b);
}

#define __CUCPU_F16_BINARY2(Name, Scalar)                                      \
  __CUCPU_F16_DECL __CUCPU_T2 Name(__CUCPU_T2 a, __CUCPU_T2 b) {               \
    return __CUCPU_T2(Scalar(a.x, b.x), Scalar(a.y, b.y));                     \
  }
__CUCPU_F16_BINARY2(__hadd2, __hadd)
__CUCPU_F16_BINARY2(__hsub2, __hsub)
__CUCPU_F16_BINARY2(__hmul2, __hmul)
__CUCPU_F16_BINARY2(__hadd2_rn, __hadd)
__CUCPU_F16_BINARY2(__hsub2_rn, __hsub)
__CUCPU_F16_BINARY2(__hmul2_rn, __hmul)
__CUCPU_F16_BINARY2(__h2div, __hdiv)
__CUCPU_F16_BINARY2(__hadd2_sat, __hadd_sat)
__CUCPU_F16_BINARY2(__hsub2_sat, __hsub_sat)
__CUCPU_F16_BINARY2(__hmul2_sat, __hmul_sat)
__CUCPU_F16_BINARY2(__hmax2, __hmax)
__CUCPU_F16_BINARY2(__hmin2, __hmin)
__CUCPU_F16_BINARY2(__hmax2_nan, __hmax_nan)
__CUCPU_F16_BINARY2(__hmin2_nan, __hmin_nan)
#undef __CUCPU_F16_BINARY2

__CUCPU_F16_DECL __CUCPU_T2 __hfma2(__CUCPU_T2 a, __CUCPU_T2 b, __CUCPU_T2 c) {
  return __CUCPU_T2(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));
}
__CUCPU_F16_DECL __CUCPU_T2 __hfma2_sat(__CUCPU_T2 a, __CUCPU_T2 b,
                                        __CUCPU_T2 c) {
  return __CUCPU_T2(__hfma_sat(a.x, b.x, c.x), __hfma_sat(a.y, b.y, c.y));
}
__CUCPU_F16_DECL __CUCPU_T2 __hfma2_relu(__CUCPU_T2 a, __CUCPU_T2 b,
                                         __CUCPU_T2 c) {
  return __CUCPU_T2(__hfma_relu(a.x, b.x, c.x), __hfma_relu(a.y, b.y, c.y));
}
__CUCPU_F16_DECL __CUCPU_T2 __hneg2(__CUCPU_T2 a) {
  return __CUCPU_T2(__hneg(a.x), __hneg(a.y));
}
__CUCPU_F16_DECL __CUCPU_T2 __habs2(__CUCPU_T2 a) {
  return __CUCPU_T2(__habs(a.x), __habs(a.y));
}
/// Complex multiply-add: (a.x + i a.y) * (b.x + i b.y) + (c.x + i c.y).
__CUCPU_F16_DECL __CUCPU_T2 __hcmadd(__CUCPU_T2 a, __CUCPU_T2 b, __CUCPU_T2 c) {
  __CUCPU_T re = __hfma(a.x, b.x, c.x), im = __hfma(a.x, b.y, c.y);
  return __CUCPU_T2(__hfma(__hneg(a.y), b.y, re), __hfma(a.y, b.x, im));
}

// --- Comparisons --------------------------------------------------------

/// __h<S> compares two halves (false if either is NaN, or true for the
/// unordered forms ending in u); __h<S>2 gives 1.0 or 0.0 per half,
/// __h<S>2_mask 0xffff or 0 per half, __hb<S>2 whether both halves compare.
#define __CUCPU_F16_COMPARE(S, Op, Unordered)                                  \
  __CUCPU_F16_DECL bool __h##S(__CUCPU_T a, __CUCPU_T b) {                     \
    if (__cucpu_f16::isNaN(a) || __cucpu_f16::isNaN(b))                        \
      return Unordered;                                                        \
    return __cucpu_f16::value(a) Op __cucpu_f16::value(b);                     \
  }                                                                            \
  __CUCPU_F16_DECL __CUCPU_T2 __h##S##2(__CUCPU_T2 a, __CUCPU_T2 b) {          \
    return __CUCPU_T2(                                                         \
        __cucpu_f16::bits<__CUCPU_T>(                                          \
            __h##S(a.x, b.x) ? __CUCPU_T::__cucpu_format::One : 0),            \
        __cucpu_f16::bits<__CUCPU_T>(                                          \
            __h##S(a.y, b.y) ? __CUCPU_T::__cucpu_format::One : 0));           \
  }                                                                            \
  __CUCPU_F16_DECL unsigned __h##S##2_mask(__CUCPU_T2 a, __CUCPU_T2 b) {       \
    return (__h##S(a.x, b.x) ? 0xffffu : 0u) |                                 \
           (__h##S(a.y, b.y) ? 0xffff0000u : 0u);                              \
  }                                                                            \
  __CUCPU_F16_DECL bool __hb##S##2(__CUCPU_T2 a, __CUCPU_T2 b) {               \
    return __h##S(a.x, b.x) && __h##S(a.y, b.y);                               \
  }
__CUCPU_F16_COMPARE(eq, ==, false)
__CUCPU_F16_COMPARE(ne, !=, false)
__CUCPU_F16_COMPARE(lt, <, false)
__CUCPU_F16_COMPARE(le, <=, false)
__CUCPU_F16_COMPARE(gt, >, false)
__CUCPU_F16_COMPARE(ge, >=, false)
__CUCPU_F16_COMPARE(equ, ==, true)
__CUCPU_F16_COMPARE(neu, !=, true)
__CUCPU_F16_COMPARE(ltu, <, true)
__CUCPU_F16_COMPARE(leu, <=, true)
__CUCPU_F16_COMPARE(gtu, >, true)
__CUCPU_F16_COMPARE(geu, >=, true)
#undef __CUCPU_F16_COMPARE

__CUCPU_F16_DECL bool __hisnan(__CUCPU_T a) { return __cucpu_f16::isNaN(a); }
__CUCPU_F16_DECL int __hisinf(__CUCPU_T a) {
  unsigned short inf = __CUCPU_T::__cucpu_format::Infinity;
  return a.__x == inf ? 1 : a.__x == (inf | 0x8000) ? -1 : 0;
}
__CUCPU_F16_DECL __CUCPU_T2 __hisnan2(__CUCPU_T2 a) {
  return __CUCPU_T2(__cucpu_f16::bits<__CUCPU_T>(
                        __hisnan(a.x) ? __CUCPU_T::__cucpu_format::One : 0),
                    __cucpu_f16::bits<__CUCPU_T>(
                        __hisnan(a.y) ? __CUCPU_T::__cucpu_format::One : 0));
}

// --- Math ---------------------------------------------------------------

#define __CUCPU_F16_MATH(Stem, Expr)                                           \
  __CUCPU_F16_DECL __CUCPU_T h##Stem(__CUCPU_T h) {                            \
    float x = __cucpu_f16::value(h);                                           \
    return __cucpu_f16::canonical(__cucpu_f16::round<__CUCPU_T>(Expr));        \
  }                                                                            \
  __CUCPU_F16_DECL __CUCPU_T2 h2##Stem(__CUCPU_T2 h) {                         \
    return __CUCPU_T2(h##Stem(h.x), h##Stem(h.y));                             \
  }
__CUCPU_F16_MATH(sqrt, sqrtf(x))
__CUCPU_F16_MATH(rsqrt, 1.0f / sqrtf(x))
__CUCPU_F16_MATH(rcp, 1.0f / x)
__CUCPU_F16_MATH(exp, expf(x))
__CUCPU_F16_MATH(exp2, exp2f(x))
__CUCPU_F16_MATH(exp10, exp10f(x))
__CUCPU_F16_MATH(log, logf(x))
__CUCPU_F16_MATH(log2, log2f(x))
__CUCPU_F16_MATH(log10, log10f(x))
__CUCPU_F16_MATH(sin, sinf(x))
__CUCPU_F16_MATH(cos, cosf(x))
__CUCPU_F16_MATH(tanh, tanhf(x))
__CUCPU_F16_MATH(tanh_approx, tanhf(x))
__CUCPU_F16_MATH(floor, floorf(x))
__CUCPU_F16_MATH(ceil, ceilf(x))
__CUCPU_F16_MATH(trunc, truncf(x))
__CUCPU_F16_MATH(rint, rintf(x))
#undef __CUCPU_F16_MATH

// --- Operators ----------------------------------------------------------

/// The arithmetic, unary and comparison operators of type T, each one call
/// of the function named after it.
#define __CUCPU_F16_OPERATORS(T, Add, Sub, Mul, Div, Neg, Eq, Ne, Lt, Le, Gt,  \
                              Ge)                                              \
  __CUCPU_F16 T operator+(const T &a, const T &b) { return Add(a, b); }        \
  __CUCPU_F16 T operator-(const T &a, const T &b) { return Sub(a, b); }        \
  __CUCPU_F16 T operator*(const T &a, const T &b) { return Mul(a, b); }        \
  __CUCPU_F16 T operator/(const T &a, const T &b) { return Div(a, b); }        \
  __CUCPU_F16 T &operator+=(T &a, const T &b) { return a = Add(a, b); }        \
  __CUCPU_F16 T &operator-=(T &a, const T &b) { return a = Sub(a, b); }        \
  __CUCPU_F16 T &operator*=(T &a, const T &b) { return a = Mul(a, b); }        \
  __CUCPU_F16 T &operator/=(T &a, const T &b) { return a = Div(a, b); }        \
  __CUCPU_F16 T operator+(const T &h) { return h; }                            \
  __CUCPU_F16 T operator-(const T &h) { return Neg(h); }                       \
  __CUCPU_F16 bool operator==(const T &a, const T &b) { return Eq(a, b); }     \
  __CUCPU_F16 bool operator!=(const T &a, const T &b) { return Ne(a, b); }     \
  __CUCPU_F16 bool operator<(const T &a, const T &b) { return Lt(a, b); }      \
  __CUCPU_F16 bool operator<=(const T &a, const T &b) { return Le(a, b); }     \
  __CUCPU_F16 bool operator>(const T &a, const T &b) { return Gt(a, b); }      \
  __CUCPU_F16 bool operator>=(const T &a, const T &b) { return Ge(a, b); }

#if !defined(__CUCPU_F16_NO_OPERATORS)
__CUCPU_F16_OPERATORS(__CUCPU_T, __hadd, __hsub, __hmul, __hdiv, __hneg, __heq,
                      __hneu, __hlt, __hle, __hgt, __hge)
__CUCPU_F16 __CUCPU_T &operator++(__CUCPU_T &h) {
  return h = __hadd(
             h, __cucpu_f16::bits<__CUCPU_T>(__CUCPU_T::__cucpu_format::One));
}
__CUCPU_F16 __CUCPU_T &operator--(__CUCPU_T &h) {
  return h = __hsub(
             h, __cucpu_f16::bits<__CUCPU_T>(__CUCPU_T::__cucpu_format::One));
}
__CUCPU_F16 __CUCPU_T operator++(__CUCPU_T &h, int) {
  __CUCPU_T old = h;
  ++h;
  return old;
}
__CUCPU_F16 __CUCPU_T operator--(__CUCPU_T &h, int) {
  __CUCPU_T old = h;
  --h;
  return old;
}
#endif

#if !defined(__CUCPU_F16_NO_OPERATORS2)
__CUCPU_F16_OPERATORS(__CUCPU_T2, __hadd2, __hsub2, __hmul2, __h2div, __hneg2,
                      __hbeq2, __hbneu2, __hblt2, __hble2, __hbgt2, __hbge2)
#endif
#undef __CUCPU_F16_OPERATORS

// --- Warp shuffles, loads and atomics ------------------------------------

#if defined(__CUDA_ARCH__)
#define __CUCPU_F16_SHUFFLE(Name, Lane)                                        \
  __device__ inline __CUCPU_T Name(unsigned mask, __CUCPU_T var, Lane,         \
                                   int width = warpSize) {                     \
    return __cucpu_f16::bits<__CUCPU_T>(static_cast<unsigned short>(           \
        Name(mask, static_cast<int>(var.__x), delta, width)));                 \
  }                                                                            \
  __device__ inline __CUCPU_T2 Name(unsigned mask, __CUCPU_T2 var, Lane,       \
                                    int width = warpSize) {                    \
    unsigned word = static_cast<unsigned>(var.x.__x) |                         \
                    (static_cast<unsigned>(var.y.__x) << 16);                  \
    word = Name(mask, word, delta, width);                                     \
    return __CUCPU_T2(                                                         \
        __cucpu_f16::bits<__CUCPU_T>(static_cast<unsigned short>(word)),       \
        __cucpu_f16::bits<__CUCPU_T>(                                          \
            static_cast<unsigned short>(word >> 16)));                         \
  }
__CUCPU_F16_SHUFFLE(__shfl_sync, int delta)
__CUCPU_F16_SHUFFLE(__shfl_up_sync, unsigned delta)
__CUCPU_F16_SHUFFLE(__shfl_down_sync, unsigned delta)
__CUCPU_F16_SHUFFLE(__shfl_xor_sync, int delta)
#undef __CUCPU_F16_SHUFFLE

__device__ inline __CUCPU_T __ldg(const __CUCPU_T *p) { return *p; }
__device__ inline __CUCPU_T2 __ldg(const __CUCPU_T2 *p) { return *p; }

__device__ inline __CUCPU_T atomicAdd(__CUCPU_T *address, __CUCPU_T val) {
  return __cucpu_f16::bits<__CUCPU_T>(
      __cucpu_f16::atomicUpdate16(address, [val](unsigned short old) {
        return __hadd(__cucpu_f16::bits<__CUCPU_T>(old), val).__x;
      }));
}
__device__ inline __CUCPU_T2 atomicAdd(__CUCPU_T2 *address, __CUCPU_T2 val) {
  unsigned *word = reinterpret_cast<unsigned *>(address);
  unsigned old = *word, assumed;
  do {
    assumed = old;
    __CUCPU_T2 sum =
        __hadd2(__CUCPU_T2(__cucpu_f16::bits<__CUCPU_T>(assumed & 0xffff),
                           __cucpu_f16::bits<__CUCPU_T>(assumed >> 16)),
                val);
    old = atomicCAS(word, assumed,
                    unsigned(sum.x.__x) | (unsigned(sum.y.__x) << 16));
  } while (old != assumed);
  return __CUCPU_T2(__cucpu_f16::bits<__CUCPU_T>(old & 0xffff),
                    __cucpu_f16::bits<__CUCPU_T>(old >> 16));
}
#endif // __CUDA_ARCH__

#undef __CUCPU_F16_DECL
#undef __CUCPU_F16
