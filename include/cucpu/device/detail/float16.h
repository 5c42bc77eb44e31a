//===- float16.h - Conversions for cuda_fp16.h and cuda_bf16.h --*- C++ -*-===//
//
// The 16-bit floating-point types are stored as their bits and computed in
// wider types: a sum, difference, product, quotient or square root of two
// halves (or bfloat16s) computed in float and rounded once to 16 bits is the
// correctly rounded result (float has at least 2p+2 bits for both), and a
// fused multiply-add is computed in double with the rounding error of its
// addition kept, so that it too is rounded once. Conversions are done here
// in integer arithmetic, in every rounding mode, so that the IR needs no
// half-precision type or library call on the host.
//
//===----------------------------------------------------------------------===//
#ifndef CUCPU_DEVICE_DETAIL_FLOAT16_H
#define CUCPU_DEVICE_DETAIL_FLOAT16_H

namespace __cucpu_f16 {

/// IEEE rounding directions of the _rn, _rz, _rd and _ru conversions.
enum Rounding { ToNearest, TowardZero, Downward, Upward };

/// The 16-bit format: 10 (half) or 7 (bfloat16) fraction bits, its
/// exponent bias, and the quiet NaN NVIDIA's conversions return.
template <int FractionBits, int Bias> struct Format {
  static constexpr int Fraction = FractionBits;
  static constexpr int MinExponent = 1 - Bias; ///< Of a normal number.
  static constexpr int MaxExponent = Bias;
  static constexpr unsigned short Infinity =
      static_cast<unsigned short>(((2 * Bias + 1) << FractionBits));
  static constexpr unsigned short MaxFinite = Infinity - 1;
  static constexpr unsigned short One =
      static_cast<unsigned short>(Bias << FractionBits);
  static constexpr unsigned short QuietNaN = 0x7fff;
};
using HalfFormat = Format<10, 15>;
using BFloat16Format = Format<7, 127>;

/// Rounds sign * Mantissa * 2^(Exponent - MantissaBits + 1) (Mantissa has
/// its leading bit at MantissaBits - 1, or is smaller for a subnormal
/// input) to format F in mode R; the bits, sign included.
template <typename F, typename UInt>
__host__ __device__ inline unsigned short
roundBits(bool Negative, UInt Mantissa, int Exponent, int MantissaBits,
          Rounding R) {
  unsigned short Sign = Negative ? 0x8000 : 0;
  if (Mantissa == 0)
    return Sign;
  // Bits to drop: to F's fraction for a normal result, more below it.
  int Shift = MantissaBits - 1 - F::Fraction;
  if (Exponent < F::MinExponent)
    Shift += F::MinExponent - Exponent;
  UInt Kept, Rest, Half;
  if (Shift >= static_cast<int>(sizeof(UInt) * 8)) {
    Kept = 0;
    Rest = Mantissa;              // Below half of the smallest subnormal...
    Half = static_cast<UInt>(-1); // ...so never at or above its half.
  } else {
    Kept = Mantissa >> Shift;
    Rest = Mantissa & ((UInt(1) << Shift) - 1);
    Half = UInt(1) << (Shift - 1);
  }
  bool Increment = false;
  switch (R) {
  case ToNearest:
    Increment = Rest > Half || (Rest == Half && (Kept & 1));
    break;
  case TowardZero:
    break;
  case Downward:
    Increment = Rest != 0 && Negative;
    break;
  case Upward:
    Increment = Rest != 0 && !Negative;
    break;
  }
  unsigned Result = static_cast<unsigned>(Kept + Increment);
  // A normal result's implicit bit is bit F::Fraction of Result: adding the
  // exponent less one makes it the exponent field (a carry included).
  if (Exponent >= F::MinExponent)
    Result += static_cast<unsigned>(Exponent - F::MinExponent) << F::Fraction;
  if (Exponent > F::MaxExponent || Result >= F::Infinity) {
    bool ToInfinity = R == ToNearest || (R == Upward && !Negative) ||
                      (R == Downward && Negative);
    return Sign | (ToInfinity ? F::Infinity : F::MaxFinite);
  }
  return static_cast<unsigned short>(Sign | Result);
}

/// float to format F's bits in mode R.
template <typename F>
__host__ __device__ inline unsigned short fromFloat(float X, Rounding R) {
  unsigned Bits = __builtin_bit_cast(unsigned, X);
  bool Negative = Bits >> 31;
  unsigned Field = (Bits >> 23) & 0xff, Fraction = Bits & 0x7fffff;
  if (Field == 0xff)
    return Fraction ? F::QuietNaN
                    : static_cast<unsigned short>((Negative ? 0x8000 : 0) |
                                                  F::Infinity);
  if (Field == 0)
    return roundBits<F>(Negative, Fraction, -126, 24, R);
  return roundBits<F>(Negative, Fraction | 0x800000u, int(Field) - 127, 24, R);
}

/// double to format F's bits in mode R.
template <typename F>
__host__ __device__ inline unsigned short fromDouble(double X, Rounding R) {
  unsigned long long Bits = __builtin_bit_cast(unsigned long long, X);
  bool Negative = Bits >> 63;
  unsigned Field = (Bits >> 52) & 0x7ff;
  unsigned long long Fraction = Bits & 0xfffffffffffffull;
  if (Field == 0x7ff)
    return Fraction ? F::QuietNaN
                    : static_cast<unsigned short>((Negative ? 0x8000 : 0) |
                                                  F::Infinity);
  if (Field == 0)
    return roundBits<F>(Negative, Fraction, -1022, 53, R);
  return roundBits<F>(Negative, Fraction | (1ull << 52), int(Field) - 1023, 53,
                      R);
}

/// Half-precision bits to float (exact).
__host__ __device__ inline float halfToFloat(unsigned short H) {
  unsigned Sign = unsigned(H & 0x8000) << 16;
  unsigned Field = (H >> 10) & 0x1f, Fraction = H & 0x3ff;
  if (Field == 0x1f)
    return __builtin_bit_cast(float, Sign | 0x7f800000u | (Fraction << 13));
  if (Field == 0) {
    float Magnitude = float(Fraction) * 0x1p-24f; // Exact.
    return Sign ? -Magnitude : Magnitude;
  }
  return __builtin_bit_cast(float,
                            Sign | ((Field + 112) << 23) | (Fraction << 13));
}

/// bfloat16 bits to float (exact).
__host__ __device__ inline float bfloat16ToFloat(unsigned short B) {
  return __builtin_bit_cast(float, unsigned(B) << 16);
}

/// A * B + C rounded once to format F: the product of two 16-bit values is
/// exact in double; the sum's rounding error (two-sum) breaks a tie that
/// double rounding would otherwise create.
template <typename F>
__host__ __device__ inline unsigned short fusedMultiplyAdd(float A, float B,
                                                           float C) {
  double Product = double(A) * double(B);
  double Sum = Product + double(C);
  double Virtual = Sum - Product;
  double Error = (Product - (Sum - Virtual)) + (double(C) - Virtual);
  // Sum - Sum is 0 only for a finite sum; Error is NaN after an infinity.
  if (Sum - Sum == 0 && Error != 0 && Error == Error) {
    // Move Sum off a possible midpoint toward the exact value: below F's
    // precision, so it changes nothing else.
    unsigned long long Bits = __builtin_bit_cast(unsigned long long, Sum);
    bool Away = (Error > 0) == (Sum > 0);
    if (Sum == 0)
      return fromDouble<F>(Error, ToNearest);
    Bits += Away ? 1 : -1;
    Sum = __builtin_bit_cast(double, Bits);
  }
  return fromDouble<F>(Sum, ToNearest);
}

/// The value of format F's bits \p B, exactly.
template <typename F>
__host__ __device__ inline float toFloat(unsigned short B);
template <>
__host__ __device__ inline float toFloat<HalfFormat>(unsigned short B) {
  return halfToFloat(B);
}
template <>
__host__ __device__ inline float toFloat<BFloat16Format>(unsigned short B) {
  return bfloat16ToFloat(B);
}

// Helpers on the 16-bit types (T: __half or __nv_bfloat16, each naming its
// format as T::__cucpu_format and holding its bits in __x).

template <typename T> __host__ __device__ inline T bits(unsigned short B) {
  T Value;
  Value.__x = B;
  return Value;
}
template <typename T> __host__ __device__ inline float value(T H) {
  return toFloat<typename T::__cucpu_format>(H.__x);
}
/// \p V rounded to T in mode \p R.
template <typename T>
__host__ __device__ inline T round(float V, Rounding R = ToNearest) {
  return bits<T>(fromFloat<typename T::__cucpu_format>(V, R));
}
template <typename T> __host__ __device__ inline bool isNaN(T H) {
  return (H.__x & 0x7fff) > T::__cucpu_format::Infinity;
}
/// NVIDIA's arithmetic returns this NaN whatever NaN went in.
template <typename T> __host__ __device__ inline T canonical(T H) {
  return isNaN(H) ? bits<T>(T::__cucpu_format::QuietNaN) : H;
}
/// Clamped to [0, 1], NaN to 0 (the _sat operations).
template <typename T> __host__ __device__ inline T saturate(T H) {
  if (isNaN(H))
    return bits<T>(0);
  float V = value(H);
  return V < 0 ? bits<T>(0) : V > 1 ? bits<T>(T::__cucpu_format::One) : H;
}

#if defined(__CUDA_ARCH__)
/// Replaces the 16 bits at \p address with op(old) atomically; returns old.
template <typename Op>
__device__ inline unsigned short atomicUpdate16(void *address, Op op) {
  unsigned short *bits = static_cast<unsigned short *>(address);
  unsigned short old = *bits, assumed;
  do {
    assumed = old;
    old = atomicCAS(bits, assumed, static_cast<unsigned short>(op(assumed)));
  } while (old != assumed);
  return old;
}
#endif

} // namespace __cucpu_f16

/// The members of 16-bit type T (holding its bits in __x, its format named
/// __cucpu_format) that convert from and to its bits type Raw.
#define __CUCPU_F16_RAW_MEMBERS(T, Raw)                                        \
  T() = default;                                                               \
  __host__ __device__ constexpr T(const Raw &r) : __x(r.x) {}                  \
  __host__ __device__ T &operator=(const Raw &r) {                             \
    __x = r.x;                                                                 \
    return *this;                                                              \
  }                                                                            \
  __host__ __device__ constexpr operator Raw() const { return Raw{__x}; }

/// The members of 16-bit type T that convert from and to the arithmetic
/// types (left out where a header's __CUDA_NO_*_CONVERSIONS__ says so):
/// from float and double rounded to nearest, from integers through float,
/// to float exactly and explicitly to the rest through float.
#define __CUCPU_F16_VALUE_MEMBERS(T)                                           \
  __host__ __device__ T(float f)                                               \
      : __x(__cucpu_f16::fromFloat<__cucpu_format>(f,                          \
                                                   __cucpu_f16::ToNearest)) {} \
  __host__ __device__ T(double d)                                              \
      : __x(__cucpu_f16::fromDouble<__cucpu_format>(d,                         \
                                                    __cucpu_f16::ToNearest)) { \
  }                                                                            \
  __host__ __device__ T(int v) : T(static_cast<float>(v)) {}                   \
  __host__ __device__ T(unsigned v) : T(static_cast<float>(v)) {}              \
  __host__ __device__ T(short v) : T(static_cast<float>(v)) {}                 \
  __host__ __device__ T(unsigned short v) : T(static_cast<float>(v)) {}        \
  __host__ __device__ T(long v) : T(static_cast<float>(v)) {}                  \
  __host__ __device__ T(unsigned long v) : T(static_cast<float>(v)) {}         \
  __host__ __device__ T(long long v) : T(static_cast<float>(v)) {}             \
  __host__ __device__ T(unsigned long long v) : T(static_cast<float>(v)) {}    \
  __host__ __device__ operator float() const {                                 \
    return __cucpu_f16::toFloat<__cucpu_format>(__x);                          \
  }                                                                            \
  __host__ __device__ T &operator=(float f) { return *this = T(f); }           \
  __host__ __device__ T &operator=(double d) { return *this = T(d); }          \
  __host__ __device__ explicit operator bool() const {                         \
    return (__x & 0x7fff) != 0;                                                \
  }                                                                            \
  __host__ __device__ explicit operator int() const {                          \
    return static_cast<int>(float(*this));                                     \
  }                                                                            \
  __host__ __device__ explicit operator unsigned() const {                     \
    return static_cast<unsigned>(float(*this));                                \
  }                                                                            \
  __host__ __device__ explicit operator short() const {                        \
    return static_cast<short>(float(*this));                                   \
  }                                                                            \
  __host__ __device__ explicit operator unsigned short() const {               \
    return static_cast<unsigned short>(float(*this));                          \
  }                                                                            \
  __host__ __device__ explicit operator long long() const {                    \
    return static_cast<long long>(float(*this));                               \
  }                                                                            \
  __host__ __device__ explicit operator unsigned long long() const {           \
    return static_cast<unsigned long long>(float(*this));                      \
  }                                                                            \
  __host__ __device__ explicit operator double() const { return float(*this); }

/// The members of pair type T2 (two T, x in the low half) that build it
/// and convert from and to its bits type Raw2 (Raw being T's).
#define __CUCPU_F16_PAIR_MEMBERS(T, T2, Raw, Raw2)                             \
  T2() = default;                                                              \
  __host__ __device__ constexpr T2(const T &a, const T &b) : x(a), y(b) {}     \
  __host__ __device__ constexpr T2(const Raw2 &r)                              \
      : x(Raw{r.x}), y(Raw{r.y}) {}                                            \
  __host__ __device__ T2 &operator=(const Raw2 &r) {                           \
    x = Raw{r.x};                                                              \
    y = Raw{r.y};                                                              \
    return *this;                                                              \
  }                                                                            \
  __host__ __device__ operator Raw2() const { return Raw2{x.__x, y.__x}; }

/// Defines the conversions of 16-bit type T and its pair type T2 that
/// NVIDIA names after the type with Name (half, bfloat16): __float2<Name>
/// and its _rz, _rd and _ru forms (each header adds _rn), __double2<Name>,
/// __<Name>2float, the pair conversions (__floats2<Name>2_rn, __low2<Name>,
/// make_<Name>2, ...) and the bit casts (__<Name>_as_short, ...).
#define __CUCPU_F16_CONVERSIONS(T, T2, Name)                                   \
  __CUCPU_F16_FROM_FLOAT(T, __float2##Name, ToNearest)                         \
  __CUCPU_F16_FROM_FLOAT(T, __float2##Name##_rz, TowardZero)                   \
  __CUCPU_F16_FROM_FLOAT(T, __float2##Name##_rd, Downward)                     \
  __CUCPU_F16_FROM_FLOAT(T, __float2##Name##_ru, Upward)                       \
  static __host__ __device__ inline T __double2##Name(double a) {              \
    return __cucpu_f16::bits<T>(__cucpu_f16::fromDouble<T::__cucpu_format>(    \
        a, __cucpu_f16::ToNearest));                                           \
  }                                                                            \
  static __host__ __device__ inline float __##Name##2float(T a) {              \
    return __cucpu_f16::value(a);                                              \
  }                                                                            \
  static __host__ __device__ inline T2 __float2##Name##2_rn(float a) {         \
    return T2(__cucpu_f16::round<T>(a), __cucpu_f16::round<T>(a));             \
  }                                                                            \
  static __host__ __device__ inline T2 __floats2##Name##2_rn(float a,          \
                                                             float b) {        \
    return T2(__cucpu_f16::round<T>(a), __cucpu_f16::round<T>(b));             \
  }                                                                            \
  static __host__ __device__ inline T2 __float22##Name##2_rn(float2 a) {       \
    return __floats2##Name##2_rn(a.x, a.y);                                    \
  }                                                                            \
  static __host__ __device__ inline float2 __##Name##22float2(T2 a) {          \
    return make_float2(__cucpu_f16::value(a.x), __cucpu_f16::value(a.y));      \
  }                                                                            \
  static __host__ __device__ inline T __low2##Name(T2 a) { return a.x; }       \
  static __host__ __device__ inline T __high2##Name(T2 a) { return a.y; }      \
  static __host__ __device__ inline T2 __halves2##Name##2(T a, T b) {          \
    return T2(a, b);                                                           \
  }                                                                            \
  static __host__ __device__ inline T2 __##Name##2##Name##2(T a) {             \
    return T2(a, a);                                                           \
  }                                                                            \
  static __host__ __device__ inline T2 make_##Name##2(T x, T y) {              \
    return T2(x, y);                                                           \
  }                                                                            \
  static __host__ __device__ inline T2 __low2##Name##2(T2 a) {                 \
    return T2(a.x, a.x);                                                       \
  }                                                                            \
  static __host__ __device__ inline T2 __high2##Name##2(T2 a) {                \
    return T2(a.y, a.y);                                                       \
  }                                                                            \
  static __host__ __device__ inline T2 __lows2##Name##2(T2 a, T2 b) {          \
    return T2(a.x, b.x);                                                       \
  }                                                                            \
  static __host__ __device__ inline T2 __highs2##Name##2(T2 a, T2 b) {         \
    return T2(a.y, b.y);                                                       \
  }                                                                            \
  static __host__ __device__ inline short __##Name##_as_short(T h) {           \
    return static_cast<short>(h.__x);                                          \
  }                                                                            \
  static __host__ __device__ inline unsigned short __##Name##_as_ushort(T h) { \
    return h.__x;                                                              \
  }                                                                            \
  static __host__ __device__ inline T __short_as_##Name(short i) {             \
    return __cucpu_f16::bits<T>(static_cast<unsigned short>(i));               \
  }                                                                            \
  static __host__ __device__ inline T __ushort_as_##Name(unsigned short i) {   \
    return __cucpu_f16::bits<T>(i);                                            \
  }                                                                            \
  __CUCPU_F16_INTEGER_CONVERSIONS(T, Name)

/// A conversion from float in one rounding mode.
#define __CUCPU_F16_FROM_FLOAT(T, Function, Mode)                              \
  static __host__ __device__ inline T Function(float a) {                      \
    return __cucpu_f16::round<T>(a, __cucpu_f16::Mode);                        \
  }

/// Defines the conversions between 16-bit type T and the integer types,
/// named as NVIDIA names them with Name (half, bfloat16): __int2<Name>_rn,
/// __<Name>2int_rz, ... Integers go to T through float (exact for 16-bit
/// integers; a wider one is rounded twice, which differs from one rounding
/// only within 2^-24 of a tie), T goes to integers through float (exact),
/// and the results saturate, NaN giving 0, as NVIDIA's conversions do.
#define __CUCPU_F16_INTEGER_CONVERSIONS(T, Name)                               \
  __CUCPU_F16_FROM_INTEGER(T, Name, int, int)                                  \
  __CUCPU_F16_FROM_INTEGER(T, Name, unsigned int, uint)                        \
  __CUCPU_F16_FROM_INTEGER(T, Name, short, short)                              \
  __CUCPU_F16_FROM_INTEGER(T, Name, unsigned short, ushort)                    \
  __CUCPU_F16_FROM_INTEGER(T, Name, long long, ll)                             \
  __CUCPU_F16_FROM_INTEGER(T, Name, unsigned long long, ull)                   \
  __CUCPU_F16_TO_INTEGER(T, Name, int, int, int)                               \
  __CUCPU_F16_TO_INTEGER(T, Name, unsigned int, uint, uint)                    \
  __CUCPU_F16_TO_INTEGER(T, Name, long long, ll, ll)                           \
  __CUCPU_F16_TO_INTEGER(T, Name, unsigned long long, ull, ull)                \
  __CUCPU_F16_TO_SHORT(T, Name, short, short, -32768, 32767)                   \
  __CUCPU_F16_TO_SHORT(T, Name, unsigned short, ushort, 0, 65535)

#define __CUCPU_F16_FROM_INTEGER_MODE(T, Name, Type, Stem, Mode, Rounding)     \
  static __host__ __device__ inline T __##Stem##2##Name##_##Mode(Type i) {     \
    return __cucpu_f16::round<T>(static_cast<float>(i),                        \
                                 __cucpu_f16::Rounding);                       \
  }
#define __CUCPU_F16_FROM_INTEGER(T, Name, Type, Stem)                          \
  __CUCPU_F16_FROM_INTEGER_MODE(T, Name, Type, Stem, rn, ToNearest)            \
  __CUCPU_F16_FROM_INTEGER_MODE(T, Name, Type, Stem, rz, TowardZero)           \
  __CUCPU_F16_FROM_INTEGER_MODE(T, Name, Type, Stem, rd, Downward)             \
  __CUCPU_F16_FROM_INTEGER_MODE(T, Name, Type, Stem, ru, Upward)
#define __CUCPU_F16_TO_INTEGER_MODE(T, Name, Type, Stem, FloatStem, Mode)      \
  static __host__ __device__ inline Type __##Name##2##Stem##_##Mode(T h) {     \
    return __float2##FloatStem##_##Mode(__cucpu_f16::value(h));                \
  }
#define __CUCPU_F16_TO_INTEGER(T, Name, Type, Stem, FloatStem)                 \
  __CUCPU_F16_TO_INTEGER_MODE(T, Name, Type, Stem, FloatStem, rn)              \
  __CUCPU_F16_TO_INTEGER_MODE(T, Name, Type, Stem, FloatStem, rz)              \
  __CUCPU_F16_TO_INTEGER_MODE(T, Name, Type, Stem, FloatStem, rd)              \
  __CUCPU_F16_TO_INTEGER_MODE(T, Name, Type, Stem, FloatStem, ru)
#define __CUCPU_F16_TO_SHORT_MODE(T, Name, Type, Stem, Lo, Hi, Mode)           \
  static __host__ __device__ inline Type __##Name##2##Stem##_##Mode(T h) {     \
    int v = __float2int_##Mode(__cucpu_f16::value(h));                         \
    return static_cast<Type>(v<(Lo) ? (Lo) : v>(Hi) ? (Hi) : v);               \
  }
#define __CUCPU_F16_TO_SHORT(T, Name, Type, Stem, Lo, Hi)                      \
  __CUCPU_F16_TO_SHORT_MODE(T, Name, Type, Stem, Lo, Hi, rn)                   \
  __CUCPU_F16_TO_SHORT_MODE(T, Name, Type, Stem, Lo, Hi, rz)                   \
  __CUCPU_F16_TO_SHORT_MODE(T, Name, Type, Stem, Lo, Hi, rd)                   \
  __CUCPU_F16_TO_SHORT_MODE(T, Name, Type, Stem, Lo, Hi, ru)

#endif // CUCPU_DEVICE_DETAIL_FLOAT16_H
