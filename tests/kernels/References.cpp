//===- References.cpp - Host references of the reference checks -----------===//
//
// Floating-point references are computed in long double (64-bit
// significand): far inside any bound for float and double results. Where
// libm has no long double function (sinpi, erfinv, ...), a reduction or a
// Newton iteration on one it has gives the result.
//
//===----------------------------------------------------------------------===//

#include "References.h"

#include <algorithm>
#include <cfenv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace kernelrunner {
namespace {

constexpr long double Pi = 3.141592653589793238462643383279502884L;

/// sin(pi x) and cos(pi x), reduced exactly first.
long double sinpiRef(long double X) {
  if (std::isinf(X))
    return std::numeric_limits<long double>::quiet_NaN();
  long double R = std::fmod(X, 2.0L); // Exact; in (-2, 2).
  if (R > 1)
    R -= 2;
  else if (R < -1)
    R += 2; // Now in [-1, 1]; sin(pi r).
  if (R > 0.5L)
    R = 1 - R;
  else if (R < -0.5L)
    R = -1 - R;
  if (R == 0)
    return X * 0; // Keeps the sign of zero: sinpi(-n) = -0.
  return std::sin(Pi * R);
}
long double cospiRef(long double X) {
  if (std::isinf(X))
    return std::numeric_limits<long double>::quiet_NaN();
  long double R = std::fabs(std::fmod(X, 2.0L)); // [0, 2)
  if (R > 1)
    R = 2 - R; // cos(pi r) = cos(pi (2 - r)); r in [0, 1].
  if (R == 0.5L)
    return 0;
  return sinpiRef(0.5L - R); // Exact: 0.5 - r in [-0.5, 0.5].
}

/// erfcinv: Newton's method on log(erfc(x)) = log(c), for c in (0, 1]
/// (erfc(x) for x up to 27 is a normal long double); erfcinv(2 - c) =
/// -erfcinv(c), and erfinv(y) = erfcinv(1 - y) (exact subtractions for
/// float and double inputs).
long double erfcinvRef(long double C) {
  if (std::isnan(C) || C < 0 || C > 2)
    return std::numeric_limits<long double>::quiet_NaN();
  if (C == 0)
    return std::numeric_limits<long double>::infinity();
  if (C == 2)
    return -std::numeric_limits<long double>::infinity();
  if (C > 1)
    return -erfcinvRef(2 - C);
  const long double TwoOverSqrtPi = 1.128379167095512573896158903121545172L;
  long double LogC = std::log(C);
  long double X = C > 0.5L ? (1 - C) / TwoOverSqrtPi : std::sqrt(-LogC);
  for (int Step = 0; Step < 200; ++Step) {
    long double E = std::erfc(X);
    // d/dx log erfc(x) = -2/sqrt(pi) exp(-x^2) / erfc(x).
    long double D = -TwoOverSqrtPi * std::exp(-X * X) / E;
    long double Next = X - (std::log(E) - LogC) / D;
    if (Next == X || std::fabs(Next - X) <= 1e-21L * std::fabs(X)) {
      X = Next;
      break;
    }
    X = Next;
  }
  return X;
}

long double erfinvRef(long double Y) {
  if (std::isnan(Y) || std::fabs(Y) > 1)
    return std::numeric_limits<long double>::quiet_NaN();
  if (Y == 0)
    return Y;
  if (std::fabs(Y) < 0.5L) { // Newton on erf itself: 1 - y loses digits.
    const long double TwoOverSqrtPi = 1.128379167095512573896158903121545172L;
    long double X = Y / TwoOverSqrtPi;
    for (int Step = 0; Step < 100; ++Step) {
      long double Next =
          X - (std::erf(X) - Y) / (TwoOverSqrtPi * std::exp(-X * X));
      if (Next == X)
        break;
      X = Next;
    }
    return X;
  }
  return Y > 0 ? erfcinvRef(1 - Y) : -erfcinvRef(1 + Y);
}

long double normcdfRef(long double X) {
  const long double Sqrt1_2 = 0.707106781186547524400844362104849039L;
  return 0.5L * std::erfc(-X * Sqrt1_2);
}

/// A 16-bit floating-point format: significant bits, exponent of the
/// smallest normal number, exponent of the largest.
struct Format16 {
  int Precision, MinExp, MaxExp;
};
constexpr Format16 Half = {11, -14, 15};
constexpr Format16 BFloat16 = {8, -126, 127};

/// \p X rounded to \p F in direction \p Mode (FE_*), overflow included,
/// computed on the scaled value: independent of how kernels round.
long double roundTo(Format16 F, long double X, int Mode = FE_TONEAREST) {
  if (std::isnan(X) || std::isinf(X) || X == 0)
    return X;
  int E;
  std::frexp(X, &E);
  int Quantum = std::max(E - 1, F.MinExp) - (F.Precision - 1);
  long double Scaled = std::ldexp(X, -Quantum); // Exact.
  long double Int;
  switch (Mode) {
  case FE_TOWARDZERO:
    Int = std::trunc(Scaled);
    break;
  case FE_DOWNWARD:
    Int = std::floor(Scaled);
    break;
  case FE_UPWARD:
    Int = std::ceil(Scaled);
    break;
  default: {
    Int = std::floor(Scaled);
    long double Fraction = Scaled - Int;
    if (Fraction > 0.5L || (Fraction == 0.5L && std::fmod(Int, 2.0L) != 0))
      Int += 1;
  }
  }
  long double R = std::copysign(std::ldexp(Int, Quantum), X);
  long double MaxFinite =
      std::ldexp(2 - std::ldexp(1.0L, 1 - F.Precision), F.MaxExp);
  if (std::fabs(R) <= MaxFinite)
    return R;
  long double Inf = std::numeric_limits<long double>::infinity();
  bool Positive = X > 0;
  bool ToInfinity = Mode == FE_TONEAREST || (Mode == FE_UPWARD && Positive) ||
                    (Mode == FE_DOWNWARD && !Positive);
  long double Magnitude = ToInfinity ? Inf : MaxFinite;
  return Positive ? Magnitude : -Magnitude;
}

/// A * B + C of format-\p F inputs rounded once to \p F: the product is
/// exact in long double; the sum's rounding error, if any, moves the sum
/// one long double step toward the exact value, off any midpoint of F.
long double fmaTo(Format16 F, long double A, long double B, long double C) {
  A = roundTo(F, A);
  B = roundTo(F, B);
  C = roundTo(F, C);
  long double Product = A * B, Sum = Product + C;
  long double Virtual = Sum - Product;
  long double Error = (Product - (Sum - Virtual)) + (C - Virtual);
  if (Error != 0 && std::isfinite(Sum))
    Sum = std::nextafter(
        Sum, Error > 0 ? std::numeric_limits<long double>::infinity()
                       : -std::numeric_limits<long double>::infinity());
  return roundTo(F, Sum);
}

/// NVIDIA's comparisons of two 16-bit values as bits: lt le gt ge eq ne
/// (false with a NaN), then ltu geu (true with a NaN).
long double compareBits(long double A, long double B) {
  bool Unordered = std::isnan(A) || std::isnan(B);
  int Bits = 0;
  if (!Unordered)
    Bits = (A < B) | (A <= B) << 1 | (A > B) << 2 | (A >= B) << 3 |
           (A == B) << 4 | (A != B) << 5;
  Bits |= (Unordered || A < B) << 6 | (Unordered || A >= B) << 7;
  return Bits;
}

#define FP1(N, E)                                                              \
  {                                                                            \
#N, 1, [](const long double *A) -> long double { return E; }, nullptr      \
  }
#define FP2(N, E)                                                              \
  {                                                                            \
#N, 2, [](const long double *A) -> long double { return E; }, nullptr      \
  }
#define INT(N, K, E)                                                           \
  {                                                                            \
#N, K, nullptr, [](const uint64_t *A) -> uint64_t { return E; }            \
  }

uint32_t lo32(uint64_t V) { return static_cast<uint32_t>(V); }
int32_t s32(uint64_t V) {
  return static_cast<int32_t>(static_cast<uint32_t>(V));
}
int32_t s24(uint64_t V) { // The low 24 bits as a signed number.
  uint32_t L = lo32(V) & 0xffffff;
  return static_cast<int32_t>(L ^ 0x800000) - 0x800000;
}
uint64_t brev64(uint64_t V) {
  uint64_t R = 0;
  for (int B = 0; B < 64; ++B)
    R |= ((V >> B) & 1) << (63 - B);
  return R;
}
uint64_t clz64(uint64_t V, int Bits) {
  int N = 0;
  for (int B = Bits - 1; B >= 0 && !((V >> B) & 1); --B)
    ++N;
  return static_cast<uint64_t>(N);
}
uint64_t ffs64(uint64_t V) {
  for (int B = 0; B < 64; ++B)
    if ((V >> B) & 1)
      return static_cast<uint64_t>(B + 1);
  return 0;
}
uint64_t popc64(uint64_t V) {
  uint64_t N = 0;
  for (; V; V &= V - 1)
    ++N;
  return N;
}
uint64_t bytePerm(uint32_t X, uint32_t Y, uint32_t S) {
  uint64_t Bytes = (static_cast<uint64_t>(Y) << 32) | X;
  uint32_t R = 0;
  for (int K = 0; K < 4; ++K) {
    uint32_t Sel = (S >> (4 * K)) & 7;
    R |= static_cast<uint32_t>((Bytes >> (8 * Sel)) & 0xff) << (8 * K);
  }
  return R;
}
uint64_t umul64hi(uint64_t A, uint64_t B) {
  uint64_t AL = A & 0xffffffff, AH = A >> 32, BL = B & 0xffffffff, BH = B >> 32;
  uint64_t LL = AL * BL, LH = AL * BH, HL = AH * BL, HH = AH * BH;
  uint64_t Mid = (LL >> 32) + (LH & 0xffffffff) + (HL & 0xffffffff);
  return HH + (LH >> 32) + (HL >> 32) + (Mid >> 32);
}
uint64_t mul64hi(uint64_t A, uint64_t B) {
  uint64_t H = umul64hi(A, B);
  if (A >> 63)
    H -= B;
  if (B >> 63)
    H -= A;
  return H;
}
uint64_t funnel(uint64_t Lo, uint64_t Hi, uint64_t Shift, bool Left,
                bool Clamp) {
  uint64_t Wide = (static_cast<uint64_t>(lo32(Hi)) << 32) | lo32(Lo);
  uint32_t N = Clamp ? std::min<uint32_t>(lo32(Shift), 32) : lo32(Shift) & 31;
  return Left ? lo32((Wide << N) >> 32) : lo32(Wide >> N);
}

const Reference References[] = {
    FP1(sin, std::sin(A[0])),
    FP1(cos, std::cos(A[0])),
    FP1(tan, std::tan(A[0])),
    FP1(asin, std::asin(A[0])),
    FP1(acos, std::acos(A[0])),
    FP1(atan, std::atan(A[0])),
    FP2(atan2, std::atan2(A[0], A[1])),
    FP1(sinh, std::sinh(A[0])),
    FP1(cosh, std::cosh(A[0])),
    FP1(tanh, std::tanh(A[0])),
    FP1(asinh, std::asinh(A[0])),
    FP1(acosh, std::acosh(A[0])),
    FP1(atanh, std::atanh(A[0])),
    FP1(exp, std::exp(A[0])),
    FP1(exp2, std::exp2(A[0])),
    FP1(exp10, std::pow(10.0L, A[0])),
    FP1(expm1, std::expm1(A[0])),
    FP1(log, std::log(A[0])),
    FP1(log2, std::log2(A[0])),
    FP1(log10, std::log10(A[0])),
    FP1(log1p, std::log1p(A[0])),
    FP2(pow, std::pow(A[0], A[1])),
    FP1(sqrt, std::sqrt(A[0])),
    FP1(rsqrt, 1 / std::sqrt(A[0])),
    FP1(cbrt, std::cbrt(A[0])),
    FP1(rcbrt, 1 / std::cbrt(A[0])),
    FP2(hypot, std::hypot(A[0], A[1])),
    FP1(erf, std::erf(A[0])),
    FP1(erfc, std::erfc(A[0])),
    FP1(erfinv, erfinvRef(A[0])),
    FP1(erfcinv, erfcinvRef(A[0])),
    FP1(lgamma, std::lgamma(A[0])),
    FP1(tgamma, std::tgamma(A[0])),
    FP2(fmod, std::fmod(A[0], A[1])),
    FP2(remainder, std::remainder(A[0], A[1])),
    FP1(sinpi, sinpiRef(A[0])),
    FP1(cospi, cospiRef(A[0])),
    FP1(normcdf, normcdfRef(A[0])),
    FP2(div, A[0] / A[1]),
    FP1(id, A[0]),
    // The C++ overloads of math_overloads.cu (integer arguments travel as
    // floating-point values).
    FP1(fabs, std::fabs(A[0])),
    FP1(logb, std::logb(A[0])),
    FP1(round, std::round(A[0])),
    FP1(trunc, std::trunc(A[0])),
    FP1(rint, std::rint(A[0])),
    FP2(copysign, std::copysign(A[0], A[1])),
    FP2(nextafterf, std::nextafter(float(A[0]), float(A[1]))),
    FP2(fdim, std::fdim(A[0], A[1])),
    FP2(fmax, std::fmax(A[0], A[1])),
    FP2(fmin, std::fmin(A[0], A[1])),
    {"fma", 3,
     [](const long double *A)
         -> long double { return std::fma(A[0], A[1], A[2]); },
     nullptr},
    FP2(ldexp, std::ldexp(A[0], int(A[1]))),
    FP1(j0, ::j0l(A[0])),
    FP1(j1, ::j1l(A[0])),
    FP2(jn, ::jnl(int(A[0]), A[1])),
    FP1(y0, ::y0l(A[0])),
    FP1(y1, ::y1l(A[0])),
    FP2(yn, ::ynl(int(A[0]), A[1])),
    FP1(cyl_bessel_i0, std::cyl_bessel_il(0.0L, std::fabs(A[0]))),
    FP1(cyl_bessel_i1,
        std::copysign(std::cyl_bessel_il(1.0L, std::fabs(A[0])), A[0])),
    FP1(frexp_mant,
        [](long double X) {
          int E;
          return std::frexp(X, &E);
        }(A[0])),
    FP1(frexp_exp,
        [](long double X) {
          int E;
          std::frexp(X, &E);
          return (long double)E;
        }(A[0])),
    FP1(modf_frac,
        [](long double X) {
          long double I;
          return std::modf(X, &I);
        }(A[0])),
    // cuda_fp16.h and cuda_bf16.h (fp16.cu): conversions of a float in
    // each rounding mode, and operations on float inputs first rounded to
    // the format, their result rounded once.
    FP1(half_near, roundTo(Half, A[0])),
    FP1(half_zero, roundTo(Half, A[0], FE_TOWARDZERO)),
    FP1(half_down, roundTo(Half, A[0], FE_DOWNWARD)),
    FP1(half_up, roundTo(Half, A[0], FE_UPWARD)),
    FP2(half_add, roundTo(Half, roundTo(Half, A[0]) + roundTo(Half, A[1]))),
    FP2(half_sub, roundTo(Half, roundTo(Half, A[0]) - roundTo(Half, A[1]))),
    FP2(half_mul, roundTo(Half, roundTo(Half, A[0]) * roundTo(Half, A[1]))),
    FP2(half_div, roundTo(Half, roundTo(Half, A[0]) / roundTo(Half, A[1]))),
    FP1(half_sqrt, roundTo(Half, std::sqrt(roundTo(Half, A[0])))),
    FP2(half_max, std::fmax(roundTo(Half, A[0]), roundTo(Half, A[1]))),
    FP2(half_compare, compareBits(roundTo(Half, A[0]), roundTo(Half, A[1]))),
    {"half_fma", 3,
     [](const long double *A)
         -> long double { return fmaTo(Half, A[0], A[1], A[2]); },
     nullptr},
    FP1(bf16_near, roundTo(BFloat16, A[0])),
    FP1(bf16_zero, roundTo(BFloat16, A[0], FE_TOWARDZERO)),
    FP1(bf16_down, roundTo(BFloat16, A[0], FE_DOWNWARD)),
    FP1(bf16_up, roundTo(BFloat16, A[0], FE_UPWARD)),
    FP2(bf16_add,
        roundTo(BFloat16, roundTo(BFloat16, A[0]) + roundTo(BFloat16, A[1]))),
    FP2(bf16_sub,
        roundTo(BFloat16, roundTo(BFloat16, A[0]) - roundTo(BFloat16, A[1]))),
    FP2(bf16_mul,
        roundTo(BFloat16, roundTo(BFloat16, A[0]) * roundTo(BFloat16, A[1]))),
    FP2(bf16_div,
        roundTo(BFloat16, roundTo(BFloat16, A[0]) / roundTo(BFloat16, A[1]))),
    {"bf16_fma", 3,
     [](const long double *A)
         -> long double { return fmaTo(BFloat16, A[0], A[1], A[2]); },
     nullptr},
    INT(popc, 1, popc64(A[0])),
    INT(clz32, 1, clz64(A[0], 32)),
    INT(clz64, 1, clz64(A[0], 64)),
    INT(ffs32, 1, ffs64(lo32(A[0]))),
    INT(ffs64, 1, ffs64(A[0])),
    INT(brev32, 1, brev64(A[0]) >> 32),
    INT(brev64, 1, brev64(A[0])),
    INT(byte_perm, 3, bytePerm(lo32(A[0]), lo32(A[1]), lo32(A[2]))),
    INT(mul24, 2, lo32(static_cast<uint64_t>(int64_t(s24(A[0])) * s24(A[1])))),
    INT(umul24, 2, lo32((A[0] & 0xffffff) * (A[1] & 0xffffff))),
    INT(mulhi, 2,
        lo32(static_cast<uint64_t>(int64_t(s32(A[0])) * s32(A[1])) >> 32)),
    INT(umulhi, 2, (uint64_t(lo32(A[0])) * lo32(A[1])) >> 32),
    INT(mul64hi, 2, mul64hi(A[0], A[1])),
    INT(umul64hi, 2, umul64hi(A[0], A[1])),
    INT(sad, 3,
        lo32(static_cast<uint64_t>(std::llabs(int64_t(s32(A[0])) - s32(A[1]))) +
             lo32(A[2]))),
    INT(usad, 3,
        lo32((lo32(A[0]) > lo32(A[1]) ? lo32(A[0]) - lo32(A[1])
                                      : lo32(A[1]) - lo32(A[0])) +
             uint64_t(lo32(A[2])))),
    INT(hadd, 2,
        lo32(static_cast<uint64_t>((int64_t(s32(A[0])) + s32(A[1])) >> 1))),
    INT(rhadd, 2,
        lo32(static_cast<uint64_t>((int64_t(s32(A[0])) + s32(A[1]) + 1) >> 1))),
    INT(uhadd, 2, (uint64_t(lo32(A[0])) + lo32(A[1])) >> 1),
    INT(urhadd, 2, (uint64_t(lo32(A[0])) + lo32(A[1]) + 1) >> 1),
    INT(funnelshift_l, 3, funnel(A[0], A[1], A[2], true, false)),
    INT(funnelshift_lc, 3, funnel(A[0], A[1], A[2], true, true)),
    INT(funnelshift_r, 3, funnel(A[0], A[1], A[2], false, false)),
    INT(funnelshift_rc, 3, funnel(A[0], A[1], A[2], false, true)),
    INT(bits, 1, A[0]),
};
#undef FP1
#undef FP2
#undef INT

} // namespace

const Reference *findReference(const std::string &Name) {
  const Reference *Ref = nullptr;
  for (const Reference &R : References)
    if (Name == R.Name)
      Ref = &R;
  return Ref;
}

// The operands pass through volatile objects so that the operation happens
// between the two fesetround calls.
template <typename T>
T roundedOp(const std::string &Op, int Mode, const Value *V) {
  auto Get = [&](int K) -> T {
    if (V[K].Type == "f32") {
      float F;
      std::memcpy(&F, &V[K].Bits, 4);
      return static_cast<T>(F);
    }
    double D;
    std::memcpy(&D, &V[K].Bits, 8);
    return static_cast<T>(D);
  };
  int Old = std::fegetround();
  std::fesetround(Mode);
  volatile T R;
  if (Op == "cvt") {
    // From an integer or a wider floating-point type, rounded once.
    if (V[0].Type == "f64") {
      volatile double D = static_cast<double>(V[0].Num);
      R = static_cast<T>(D);
    } else if (V[0].Type[0] == 'i') {
      volatile int64_t I = static_cast<int64_t>(V[0].Num);
      R = static_cast<T>(I);
    } else {
      volatile uint64_t U = V[0].Bits;
      R = static_cast<T>(U);
    }
  } else {
    volatile T A = Get(0);
    if (Op == "sqrt") {
      R = std::sqrt(A);
    } else if (Op == "rcp") {
      R = T(1) / A;
    } else {
      volatile T B = Get(1);
      if (Op == "add")
        R = A + B;
      else if (Op == "sub")
        R = A - B;
      else if (Op == "mul")
        R = A * B;
      else if (Op == "div")
        R = A / B;
      else {
        volatile T C = Get(2);
        R = std::fma(A, B, C);
      }
    }
  }
  T Out = R;
  std::fesetround(Old);
  return Out;
}

template float roundedOp<float>(const std::string &, int, const Value *);
template double roundedOp<double>(const std::string &, int, const Value *);

// NaN converts as on an H200: to 0 from f32 to a 32-bit integer, otherwise
// to the sign bit alone (0x80000000, 0x8000000000000000), unsigned
// destinations included.
long double toIntegerRef(long double X, int Mode, const std::string &From,
                         const std::string &To) {
  unsigned Bits = 8 * static_cast<unsigned>(typeSize(To));
  if (std::isnan(X))
    return From == "f32" && Bits == 32 ? 0 : std::ldexp(1.0L, Bits - 1);
  switch (Mode) {
  case FE_TONEAREST:
    X = std::nearbyint(X);
    break;
  case FE_TOWARDZERO:
    X = std::trunc(X);
    break;
  case FE_UPWARD:
    X = std::ceil(X);
    break;
  default:
    X = std::floor(X);
    break;
  }
  long double Lo = To[0] == 'u' ? 0 : -std::ldexp(1.0L, Bits - 1);
  long double Hi = std::ldexp(1.0L, To[0] == 'u' ? Bits : Bits - 1) - 1;
  return std::clamp(X, Lo, Hi);
}

} // namespace kernelrunner
