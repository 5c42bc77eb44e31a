//===- ConversionTest.cpp - PTX kernels: cvt, isspacep --------------------===//
//
// Each test runs one instruction over many inputs (edge cases: NaN, inf,
// -0, subnormals, out-of-range values, halfway cases of every rounding
// mode) and checks the results against a C++ reference of the PTX ISA's
// semantics, with the host's rounding modes (fesetround) where rounding
// matters. Where the ISA leaves a result open (NaN to an integer, NaN bits)
// the expectation is what an H200 gives (measured with the same PTX).
//
//===----------------------------------------------------------------------===//

#include "OneInstruction.h"

#include <algorithm>
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>

using namespace cucpu::test;
using namespace cucpu::test::single;

namespace {

using PtxConversion = OneInstructionTest;

/// Floats every conversion test starts from: zeros, subnormals, extremes,
/// infinities, NaNs, halfway cases and integer-range boundaries.
std::vector<float> edgeFloats() {
  std::vector<float> V = {0.0f,
                          -0.0f,
                          0x1p-149f,
                          -0x1p-149f,
                          0x1.fffffcp-127f,
                          0x1p-126f,
                          -0x1p-126f,
                          0x1.fffffep127f,
                          -0x1.fffffep127f,
                          INFINITY,
                          -INFINITY,
                          floatOf(0x7fc00000),
                          floatOf(0xffc00000),
                          floatOf(0x7f800001),
                          127.5f,
                          128.0f,
                          -128.5f,
                          -129.0f,
                          255.5f,
                          256.0f,
                          32767.5f,
                          -32768.5f,
                          65535.5f,
                          2147483520.0f,
                          2147483648.0f,
                          -2147483904.0f,
                          4294967296.0f,
                          0x1p63f,
                          -0x1p63f,
                          0x1p64f,
                          65504.0f,
                          65519.996f,
                          65520.0f,
                          3.14159265f,
                          1e-10f,
                          6.0e-8f,
                          2.98e-8f,
                          2.99e-8f};
  for (int K = -6; K <= 6; ++K) {
    V.push_back(K + 0.5f);
    V.push_back(std::nextafter(K + 0.5f, 100.0f));
    V.push_back(std::nextafter(K + 0.5f, -100.0f));
  }
  // Bit patterns across the whole range.
  for (uint32_t U = 0; U < 0xffffffffu - 0x00fedcbau; U += 0x00fedcbau)
    V.push_back(floatOf(U));
  // f16 and bf16 rounding boundaries (low 13 and 16 bits around half).
  for (int E = -26; E <= 16; ++E)
    for (uint32_t M : {0x1000u, 0x0fffu, 0x1001u, 0x3000u, 0x8000u, 0x7fffu,
                       0x18000u, 0x7ff000u})
      V.push_back(floatOf(uint32_t(E + 127) << 23 | M));
  return V;
}

std::vector<double> edgeDoubles() {
  std::vector<double> V;
  for (float F : edgeFloats())
    V.push_back(F);
  for (double D :
       {0x1p-1074, 0x1p-1022, 0x1.fffffffffffffp1023, 2147483647.5,
        -2147483648.5, 4294967295.5, 0x1.fffffffffffffp62, 1e300, 1e-300,
        0x1.000001p0, 0x1.0000010000001p0, 0x1.0000030000000p0, 0x1.ffffffp127,
        0x1.fffffefffffffp127, 0x1p-150, 0x1.0000000000001p-150, 0x1.8p-149,
        0x1.0000000000001p-149, 7.0064923216240854e-46})
    V.push_back(D);
  V.push_back(doubleOf(0x7ff4000000000000ull));
  V.push_back(doubleOf(0xfff8000000000000ull));
  for (uint64_t U = 0; U < 0xffffffffffffffffull - 0x00fedcba98765432ull;
       U += 0x00fedcba98765432ull)
    V.push_back(doubleOf(U));
  return V;
}

/// A rounding mode by its PTX name.
int hostMode(char M) {
  switch (M) {
  case 'n':
    return FE_TONEAREST;
  case 'z':
    return FE_TOWARDZERO;
  case 'm':
    return FE_DOWNWARD;
  default:
    return FE_UPWARD;
  }
}

/// \p X rounded to an integral value in mode \p M.
template <class F> F roundIn(F X, char M) {
  return M == 'n'   ? std::nearbyint(X)
         : M == 'z' ? std::trunc(X)
         : M == 'm' ? std::floor(X)
                    : std::ceil(X);
}

/// PTX cvt.r?i.<Int>.<F>: round, saturate. NaN as the H200 gives it: 0 from
/// a float to up to 32 bits, otherwise the destination's sign bit alone.
template <class Int, class F> Int cvtToInt(F X, char M) {
  if (std::isnan(X)) {
    if (sizeof(F) == 4 && sizeof(Int) <= 4)
      return 0;
    using U = std::make_unsigned_t<Int>;
    return Int(U(U(1) << (8 * sizeof(Int) - 1)));
  }
  long double R = roundIn<long double>(X, M);
  if (R <= (long double)std::numeric_limits<Int>::min())
    return std::numeric_limits<Int>::min();
  if (R >= (long double)std::numeric_limits<Int>::max())
    return std::numeric_limits<Int>::max();
  return Int(R);
}

template <class Int, class F, class Reg>
void checkFloatToInt(PtxConversion &T, const char *IntName, const char *FName,
                     const std::vector<F> &In) {
  std::vector<Reg> Bits;
  for (F X : In) {
    Reg B;
    std::memcpy(&B, &X, sizeof(Reg));
    Bits.push_back(B);
  }
  using OutReg = std::conditional_t<sizeof(Int) == 8, uint64_t, uint32_t>;
  for (char M : {'n', 'z', 'm', 'p'}) {
    std::string Instr =
        std::string("cvt.r") + M + "i." + IntName + "." + FName + " %d, %a;";
    auto Out = T.template apply<OutReg>(Instr, Bits);
    ASSERT_EQ(In.size(), Out.size());
    for (size_t K = 0; K < In.size(); ++K) {
      // A narrow result is extended in the wider register by its type.
      OutReg Want = OutReg(std::make_signed_t<OutReg>(cvtToInt<Int>(In[K], M)));
      if (!std::numeric_limits<Int>::is_signed)
        Want = OutReg(std::make_unsigned_t<Int>(cvtToInt<Int>(In[K], M)));
      ASSERT_EQ(Want, Out[K]) << Instr << " of " << In[K] << " (bits 0x"
                              << std::hex << uint64_t(Bits[K]) << ")";
    }
  }
}

using PtxConversionTest = PtxConversion;

TEST_F(PtxConversionTest, FloatToIntegerRoundsSaturatesAndMapsNaN) {
  std::vector<float> F = edgeFloats();
  checkFloatToInt<int32_t, float, uint32_t>(*this, "s32", "f32", F);
  checkFloatToInt<uint32_t, float, uint32_t>(*this, "u32", "f32", F);
  checkFloatToInt<int64_t, float, uint32_t>(*this, "s64", "f32", F);
  checkFloatToInt<uint64_t, float, uint32_t>(*this, "u64", "f32", F);
  checkFloatToInt<int8_t, float, uint32_t>(*this, "s8", "f32", F);
  checkFloatToInt<uint16_t, float, uint32_t>(*this, "u16", "f32", F);
  std::vector<double> D = edgeDoubles();
  checkFloatToInt<int32_t, double, uint64_t>(*this, "s32", "f64", D);
  checkFloatToInt<uint32_t, double, uint64_t>(*this, "u32", "f64", D);
  checkFloatToInt<int64_t, double, uint64_t>(*this, "s64", "f64", D);
  checkFloatToInt<uint64_t, double, uint64_t>(*this, "u64", "f64", D);
  checkFloatToInt<uint8_t, double, uint64_t>(*this, "u8", "f64", D);
  checkFloatToInt<int16_t, double, uint64_t>(*this, "s16", "f64", D);
}

TEST_F(PtxConversionTest, FtzFlushesSubnormalsBeforeRounding) {
  std::vector<uint32_t> In = {bitsOf(0x1p-149f), bitsOf(-0x1p-149f),
                              bitsOf(0x1p-126f)};
  auto Up = apply<uint32_t>("cvt.rpi.ftz.s32.f32 %d, %a;", In);
  auto UpKeep = apply<uint32_t>("cvt.rpi.s32.f32 %d, %a;", In);
  auto Down = apply<uint32_t>("cvt.rmi.ftz.s32.f32 %d, %a;", In);
  EXPECT_EQ((std::vector<uint32_t>{0, 0, 1}), Up) << "subnormals become 0";
  EXPECT_EQ((std::vector<uint32_t>{1, 0, 1}), UpKeep) << "without .ftz";
  EXPECT_EQ((std::vector<uint32_t>{0, 0, 0}), Down) << "-0 rounds down to 0";
}

/// The host's conversion of \p X to \p To in the rounding mode \p M.
template <class To, class From> To convertIn(From X, char M) {
  int Old = std::fegetround();
  std::fesetround(hostMode(M));
  volatile From V = X;
  volatile To R = static_cast<To>(V);
  std::fesetround(Old);
  return R;
}

std::vector<uint64_t> edgeIntegers() {
  std::vector<uint64_t> V;
  for (int64_t K = -70; K <= 70; ++K)
    V.push_back(uint64_t(K));
  for (int P = 7; P < 64; ++P)
    for (int64_t D = -3; D <= 3; ++D) {
      V.push_back((uint64_t(1) << P) + D);
      V.push_back(uint64_t(-(int64_t(1) << (P - 1))) * 2 + D);
    }
  // Halfway cases for 24 (float), 53 (double), 11 (f16) and 8 (bf16) bits.
  for (int Bits : {8, 11, 24, 53})
    for (int P = Bits + 1; P < 64; P += 5)
      for (uint64_t M : {1ull, 3ull}) {
        uint64_t Half = uint64_t(1) << P | M << (P - Bits - 1);
        for (uint64_t X : {Half, Half + 1, Half - 1, -Half, -(Half + 1)})
          V.push_back(X);
      }
  uint64_t X = 0x9e3779b97f4a7c15ull;
  for (int K = 0; K < 500; ++K) {
    X ^= X << 13, X ^= X >> 7, X ^= X << 17;
    V.push_back(K % 2 ? X : uint32_t(X));
  }
  return V;
}

TEST_F(PtxConversionTest, IntegerToFloatRoundsInEachMode) {
  std::vector<uint64_t> In = edgeIntegers();
  std::vector<uint32_t> In32;
  for (uint64_t X : In)
    In32.push_back(uint32_t(X));
  for (char M : {'n', 'z', 'm', 'p'}) {
    std::string R = std::string("cvt.r") + M;
    auto S32 = apply<uint32_t>(R + ".f32.s32 %d, %a;", In32);
    auto U32 = apply<uint32_t>(R + ".f32.u32 %d, %a;", In32);
    auto S64 = apply<uint32_t>(R + ".f32.s64 %d, %a;", In);
    auto U64 = apply<uint32_t>(R + ".f32.u64 %d, %a;", In);
    auto D64 = apply<uint64_t>(R + ".f64.s64 %d, %a;", In);
    auto DU64 = apply<uint64_t>(R + ".f64.u64 %d, %a;", In);
    ASSERT_EQ(In.size(), DU64.size());
    for (size_t K = 0; K < In.size(); ++K) {
      EXPECT_EQ(bitsOf(convertIn<float>(int32_t(In32[K]), M)), S32[K])
          << R << ".f32.s32 of " << int32_t(In32[K]);
      EXPECT_EQ(bitsOf(convertIn<float>(In32[K], M)), U32[K])
          << R << ".f32.u32 of " << In32[K];
      EXPECT_EQ(bitsOf(convertIn<float>(int64_t(In[K]), M)), S64[K])
          << R << ".f32.s64 of " << int64_t(In[K]);
      EXPECT_EQ(bitsOf(convertIn<float>(In[K], M)), U64[K])
          << R << ".f32.u64 of " << In[K];
      EXPECT_EQ(bitsOf(convertIn<double>(int64_t(In[K]), M)), D64[K])
          << R << ".f64.s64 of " << int64_t(In[K]);
      EXPECT_EQ(bitsOf(convertIn<double>(In[K], M)), DU64[K])
          << R << ".f64.u64 of " << In[K];
    }
  }
}

TEST_F(PtxConversionTest, DoubleToFloatRoundsInEachMode) {
  std::vector<double> In = edgeDoubles();
  std::vector<uint64_t> Bits;
  for (double D : In)
    Bits.push_back(bitsOf(D));
  for (char M : {'n', 'z', 'm', 'p'}) {
    std::string Instr = std::string("cvt.r") + M + ".f32.f64 %d, %a;";
    auto Out = apply<uint32_t>(Instr, Bits);
    ASSERT_EQ(In.size(), Out.size());
    for (size_t K = 0; K < In.size(); ++K)
      EXPECT_EQ(bitsOf(convertIn<float>(In[K], M)), Out[K])
          << Instr << " of " << In[K] << " (0x" << std::hex << Bits[K] << ")";
  }
}

/// Every finite non-negative value of a 16-bit format, ascending, as
/// doubles, then the power of two after the largest (standing for infinity
/// when rounding, as IEEE 754 rounds with an unbounded exponent).
std::vector<double> halfMagnitudes(bool BFloat) {
  std::vector<double> V;
  for (uint32_t H = 0; H < (BFloat ? 0x7f80u : 0x7c00u); ++H) {
    if (BFloat) {
      V.push_back(floatOf(H << 16));
    } else {
      unsigned E = H >> 10, Mant = H & 0x3ff;
      V.push_back(E ? std::ldexp(1024.0 + Mant, int(E) - 25)
                    : std::ldexp(double(Mant), -24));
    }
  }
  V.push_back(BFloat ? 0x1p128 : 0x1p16);
  return V;
}

/// PTX cvt.r?.{f16,bf16}.{f32,f64}: \p X rounded to the 16-bit format in
/// mode \p M, found among all of the format's values. NaN: 0x7fff from a
/// float; from a double, the quieted NaN keeping the top of the payload
/// (H200).
uint16_t toHalfReference(long double X, bool FromDouble, bool BFloat, char M) {
  static const std::vector<double> Mags[2] = {halfMagnitudes(false),
                                              halfMagnitudes(true)};
  const std::vector<double> &Mag = Mags[BFloat];
  unsigned MantBits = BFloat ? 7 : 10;
  uint16_t Inf = BFloat ? 0x7f80 : 0x7c00;
  uint16_t Sign = std::signbit(X) ? 0x8000 : 0;
  if (std::isnan(X)) {
    if (!FromDouble)
      return 0x7fff;
    uint64_t U = bitsOf(double(X));
    return uint16_t(Sign | Inf | 1u << (MantBits - 1) |
                    ((U >> (52 - MantBits)) & ((1u << MantBits) - 1)));
  }
  long double A = std::fabs(X);
  if (std::isinf(A))
    return Sign | Inf;
  // Magnitudes Lo <= A < Hi (Hi may be the stand-in for infinity).
  size_t Hi = std::upper_bound(Mag.begin(), Mag.end(), A) - Mag.begin();
  bool Away = (M == 'p' && !Sign) || (M == 'm' && Sign);
  size_t Pick;
  if (Hi == Mag.size()) { // beyond the stand-in: overflow
    Pick = (M == 'n' || Away) ? Mag.size() - 1 : Mag.size() - 2;
  } else {
    size_t Lo = Hi - 1;
    if (Mag[Lo] == A || M == 'z' || (!Away && M != 'n'))
      Pick = Lo;
    else if (Away)
      Pick = Hi;
    else {
      long double DLo = A - Mag[Lo], DHi = Mag[Hi] - A;
      Pick = DLo < DHi ? Lo : DHi < DLo ? Hi : (Lo % 2 ? Hi : Lo);
    }
  }
  uint16_t Bits = Pick == Mag.size() - 1 ? Inf : uint16_t(Pick);
  return Sign | Bits;
}

TEST_F(PtxConversionTest, NarrowingToHalfAndBFloatRoundsInEachMode) {
  std::vector<float> F = edgeFloats();
  std::vector<uint32_t> FBits;
  for (float X : F)
    FBits.push_back(bitsOf(X));
  std::vector<double> D = edgeDoubles();
  std::vector<uint64_t> DBits;
  for (double X : D)
    DBits.push_back(bitsOf(X));
  for (bool BFloat : {false, true})
    for (char M : {'n', 'z', 'm', 'p'}) {
      std::string Instr = std::string("cvt.r") + M +
                          (BFloat ? ".bf16" : ".f16") + ".f32 %d, %a;";
      auto Out = apply<uint16_t>(Instr, FBits);
      ASSERT_EQ(F.size(), Out.size());
      for (size_t K = 0; K < F.size(); ++K)
        ASSERT_EQ(toHalfReference(F[K], false, BFloat, M), Out[K])
            << Instr << " of " << F[K] << " (0x" << std::hex << FBits[K] << ")";
      Instr = std::string("cvt.r") + M + (BFloat ? ".bf16" : ".f16") +
              ".f64 %d, %a;";
      Out = apply<uint16_t>(Instr, DBits);
      ASSERT_EQ(D.size(), Out.size());
      for (size_t K = 0; K < D.size(); ++K)
        ASSERT_EQ(toHalfReference(D[K], true, BFloat, M), Out[K])
            << Instr << " of " << D[K] << " (0x" << std::hex << DBits[K] << ")";
    }
}

TEST_F(PtxConversionTest, IntegerToHalfRoundsOnce) {
  // Integers beyond 2^24 round once to 11 or 8 bits, not through float.
  std::vector<uint64_t> In = edgeIntegers();
  for (bool BFloat : {false, true})
    for (char M : {'n', 'z', 'm', 'p'}) {
      std::string Instr = std::string("cvt.r") + M +
                          (BFloat ? ".bf16" : ".f16") + ".s64 %d, %a;";
      auto Out = apply<uint16_t>(Instr, In);
      ASSERT_EQ(In.size(), Out.size());
      for (size_t K = 0; K < In.size(); ++K) {
        int64_t X = int64_t(In[K]);
        // A long double holds every 64-bit integer exactly.
        ASSERT_EQ(toHalfReference((long double)X, false, BFloat, M), Out[K])
            << Instr << " of " << X;
      }
    }
}

TEST_F(PtxConversionTest, WideningIsExactAndNaNsAreTheGpus) {
  std::vector<uint16_t> All(65536);
  for (unsigned K = 0; K < 65536; ++K)
    All[K] = uint16_t(K);
  auto F32 = apply<uint32_t>("cvt.f32.f16 %d, %a;", All);
  auto B32 = apply<uint32_t>("cvt.f32.bf16 %d, %a;", All);
  auto F64 = apply<uint64_t>("cvt.f64.f16 %d, %a;", All);
  ASSERT_EQ(65536u, F64.size());
  for (unsigned K = 0; K < 65536; ++K) {
    unsigned E = (K >> 10) & 0x1f, Mant = K & 0x3ff;
    bool NaN = E == 31 && Mant;
    double V = E == 31  ? INFINITY
               : E == 0 ? std::ldexp(double(Mant), -24)
                        : std::ldexp(1024.0 + Mant, int(E) - 25);
    if (K & 0x8000)
      V = -V;
    // f16 NaN to f32: the canonical 0x7fffffff (H200); to f64 the payload
    // stays, quieted.
    uint32_t WantF = NaN ? 0x7fffffffu : bitsOf(float(V));
    uint64_t WantD = NaN ? (uint64_t(K & 0x8000) << 48 | 0x7ff8000000000000ull |
                            uint64_t(Mant) << 42)
                         : bitsOf(V);
    ASSERT_EQ(WantF, F32[K]) << "cvt.f32.f16 of 0x" << std::hex << K;
    ASSERT_EQ(WantD, F64[K]) << "cvt.f64.f16 of 0x" << std::hex << K;
    ASSERT_EQ(uint32_t(K) << 16, B32[K])
        << "cvt.f32.bf16 of 0x" << std::hex << K;
  }
}

TEST_F(PtxConversionTest, FloatToFloatIntegralFtzAndSat) {
  std::vector<float> F = edgeFloats();
  std::vector<uint32_t> Bits;
  for (float X : F)
    Bits.push_back(bitsOf(X));
  auto Sat = apply<uint32_t>("cvt.sat.f32.f32 %d, %a;", Bits);
  auto Ftz = apply<uint32_t>("cvt.ftz.f32.f32 %d, %a;", Bits);
  auto FtzD = apply<uint64_t>("cvt.ftz.f64.f32 %d, %a;", Bits);
  ASSERT_EQ(F.size(), FtzD.size());
  for (char M : {'n', 'z', 'm', 'p'}) {
    std::string Instr = std::string("cvt.r") + M + "i.f32.f32 %d, %a;";
    auto Out = apply<uint32_t>(Instr, Bits);
    ASSERT_EQ(F.size(), Out.size());
    for (size_t K = 0; K < F.size(); ++K) {
      uint32_t Want = std::isnan(F[K]) ? 0x7fffffffu : bitsOf(roundIn(F[K], M));
      ASSERT_EQ(Want, Out[K]) << Instr << " of " << F[K];
    }
  }
  for (size_t K = 0; K < F.size(); ++K) {
    float X = F[K];
    float S = X > 0 ? (X < 1 ? X : 1.0f) : 0.0f; // NaN and -0: +0
    EXPECT_EQ(bitsOf(S), Sat[K]) << "cvt.sat.f32.f32 of " << X;
    bool Sub = X != 0 && std::fabs(X) < 0x1p-126f;
    float Z = Sub ? std::copysign(0.0f, X) : X;
    uint32_t WantZ = std::isnan(X) ? 0x7fffffffu : bitsOf(Z);
    EXPECT_EQ(WantZ, Ftz[K]) << "cvt.ftz.f32.f32 of " << X;
    uint64_t WantD = std::isnan(X) ? 0x7fffffffe0000000ull : bitsOf(double(Z));
    EXPECT_EQ(WantD, FtzD[K]) << "cvt.ftz.f64.f32 of " << X;
  }
}

TEST_F(PtxConversionTest, IntegerToIntegerExtendsTruncatesAndSaturates) {
  std::vector<uint64_t> In = edgeIntegers();
  std::vector<uint32_t> In32;
  for (uint64_t X : In)
    In32.push_back(uint32_t(X));
  auto S8 = apply<uint32_t>("cvt.s32.s8 %d, %a;", In32);
  auto U16 = apply<uint32_t>("cvt.u32.u16 %d, %a;", In32);
  auto Low = apply<uint32_t>("cvt.u32.u64 %d, %a;", In);
  auto Ext = apply<uint64_t>("cvt.s64.s32 %d, %a;", In32);
  auto SatU8 = apply<uint32_t>("cvt.sat.u8.s32 %d, %a;", In32);
  auto SatS16 = apply<uint32_t>("cvt.sat.s16.s64 %d, %a;", In);
  auto SatS32 = apply<uint32_t>("cvt.sat.s32.u32 %d, %a;", In32);
  auto SatU64 = apply<uint64_t>("cvt.sat.u64.s64 %d, %a;", In);
  auto Narrow = apply<uint32_t>("cvt.s8.s32 %d, %a;", In32);
  ASSERT_EQ(In.size(), Narrow.size());
  for (size_t K = 0; K < In.size(); ++K) {
    uint32_t X = In32[K];
    int64_t W = int64_t(In[K]);
    EXPECT_EQ(uint32_t(int32_t(int8_t(X))), S8[K]) << "s8 of " << X;
    EXPECT_EQ(X & 0xffff, U16[K]) << "u16 of " << X;
    EXPECT_EQ(uint32_t(In[K]), Low[K]);
    EXPECT_EQ(uint64_t(int64_t(int32_t(X))), Ext[K]);
    EXPECT_EQ(uint32_t(std::clamp<int64_t>(int32_t(X), 0, 255)), SatU8[K])
        << "cvt.sat.u8.s32 of " << int32_t(X);
    EXPECT_EQ(uint32_t(int32_t(std::clamp<int64_t>(W, -32768, 32767))),
              SatS16[K])
        << "cvt.sat.s16.s64 of " << W << ": sign-extended in the register";
    EXPECT_EQ(std::min<uint32_t>(X, 0x7fffffff), SatS32[K]);
    EXPECT_EQ(uint64_t(std::max<int64_t>(W, 0)), SatU64[K]);
    EXPECT_EQ(uint32_t(int32_t(int8_t(X))), Narrow[K])
        << "cvt.s8.s32 truncates and sign-extends in the register";
  }
}

TEST_F(PtxConversionTest, PackingTwoFloatsPutsTheFirstHigh) {
  std::vector<uint32_t> A = {
      bitsOf(1.0f), bitsOf(-2.5f), bitsOf(1e6f),          bitsOf(-0.0f),
      bitsOf(NAN),  bitsOf(-1e6f), bitsOf(1.00048828125f)};
  std::vector<uint32_t> B = {
      bitsOf(0.5f),      bitsOf(INFINITY), bitsOf(-3.0f),         bitsOf(0.0f),
      bitsOf(-70000.0f), bitsOf(2.0f),     bitsOf(1.00048828125f)};
  auto F16 = apply<uint32_t>("cvt.rn.f16x2.f32 %d, %a, %b;", A, &B);
  auto Relu = apply<uint32_t>("cvt.rn.relu.f16x2.f32 %d, %a, %b;", A, &B);
  auto Sat = apply<uint32_t>("cvt.rn.satfinite.f16x2.f32 %d, %a, %b;", A, &B);
  auto BF = apply<uint32_t>("cvt.rz.bf16x2.f32 %d, %a, %b;", A, &B);
  ASSERT_EQ(A.size(), BF.size());
  for (size_t K = 0; K < A.size(); ++K) {
    auto Pack = [&](bool BFloat, char M) {
      return uint32_t(toHalfReference(floatOf(A[K]), false, BFloat, M)) << 16 |
             toHalfReference(floatOf(B[K]), false, BFloat, M);
    };
    EXPECT_EQ(Pack(false, 'n'), F16[K]) << "pair " << K;
    EXPECT_EQ(Pack(true, 'z'), BF[K]) << "pair " << K;
  }
  // .relu: negatives and -0 give +0, NaN the canonical NaN.
  EXPECT_EQ(0x3c003800u, Relu[0]);
  EXPECT_EQ(0x00007c00u, Relu[1]);
  EXPECT_EQ(0x00000000u, Relu[3]) << "-0 gives +0 (H200)";
  EXPECT_EQ(0x7fff0000u, Relu[4]);
  // .satfinite: infinities and overflows become the largest finite value.
  EXPECT_EQ(0xc1007bffu, Sat[1]);
  EXPECT_EQ(0x7bffc200u, Sat[2]);
  EXPECT_EQ(0x7ffffbffu, Sat[4]);
}

TEST_F(PtxConversionTest, InvalidFormsAreRejectedWithTheirName) {
  const char *Regs = ".reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n.reg .b16 %h<4>;";
  EXPECT_TRUE(rejects("cvt.rn.s32.f32 %r1, %r2;", Regs))
      << "float to integer needs an integer rounding";
  EXPECT_TRUE(rejects("cvt.rzi.f32.s32 %r1, %r2;", Regs))
      << "integer to float needs a float rounding";
  EXPECT_TRUE(rejects("cvt.f32.f64 %r1, %rd2;", Regs))
      << "narrowing needs a rounding";
  EXPECT_TRUE(rejects("cvt.rni.f32.f64 %r1, %rd2;", Regs))
      << "integral rounding between different types";
  EXPECT_TRUE(rejects("cvt.sat.s32.s16 %r1, %r2;", Regs))
      << ".sat where nothing can saturate (ptxas rejects it)";
  EXPECT_TRUE(rejects("cvt.rn.bf16.s16 %h1, %r2;", Regs))
      << "bf16 from a 16-bit integer (ptxas rejects it)";
  EXPECT_TRUE(rejects("cvt.rm.f16x2.f32 %r1, %r2, %r3;", Regs))
      << "packing rounds only .rn or .rz";
  EXPECT_TRUE(rejects("cvt.rn.satfinite.e2m1x2.f32 %h1, %r2, %r3;", Regs))
      << "sm_100's 4-bit floats are not supported";
  EXPECT_TRUE(rejects("cvt.rn.e4m3x2.f32 %h1, %r2, %r3;", Regs))
      << "8-bit floats need .satfinite";
  EXPECT_TRUE(rejects("cvt.rn.satfinite.tf32.f32 %r1, %r2;", Regs))
      << "tf32 .rn with .satfinite is sm_100's (ptxas rejects it for sm_90)";
  EXPECT_TRUE(rejects("cvt.ftz.f64.f64 %rd1, %rd2;", Regs))
      << ".ftz applies to .f32 only";
  EXPECT_TRUE(rejects("cvt.rn.relu.f32.f64 %r1, %rd2;", Regs))
      << ".relu converts to 16-bit formats only";
}

// isspacep tells the block's shared memory, static and dynamic, from a
// device buffer (.shared::cluster as .shared: a cluster is one block);
// %dynamic_smem_size is the launch's dynamic shared bytes.
TEST_F(PtxConversionTest, IsSpaceTellsSharedFromGlobal) {
  std::string Ptx = ptxHeader() + R"(
.shared .align 4 .b32 s[32];
.extern .shared .align 16 .b8 dyn[];
.visible .entry k(.param .u64 out, .param .u64 buf)
{
  .reg .pred %p<7>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<10>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [buf];
  cvta.global.u64 %rd3, %rd2;
  mov.u64 %rd4, s;
  cvta.shared.u64 %rd5, %rd4;
  mov.u64 %rd6, dyn;
  cvta.shared.u64 %rd7, %rd6;
  mov.u32 %r9, %dynamic_smem_size;
  cvt.u64.u32 %rd8, %r9;
  add.s64 %rd9, %rd7, %rd8;
  sub.s64 %rd9, %rd9, 1;
  isspacep.shared %p1, %rd5;
  isspacep.global %p2, %rd5;
  isspacep.shared %p3, %rd3;
  isspacep.global %p4, %rd3;
  isspacep.shared::cluster %p5, %rd9;
  isspacep.global %p6, %rd9;
  selp.u32 %r1, 1, 0, %p1;
  selp.u32 %r2, 2, 0, %p2;
  selp.u32 %r3, 4, 0, %p3;
  selp.u32 %r4, 8, 0, %p4;
  selp.u32 %r5, 16, 0, %p5;
  selp.u32 %r6, 32, 0, %p6;
  or.b32 %r7, %r1, %r2;
  or.b32 %r7, %r7, %r3;
  or.b32 %r7, %r7, %r4;
  or.b32 %r7, %r7, %r5;
  or.b32 %r7, %r7, %r6;
  st.global.u32 [%rd1], %r7;
  st.global.u32 [%rd1+4], %r9;
  ret;
}
)";
  ASSERT_TRUE(loads(Ptx));
  for (unsigned Dynamic : {16u, 4096u, 48u * 1024 - 256}) {
    CUdeviceptr Out = upload(std::vector<uint32_t>(2)),
                Buf = upload(std::vector<uint32_t>(16));
    ASSERT_EQ(CUDA_SUCCESS, run("k", 1, 1, {&Out, &Buf}, Dynamic));
    std::vector<uint32_t> V = download<uint32_t>(Out, 2);
    EXPECT_EQ(1u | 8u | 16u, V[0])
        << "the static and the last dynamic shared byte are .shared only, "
           "the buffer .global only; dynamic bytes "
        << Dynamic;
    EXPECT_EQ(Dynamic, V[1]) << "%dynamic_smem_size";
  }
}

// %total_smem_size: the block's static and dynamic shared bytes in units of
// 128, as measured on an H200 (driver 580, PTX for sm_75 JIT-compiled).
TEST_F(PtxConversionTest, TotalSharedSizeInAllocationUnits) {
  struct Case {
    unsigned Static, Dynamic, Total;
  };
  const Case Cases[] = {
      {0, 0, 0},          {0, 1, 128},         {0, 1000, 1024},
      {1, 0, 128},        {1, 1000, 1024},     {100, 100, 256},
      {128, 1, 256},      {129, 0, 256},       {256, 1, 384},
      {1000, 5000, 6016}, {1024, 5000, 6144},  {4096, 1, 4224},
      {12345, 0, 12416},  {12345, 5000, 17408}};
  std::string Ptx = ptxHeader();
  for (unsigned S :
       {0u, 1u, 100u, 128u, 129u, 256u, 1000u, 1024u, 4096u, 12345u}) {
    std::string N = std::to_string(S);
    Ptx += ".visible .entry k" + N +
           "(.param .u64 out)\n{\n  .reg .b32 %r<3>;\n  .reg .b64 %rd1;\n";
    if (S)
      Ptx += "  .shared .align 4 .b8 sh[" + N + "];\n";
    Ptx += "  ld.param.u64 %rd1, [out];\n"
           "  mov.u32 %r1, %total_smem_size;\n"
           "  st.global.u32 [%rd1], %r1;\n";
    if (S) // The array is used, so it is allocated.
      Ptx += "  mov.u32 %r2, sh;\n  st.shared.u8 [%r2], 1;\n";
    Ptx += "  ret;\n}\n";
  }
  ASSERT_TRUE(loads(Ptx));
  for (const Case &C : Cases) {
    CUdeviceptr Out = upload(std::vector<uint32_t>(1));
    ASSERT_EQ(CUDA_SUCCESS, run(("k" + std::to_string(C.Static)).c_str(), 1, 32,
                                {&Out}, C.Dynamic));
    EXPECT_EQ(C.Total, download<uint32_t>(Out, 1)[0])
        << "static " << C.Static << ", dynamic " << C.Dynamic;
  }
}

// .shared::cta names the .shared window; cache eviction hints (.L1::,
// .L2::) change nothing on a CPU.
TEST_F(PtxConversionTest, QualifiedSharedWindowAndCacheHints) {
  std::string Ptx = ptxHeader() + R"(
.visible .entry k(.param .u64 out, .param .u64 in)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<6>;
  .shared .align 4 .b32 s[64];
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [in];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
  ld.global.L1::evict_last.L2::128B.u32 %r2, [%rd4];
  mov.u32 %r3, s;
  shl.b32 %r4, %r1, 2;
  add.s32 %r5, %r3, %r4;
  st.shared::cta.u32 [%r5], %r2;
  bar.sync 0;
  xor.b32 %r6, %r4, 4;
  add.s32 %r6, %r3, %r6;
  ld.shared::cta.u32 %r7, [%r6];
  add.s64 %rd5, %rd1, %rd3;
  st.global.L1::evict_first.u32 [%rd5], %r7;
  ret;
}
)";
  ASSERT_TRUE(loads(Ptx)) << LastError;
  std::vector<uint32_t> In(64);
  for (uint32_t T = 0; T < 64; ++T)
    In[T] = 3 * T + 1;
  CUdeviceptr Out = upload(std::vector<uint32_t>(64)), InP = upload(In);
  ASSERT_EQ(CUDA_SUCCESS, run("k", 1, 64, {&Out, &InP})) << LastError;
  std::vector<uint32_t> V = download<uint32_t>(Out, 64);
  for (uint32_t T = 0; T < 64; ++T)
    EXPECT_EQ(In[T ^ 1], V[T]) << "thread " << T;
}

} // namespace

namespace {

TEST_F(PtxConversionTest, MoveOfVectorsGoesLaneByLane) {
  std::string Ptx = ptxHeader() + R"(
.visible .entry k(.param .u64 out)
{
  .reg .v2 .f32 %v<3>;
  .reg .v4 .b32 %w;
  .reg .f32 %f<5>;
  .reg .b32 %r<9>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];
  mov.f32 %f1, 0f3F800000;
  mov.f32 %f2, 0f40000000;
  mov.v2.f32 %v1, {%f1, %f2};
  mov.v2.f32 %v2, %v1;
  mov.v2.f32 {%f3, %f4}, %v2;
  st.global.f32 [%rd1], %f4;
  st.global.f32 [%rd1+4], %f3;
  mov.u32 %r1, 10;
  mov.u32 %r2, 20;
  mov.u32 %r3, 30;
  mov.u32 %r4, 40;
  mov.v4.b32 %w, {%r1, %r2, %r3, %r4};
  mov.v4.b32 {%r5, %r6, %r7, %r8}, %w;
  st.global.u32 [%rd1+8], %r8;
  st.global.u32 [%rd1+12], %r5;
  ret;
}
)";
  ASSERT_TRUE(loads(Ptx));
  CUdeviceptr Out = upload(std::vector<uint32_t>(4));
  ASSERT_EQ(CUDA_SUCCESS, run("k", 1, 1, {&Out}));
  auto R = download<uint32_t>(Out, 4);
  EXPECT_EQ(bitsOf(2.0f), R[0]) << "lane y of {1, 2}";
  EXPECT_EQ(bitsOf(1.0f), R[1]) << "lane x";
  EXPECT_EQ(40u, R[2]) << "lane w of a .v4";
  EXPECT_EQ(10u, R[3]) << "lane x of a .v4";
  EXPECT_TRUE(
      rejects("mov.f32 %f1, %v1;", ".reg .v2 .f32 %v1;\n.reg .f32 %f1;"))
      << "a vector register needs .v2";
  EXPECT_TRUE(rejects("mov.v4.f32 %v1, {%f1, %f2};",
                      ".reg .v2 .f32 %v1;\n.reg .f32 %f<3>;"))
      << "four lanes into two";
}

} // namespace

namespace {

/// The value of an 8-bit float code (e4m3: 3 mantissa bits, bias 7; e5m2:
/// 2 and 15), NaN for e4m3's 0x7f and e5m2's codes above infinity.
double eightBitValue(unsigned Code, bool E4M3) {
  unsigned M = E4M3 ? 3 : 2, Bias = E4M3 ? 7 : 15;
  unsigned E = (Code & 0x7f) >> M, Mant = Code & ((1u << M) - 1);
  double V;
  if (E4M3 && (Code & 0x7f) == 0x7f)
    V = NAN;
  else if (!E4M3 && E == 31)
    V = Mant ? NAN : INFINITY;
  else
    V = E ? std::ldexp(double((1u << M) + Mant), int(E) - int(Bias) - int(M))
          : std::ldexp(double(Mant), 1 - int(Bias) - int(M));
  return Code & 0x80 ? -V : V;
}

/// cvt.rn.satfinite{.relu}.e4m3x2/e5m2x2 of one value: the nearest finite
/// code (ties to the even code), clamped to the largest finite one; NaN
/// 0x7f; .relu makes negative values +0.
uint8_t toEightBitReference(double X, bool E4M3, bool Relu) {
  if (std::isnan(X))
    return 0x7f;
  if (Relu && X <= 0)
    return 0;
  unsigned Max = E4M3 ? 0x7e : 0x7b;
  double A = std::fabs(X);
  unsigned Best = 0;
  for (unsigned C = 1; C <= Max; ++C) {
    double D = std::fabs(eightBitValue(C, E4M3) - A),
           DB = std::fabs(eightBitValue(Best, E4M3) - A);
    if (D < DB || (D == DB && C % 2 == 0))
      Best = C;
  }
  if (A > eightBitValue(Max, E4M3))
    Best = Max;
  return uint8_t((std::signbit(X) ? 0x80 : 0) | Best);
}

TEST_F(PtxConversionTest, EightBitFloatsRoundToNearestAndSaturate) {
  std::vector<float> F = edgeFloats();
  for (float X : {448.0f, 464.0f, 465.0f, 480.0f, 57344.0f, 61440.0f, 0x1p-9f,
                  0x1p-10f, 0x1.8p-10f, 0x1p-16f, 0x1.8p-17f, 0x1p-18f})
    for (float S : {1.0f, -1.0f})
      F.push_back(S * X);
  std::vector<uint32_t> A, B;
  for (size_t K = 0; K < F.size(); ++K) {
    A.push_back(bitsOf(F[K]));
    B.push_back(bitsOf(F[(K * 11 + 5) % F.size()]));
  }
  for (bool E4M3 : {true, false})
    for (bool Relu : {false, true}) {
      std::string Instr = std::string("cvt.rn.satfinite") +
                          (Relu ? ".relu" : "") +
                          (E4M3 ? ".e4m3x2" : ".e5m2x2") + ".f32 %d, %a, %b;";
      auto Out = apply<uint16_t>(Instr, A, &B);
      ASSERT_EQ(A.size(), Out.size());
      for (size_t K = 0; K < A.size(); ++K) {
        uint16_t Want =
            uint16_t(toEightBitReference(floatOf(A[K]), E4M3, Relu) << 8 |
                     toEightBitReference(floatOf(B[K]), E4M3, Relu));
        ASSERT_EQ(Want, Out[K])
            << Instr << " of " << floatOf(A[K]) << ", " << floatOf(B[K]);
      }
    }
  // Back to f16x2: every pair of codes, exactly (NaN as 0x7fff).
  std::vector<uint16_t> Codes(65536);
  for (unsigned K = 0; K < 65536; ++K)
    Codes[K] = uint16_t(K);
  for (bool E4M3 : {true, false}) {
    std::string Instr = std::string("cvt.rn.f16x2.") +
                        (E4M3 ? "e4m3x2" : "e5m2x2") + " %d, %a;";
    auto Out = apply<uint32_t>(Instr, Codes);
    ASSERT_EQ(65536u, Out.size());
    for (unsigned K = 0; K < 65536; ++K) {
      uint32_t Want =
          uint32_t(
              toHalfReference(eightBitValue(K >> 8, E4M3), false, false, 'n'))
              << 16 |
          toHalfReference(eightBitValue(K & 0xff, E4M3), false, false, 'n');
      ASSERT_EQ(Want, Out[K]) << Instr << " of 0x" << std::hex << K;
    }
  }
}

/// cvt.{rna,rn,rz}{.relu}.tf32.f32 as the PTX ISA rounds and an H200 treats
/// NaN: .rn/.rz give 0x7fffe000; .rna truncates NaN and infinity and with
/// .satfinite takes one unit off a result with the exponent all ones.
uint32_t toTf32Reference(uint32_t U, char M, bool Relu, bool SatFinite) {
  uint32_t Abs = U & 0x7fffffff, Drop = U & 0x1fff, R = U & ~0x1fffu;
  bool Special = Abs >= 0x7f800000;
  if (!Special) {
    if (M == 'a' && Drop >= 0x1000)
      R += 0x2000;
    if (M == 'n' && (Drop > 0x1000 || (Drop == 0x1000 && (U & 0x2000))))
      R += 0x2000;
  }
  if (SatFinite && (R & 0x7f800000) == 0x7f800000)
    R -= 0x2000;
  if (Relu && (U & 0x80000000))
    R = 0;
  if (M != 'a' && Abs > 0x7f800000)
    R = 0x7fffe000;
  return R;
}

TEST_F(PtxConversionTest, TensorFloat32Rounding) {
  std::vector<uint32_t> In;
  for (float X : edgeFloats())
    In.push_back(bitsOf(X));
  for (uint32_t U : {0x3f801000u, 0x3f803000u, 0x3f800fffu, 0xbf801000u,
                     0x7f7ff000u, 0x7f7fefffu, 0x7fffffffu, 0xff801234u})
    In.push_back(U);
  struct Form {
    const char *Instr;
    char Mode;
    bool Relu, SatFinite;
  } Forms[] = {{"cvt.rna.tf32.f32", 'a', false, false},
               {"cvt.rna.satfinite.tf32.f32", 'a', false, true},
               {"cvt.rn.tf32.f32", 'n', false, false},
               {"cvt.rz.relu.tf32.f32", 'z', true, false}};
  for (const Form &Fm : Forms) {
    auto Out = apply<uint32_t>(std::string(Fm.Instr) + " %d, %a;", In);
    ASSERT_EQ(In.size(), Out.size());
    for (size_t K = 0; K < In.size(); ++K)
      ASSERT_EQ(toTf32Reference(In[K], Fm.Mode, Fm.Relu, Fm.SatFinite), Out[K])
          << Fm.Instr << " of 0x" << std::hex << In[K];
  }
}

} // namespace
