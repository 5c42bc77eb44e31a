//===- ArithmeticTest.cpp - PTX integer and floating-point arithmetic -----===//
//
// Each instruction form over edge cases (0, -0, subnormals, INT_MIN, NaN,
// infinities, division by zero) and random operands, checked bit for bit
// against a C++ model of the PTX ISA's semantics. The models' hard cases
// (division by zero, NaN results, .ftz, .sat) were measured on an H200 by
// building this file against NVIDIA's driver. The 16-bit formats are in
// HalfPrecisionTest.cpp.
//
//===----------------------------------------------------------------------===//

#include "InstructionTest.h"

#include <cfenv>
#include <cmath>
#include <limits>

using namespace cucpu::test;

namespace {

using Arithmetic = InstructionTest;
using Ops = Operands;

const std::vector<uint64_t> Int32Edges = {
    0,          1,          2,          3,          5,          0x7f,
    0x80,       0xff,       0xffff,     0x10000,    0x7fffff,   0x800000,
    0xffffff,   0x12345678, 0x7ffffffe, 0x7fffffff, 0x80000000, 0x80000001,
    0xfffffffb, 0xfffffffe, 0xffffffff, 0xdeadbeef};

const std::vector<uint64_t> Int64Edges = {0,
                                          1,
                                          5,
                                          0xffffffff,
                                          0x100000000,
                                          0x123456789abcdef0,
                                          0x7fffffffffffffff,
                                          0x8000000000000000,
                                          0x8000000000000001,
                                          0xfffffffffffffffb,
                                          0xffffffffffffffff};

__extension__ typedef __int128 I128;
__extension__ typedef unsigned __int128 U128;

int32_t s32(uint64_t V) { return int32_t(uint32_t(V)); }
uint32_t u32(uint64_t V) { return uint32_t(V); }
int64_t s64(uint64_t V) { return int64_t(V); }
int16_t s16(uint64_t V) { return int16_t(uint16_t(V)); }
uint16_t u16(uint64_t V) { return uint16_t(V); }

int32_t saturate32(int64_t V) {
  return int32_t(std::max<int64_t>(INT32_MIN, std::min<int64_t>(INT32_MAX, V)));
}

TEST_F(Arithmetic, IntegerAddSubMul) {
  check(
      {
          {"add.s32 %y, %x0, %x1;",
           {32, 32},
           32,
           [](const Ops &O) { return uint64_t(u32(O[0]) + u32(O[1])); }},
          {"sub.u32 %y, %x0, %x1;",
           {32, 32},
           32,
           [](const Ops &O) { return uint64_t(u32(O[0]) - u32(O[1])); }},
          {"add.sat.s32 %y, %x0, %x1;",
           {32, 32},
           32,
           [](const Ops &O) {
             return uint64_t(
                 uint32_t(saturate32(int64_t(s32(O[0])) + int64_t(s32(O[1])))));
           }},
          {"sub.sat.s32 %y, %x0, %x1;",
           {32, 32},
           32,
           [](const Ops &O) {
             return uint64_t(
                 uint32_t(saturate32(int64_t(s32(O[0])) - int64_t(s32(O[1])))));
           }},
          {"mul.lo.s32 %y, %x0, %x1;",
           {32, 32},
           32,
           [](const Ops &O) { return uint64_t(u32(O[0]) * u32(O[1])); }},
          {"mul.hi.s32 %y, %x0, %x1;",
           {32, 32},
           32,
           [](const Ops &O) {
             return uint64_t(
                 uint32_t((int64_t(s32(O[0])) * int64_t(s32(O[1]))) >> 32));
           }},
          {"mul.hi.u32 %y, %x0, %x1;",
           {32, 32},
           32,
           [](const Ops &O) {
             return uint64_t((uint64_t(u32(O[0])) * u32(O[1])) >> 32);
           }},
          {"mul.wide.s32 %y, %x0, %x1;",
           {32, 32},
           64,
           [](const Ops &O) {
             return uint64_t(int64_t(s32(O[0])) * int64_t(s32(O[1])));
           }},
          {"mul.wide.u32 %y, %x0, %x1;",
           {32, 32},
           64,
           [](const Ops &O) { return uint64_t(u32(O[0])) * u32(O[1]); }},
          {"mul.wide.s16 %y, %x0, %x1;",
           {16, 16},
           32,
           [](const Ops &O) {
             return uint64_t(uint32_t(int32_t(s16(O[0])) * s16(O[1])));
           }},
          {"mul.hi.u16 %y, %x0, %x1;",
           {16, 16},
           16,
           [](const Ops &O) {
             return uint64_t((uint32_t(u16(O[0])) * u16(O[1])) >> 16);
           }},
          {"mad.lo.s32 %y, %x0, %x1, %x2;",
           {32, 32, 32},
           32,
           [](const Ops &O) {
             return uint64_t(u32(O[0]) * u32(O[1]) + u32(O[2]));
           }},
          {"mad.hi.sat.s32 %y, %x0, %x1, %x2;",
           {32, 32, 32},
           32,
           [](const Ops &O) {
             int64_t Hi = (int64_t(s32(O[0])) * s32(O[1])) >> 32;
             return uint64_t(uint32_t(saturate32(Hi + s32(O[2]))));
           }},
          {"mad.wide.u32 %y, %x0, %x1, %x2;",
           {32, 32, 64},
           64,
           [](const Ops &O) { return uint64_t(u32(O[0])) * u32(O[1]) + O[2]; }},
      },
      combinations(Int32Edges, 3, 200, 32));
}

TEST_F(Arithmetic, Integer64) {
  check(
      {
          {"mul.hi.s64 %y, %x0, %x1;",
           {64, 64},
           64,
           [](const Ops &O) {
             return uint64_t((I128(s64(O[0])) * I128(s64(O[1]))) >> 64);
           }},
          {"mul.hi.u64 %y, %x0, %x1;",
           {64, 64},
           64,
           [](const Ops &O) { return uint64_t(((U128)O[0] * O[1]) >> 64); }},
          {"mad.hi.u64 %y, %x0, %x1, %x0;",
           {64, 64},
           64,
           [](const Ops &O) {
             return uint64_t(((U128)O[0] * O[1]) >> 64) + O[0];
           }},
          {"sad.s64 %y, %x0, %x1, %x0;",
           {64, 64},
           64,
           [](const Ops &O) {
             uint64_t D = s64(O[0]) < s64(O[1]) ? O[1] - O[0] : O[0] - O[1];
             return O[0] + D;
           }},
      },
      combinations(Int64Edges, 2, 200));
}

TEST_F(Arithmetic, CarryChains) {
  auto Join = " mul.wide.u32 %rd1, %r1, 1; mul.wide.u32 %rd2, %r2, 1;"
              " shl.b64 %rd2, %rd2, 32; or.b64 %y, %rd1, %rd2;";
  check(
      {
          // A 64-bit add and subtract from 32-bit halves.
          {std::string("add.cc.u32 %r1, %x0, %x2; addc.u32 %r2, %x1, %x3;") +
               Join,
           {32, 32, 32, 32},
           64,
           [](const Ops &O) {
             return ((O[1] << 32) | u32(O[0])) + ((O[3] << 32) | u32(O[2]));
           }},
          {std::string("sub.cc.u32 %r1, %x0, %x2; subc.u32 %r2, %x1, %x3;") +
               Join,
           {32, 32, 32, 32},
           64,
           [](const Ops &O) {
             return ((O[1] << 32) | u32(O[0])) - ((O[3] << 32) | u32(O[2]));
           }},
          // The carry of a chain of three additions.
          {"add.cc.u32 %r1, %x0, %x1; addc.cc.u32 %r2, %x2, %x3;"
           " addc.u32 %y, 0, 0;",
           {32, 32, 32, 32},
           32,
           [](const Ops &O) {
             uint64_t Low = uint64_t(u32(O[0])) + u32(O[1]);
             uint64_t High = uint64_t(u32(O[2])) + u32(O[3]) + (Low >> 32);
             return High >> 32;
           }},
          // The borrow of a subtraction as seen by subc.
          {"sub.cc.u32 %r1, %x0, %x1; subc.u32 %y, 0, 0;",
           {32, 32},
           32,
           [](const Ops &O) {
             return uint64_t(u32(O[0]) < u32(O[1]) ? 0xffffffffu : 0);
           }},
          // mad.lo.cc / madc.hi: the 64-bit product of two 32-bit values
          // plus a 64-bit value.
          {"mad.lo.cc.u32 %r1, %x0, %x1, %x2; madc.hi.u32 %r2, %x0, %x1, %x3;" +
               std::string(Join),
           {32, 32, 32, 32},
           64,
           [](const Ops &O) {
             return uint64_t(u32(O[0])) * u32(O[1]) +
                    ((O[3] << 32) | u32(O[2]));
           }},
          {"add.cc.u64 %rd1, %x0, %x1; addc.u64 %y, 0, 0;",
           {64, 64},
           64,
           [](const Ops &O) { return uint64_t(O[0] + O[1] < O[0]); }},
      },
      combinations(Int32Edges, 2, 300, 32));
}

TEST_F(Arithmetic, Mul24Sad) {
  auto Low24 = [](uint64_t V, bool Signed) -> int64_t {
    return Signed ? int64_t(int32_t(uint32_t(V) << 8) >> 8)
                  : int64_t(V & 0xffffff);
  };
  check(
      {
          {"mul24.lo.u32 %y, %x0, %x1;",
           {32, 32},
           32,
           [=](const Ops &O) {
             return uint64_t(Low24(O[0], false) * Low24(O[1], false));
           }},
          {"mul24.hi.u32 %y, %x0, %x1;",
           {32, 32},
           32,
           [=](const Ops &O) {
             return uint64_t(Low24(O[0], false) * Low24(O[1], false)) >> 16;
           }},
          {"mul24.lo.s32 %y, %x0, %x1;",
           {32, 32},
           32,
           [=](const Ops &O) {
             return uint64_t(Low24(O[0], true) * Low24(O[1], true));
           }},
          {"mul24.hi.s32 %y, %x0, %x1;",
           {32, 32},
           32,
           [=](const Ops &O) {
             return uint64_t((Low24(O[0], true) * Low24(O[1], true)) >> 16);
           }},
          {"mad24.lo.s32 %y, %x0, %x1, %x2;",
           {32, 32, 32},
           32,
           [=](const Ops &O) {
             return uint64_t(Low24(O[0], true) * Low24(O[1], true) + O[2]);
           }},
          {"mad24.hi.sat.s32 %y, %x0, %x1, %x2;",
           {32, 32, 32},
           32,
           [=](const Ops &O) {
             int64_t Hi = int32_t(uint32_t(
                 uint64_t(Low24(O[0], true) * Low24(O[1], true)) >> 16));
             return uint64_t(uint32_t(saturate32(Hi + s32(O[2]))));
           }},
          {"sad.u32 %y, %x0, %x1, %x2;",
           {32, 32, 32},
           32,
           [](const Ops &O) {
             uint32_t A = u32(O[0]), B = u32(O[1]);
             return uint64_t(u32(O[2]) + (A < B ? B - A : A - B));
           }},
          {"sad.s32 %y, %x0, %x1, %x2;",
           {32, 32, 32},
           32,
           [](const Ops &O) {
             uint32_t A = u32(O[0]), B = u32(O[1]);
             return uint64_t(u32(O[2]) +
                             (s32(O[0]) < s32(O[1]) ? B - A : A - B));
           }},
      },
      combinations(Int32Edges, 3, 200, 32));
}

TEST_F(Arithmetic, DivisionAndRemainder) {
  // The GPU's answers (H200): x / 0 and x % 0 are all ones, signed or
  // unsigned; MIN / -1 is MIN and MIN % -1 is 0.
  auto SDiv = [](int64_t A, int64_t B, int64_t Min, bool Div) -> int64_t {
    if (B == 0)
      return -1;
    if (A == Min && B == -1)
      return Div ? Min : 0;
    return Div ? A / B : A % B;
  };
  check(
      {
          {"div.u32 %y, %x0, %x1;",
           {32, 32},
           32,
           [](const Ops &O) {
             return uint64_t(u32(O[1]) ? u32(O[0]) / u32(O[1]) : ~0u);
           }},
          {"rem.u32 %y, %x0, %x1;",
           {32, 32},
           32,
           [](const Ops &O) {
             return uint64_t(u32(O[1]) ? u32(O[0]) % u32(O[1]) : ~0u);
           }},
          {"div.s32 %y, %x0, %x1;",
           {32, 32},
           32,
           [=](const Ops &O) {
             return uint64_t(SDiv(s32(O[0]), s32(O[1]), INT32_MIN, true));
           }},
          {"rem.s32 %y, %x0, %x1;",
           {32, 32},
           32,
           [=](const Ops &O) {
             return uint64_t(SDiv(s32(O[0]), s32(O[1]), INT32_MIN, false));
           }},
          {"div.s16 %y, %x0, %x1;",
           {16, 16},
           16,
           [=](const Ops &O) {
             return uint64_t(SDiv(s16(O[0]), s16(O[1]), INT16_MIN, true));
           }},
          {"rem.u16 %y, %x0, %x1;",
           {16, 16},
           16,
           [](const Ops &O) {
             return uint64_t(u16(O[1]) ? u16(O[0]) % u16(O[1]) : 0xffff);
           }},
      },
      combinations(Int32Edges, 2, 300, 32));
  check(
      {
          {"div.u64 %y, %x0, %x1;",
           {64, 64},
           64,
           [](const Ops &O) { return O[1] ? O[0] / O[1] : ~0ull; }},
          {"rem.s64 %y, %x0, %x1;",
           {64, 64},
           64,
           [=](const Ops &O) {
             return uint64_t(SDiv(s64(O[0]), s64(O[1]), INT64_MIN, false));
           }},
          {"div.s64 %y, %x0, %x1;",
           {64, 64},
           64,
           [=](const Ops &O) {
             return uint64_t(SDiv(s64(O[0]), s64(O[1]), INT64_MIN, true));
           }},
      },
      combinations(Int64Edges, 2, 200));
}

TEST_F(Arithmetic, AbsNegMinMax) {
  check(
      {
          {"abs.s32 %y, %x0;",
           {32},
           32,
           [](const Ops &O) {
             return uint64_t(s32(O[0]) < 0 ? 0u - u32(O[0]) : u32(O[0]));
           }},
          {"neg.s32 %y, %x0;",
           {32},
           32,
           [](const Ops &O) { return uint64_t(0u - u32(O[0])); }},
          {"abs.s16 %y, %x0;",
           {16},
           16,
           [](const Ops &O) {
             return uint64_t(s16(O[0]) < 0 ? -s16(O[0]) : s16(O[0]));
           }},
          {"min.s32 %y, %x0, %x1;",
           {32, 32},
           32,
           [](const Ops &O) {
             return uint64_t(uint32_t(std::min(s32(O[0]), s32(O[1]))));
           }},
          {"max.u32 %y, %x0, %x1;",
           {32, 32},
           32,
           [](const Ops &O) {
             return uint64_t(std::max(u32(O[0]), u32(O[1])));
           }},
          {"max.relu.s32 %y, %x0, %x1;",
           {32, 32},
           32,
           [](const Ops &O) {
             return uint64_t(
                 uint32_t(std::max(0, std::max(s32(O[0]), s32(O[1])))));
           }},
          {"min.relu.s32 %y, %x0, %x1;",
           {32, 32},
           32,
           [](const Ops &O) {
             return uint64_t(
                 uint32_t(std::max(0, std::min(s32(O[0]), s32(O[1])))));
           }},
          {"min.s16x2 %y, %x0, %x1;",
           {32, 32},
           32,
           [](const Ops &O) {
             uint32_t R = 0;
             for (int K = 0; K < 2; ++K)
               R |= uint32_t(uint16_t(
                        std::min(s16(O[0] >> 16 * K), s16(O[1] >> 16 * K))))
                    << 16 * K;
             return uint64_t(R);
           }},
          {"max.u16x2 %y, %x0, %x1;",
           {32, 32},
           32,
           [](const Ops &O) {
             uint32_t R = 0;
             for (int K = 0; K < 2; ++K)
               R |= uint32_t(std::max(u16(O[0] >> 16 * K), u16(O[1] >> 16 * K)))
                    << 16 * K;
             return uint64_t(R);
           }},
          {"max.relu.s16x2 %y, %x0, %x1;",
           {32, 32},
           32,
           [](const Ops &O) {
             uint32_t R = 0;
             for (int K = 0; K < 2; ++K)
               R |= uint32_t(uint16_t(std::max<int>(
                        0, std::max(s16(O[0] >> 16 * K), s16(O[1] >> 16 * K)))))
                    << 16 * K;
             return uint64_t(R);
           }},
      },
      combinations(Int32Edges, 2, 300, 32));
}

TEST_F(Arithmetic, DotProducts) {
  auto Dp = [](uint64_t A, uint64_t B, uint64_t C, bool SA, bool SB, int Width,
               int First) {
    uint32_t R = uint32_t(C);
    int Parts = Width == 8 ? 4 : 2;
    for (int K = 0; K < Parts; ++K) {
      int32_t X = Width == 8
                      ? (SA ? int8_t(A >> 8 * K) : uint8_t(A >> 8 * K))
                      : (SA ? int16_t(A >> 16 * K) : uint16_t(A >> 16 * K));
      int J = Width == 8 ? K : First + K;
      int32_t Y = SB ? int8_t(B >> 8 * J) : uint8_t(B >> 8 * J);
      R += uint32_t(X * Y);
    }
    return uint64_t(R);
  };
  check(
      {
          {"dp4a.u32.u32 %y, %x0, %x1, %x2;",
           {32, 32, 32},
           32,
           [=](const Ops &O) { return Dp(O[0], O[1], O[2], 0, 0, 8, 0); }},
          {"dp4a.s32.u32 %y, %x0, %x1, %x2;",
           {32, 32, 32},
           32,
           [=](const Ops &O) { return Dp(O[0], O[1], O[2], 1, 0, 8, 0); }},
          {"dp4a.s32.s32 %y, %x0, %x1, %x2;",
           {32, 32, 32},
           32,
           [=](const Ops &O) { return Dp(O[0], O[1], O[2], 1, 1, 8, 0); }},
          {"dp2a.lo.u32.s32 %y, %x0, %x1, %x2;",
           {32, 32, 32},
           32,
           [=](const Ops &O) { return Dp(O[0], O[1], O[2], 0, 1, 16, 0); }},
          {"dp2a.hi.s32.s32 %y, %x0, %x1, %x2;",
           {32, 32, 32},
           32,
           [=](const Ops &O) { return Dp(O[0], O[1], O[2], 1, 1, 16, 2); }},
      },
      combinations(Int32Edges, 3, 200, 32));
}

// --- Floating point ---------------------------------------------------------

const std::vector<uint64_t> Float32Edges = {
    0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007fffff, 0x807fffff,
    0x00800000, 0x80800000, 0x3f800000, 0xbf800000, 0x3f800001, 0x40490fdb,
    0x33800000, 0xb3800001, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000,
    0x7fc00000, 0xffc00001, 0x7f800001, 0x3effffff, 0x4b000001, 0xcb7fffff,
    0x3f000000, 0x00400000};

const std::vector<uint64_t> Float64Edges = {
    0x0000000000000000, 0x8000000000000000, 0x0000000000000001,
    0x800fffffffffffff, 0x0010000000000000, 0x3ff0000000000000,
    0xbff0000000000001, 0x400921fb54442d18, 0x3ca0000000000000,
    0x7fefffffffffffff, 0xffefffffffffffff, 0x7ff0000000000000,
    0xfff0000000000000, 0x7ff8000000000000, 0xfff8000000000123,
    0x7ff0000000000001, 0x4330000000000001};

/// Runs \p Op with the rounding mode \p Mode; the operands are read through
/// volatile so that the operation happens after the mode is set.
template <class T, class Fn> T rounded(int Mode, Fn Op) {
  int Old = std::fegetround();
  std::fesetround(Mode);
  volatile T R = Op();
  std::fesetround(Old);
  return R;
}

bool isSubnormal32(uint32_t B) { return (B & 0x7f800000) == 0; }
uint32_t flush32(uint32_t B) { return isSubnormal32(B) ? B & 0x80000000 : B; }
uint32_t canonical32(float F) {
  return std::isnan(F) ? 0x7fffffffu : bitsOf(F);
}

/// An f32 operation's reference: flush inputs (ftz), compute in \p Mode,
/// saturate (sat), flush the result (ftz), canonical NaN.
/// .ftz flushes results that are tiny before rounding (H200): \p Exact
/// computes the operation in double, exactly enough to tell.
std::function<uint64_t(const Ops &)>
float32(int Mode, bool Ftz, bool Sat,
        std::function<float(float, float, float)> Op,
        std::function<double(double, double, double)> Exact = nullptr) {
  return [=](const Ops &O) -> uint64_t {
    float A = asFloat(Ftz ? flush32(u32(O[0])) : u32(O[0]));
    float B = asFloat(Ftz ? flush32(u32(O[1])) : u32(O[1]));
    float C = asFloat(Ftz ? flush32(u32(O[2])) : u32(O[2]));
    float R = rounded<float>(Mode, [&] { return Op(A, B, C); });
    if (Ftz && Exact && std::fabs(Exact(A, B, C)) < 0x1p-126)
      R = std::signbit(R) ? -0.0f : 0.0f;
    if (Sat)
      R = R > 0 ? (R > 1 ? 1.0f : R) : 0.0f;
    uint32_t Bits = canonical32(R);
    return Ftz ? flush32(Bits) : Bits;
  };
}

/// The host's float operations, on operands read through volatile so that
/// they happen in the rounding mode set around them (rounded()).
float add32(float A, float B, float) {
  volatile float X = A, Y = B;
  return X + Y;
}
float sub32(float A, float B, float) {
  volatile float X = A, Y = B;
  return X - Y;
}
float mul32(float A, float B, float) {
  volatile float X = A, Y = B;
  return X * Y;
}
float div32(float A, float B, float) {
  volatile float X = A, Y = B;
  return X / Y;
}
float fma32(float A, float B, float C) {
  volatile float X = A, Y = B, Z = C;
  return std::fma(float(X), float(Y), float(Z));
}

TEST_F(Arithmetic, Float32Rounding) {
  auto Add = add32;
  auto Sub = sub32;
  auto Mul = mul32;
  auto Div = div32;
  auto Fma = fma32;
  check(
      {
          {"add.rn.f32 %y, %x0, %x1;",
           {32, 32},
           32,
           float32(FE_TONEAREST, false, false, Add)},
          {"add.f32 %y, %x0, %x1;",
           {32, 32},
           32,
           float32(FE_TONEAREST, false, false, Add)},
          {"mul.ftz.f32 %y, %x0, %x1;",
           {32, 32},
           32,
           float32(FE_TONEAREST, true, false, Mul,
                   [](double A, double B, double) { return A * B; })},
          {"add.rz.f32 %y, %x0, %x1;",
           {32, 32},
           32,
           float32(FE_TOWARDZERO, false, false, Add)},
          {"add.rm.f32 %y, %x0, %x1;",
           {32, 32},
           32,
           float32(FE_DOWNWARD, false, false, Add)},
          {"add.rp.ftz.f32 %y, %x0, %x1;",
           {32, 32},
           32,
           float32(FE_UPWARD, true, false, Add,
                   [](double A, double B, double) { return A + B; })},
          {"sub.rn.ftz.sat.f32 %y, %x0, %x1;",
           {32, 32},
           32,
           float32(FE_TONEAREST, true, true, Sub,
                   [](double A, double B, double) { return A - B; })},
          {"sub.rm.f32 %y, %x0, %x1;",
           {32, 32},
           32,
           float32(FE_DOWNWARD, false, false, Sub)},
          {"mul.rn.f32 %y, %x0, %x1;",
           {32, 32},
           32,
           float32(FE_TONEAREST, false, false, Mul)},
          {"mul.rz.ftz.f32 %y, %x0, %x1;",
           {32, 32},
           32,
           float32(FE_TOWARDZERO, true, false, Mul,
                   [](double A, double B, double) { return A * B; })},
          {"mul.rp.sat.f32 %y, %x0, %x1;",
           {32, 32},
           32,
           float32(FE_UPWARD, false, true, Mul)},
          {"div.rn.f32 %y, %x0, %x1;",
           {32, 32},
           32,
           float32(FE_TONEAREST, false, false, Div)},
          {"div.rz.ftz.f32 %y, %x0, %x1;",
           {32, 32},
           32,
           float32(FE_TOWARDZERO, true, false, Div,
                   [](double A, double B, double) { return A / B; })},
          {"fma.rn.f32 %y, %x0, %x1, %x2;",
           {32, 32, 32},
           32,
           float32(FE_TONEAREST, false, false, Fma)},
          {"fma.rm.ftz.f32 %y, %x0, %x1, %x2;",
           {32, 32, 32},
           32,
           float32(
               FE_DOWNWARD, true, false, Fma,
               [](double A, double B, double C) { return std::fma(A, B, C); })},
          {"fma.rp.sat.f32 %y, %x0, %x1, %x2;",
           {32, 32, 32},
           32,
           float32(FE_UPWARD, false, true, Fma)},
          {"mad.rz.f32 %y, %x0, %x1, %x2;",
           {32, 32, 32},
           32,
           float32(FE_TOWARDZERO, false, false, Fma)},
      },
      combinations(Float32Edges, 3, 1000, 32));
}

/// An f64 NaN result (H200): the NaN operand of highest priority (b, a
/// for add and mul; b, c, a for fma; a, b for div), quieted; invalid operations
/// on numbers give the host's default NaN.
uint64_t nan64(std::initializer_list<double> Operands, double R) {
  uint64_t Result = bitsOf(R);
  // Lowest priority first.
  for (double X : Operands)
    if (std::isnan(X))
      Result = bitsOf(X) | 0x0008000000000000ull;
  return Result;
}

std::function<uint64_t(const Ops &)>
float64(int Mode, std::function<double(double, double, double)> Op,
        unsigned Count, bool Divide = false) {
  return [=](const Ops &O) -> uint64_t {
    double A = asDouble(O[0]), B = asDouble(O[1]), C = asDouble(O[2]);
    double R = rounded<double>(Mode, [&] { return Op(A, B, C); });
    if (std::isnan(R))
      return Count == 3 ? nan64({A, C, B}, R)
             : Divide   ? nan64({B, A}, R)
                        : nan64({A, B}, R);
    return bitsOf(R);
  };
}

/// Float operands whose exact sums and products land on, next to and
/// halfway between floats, cancel to zero, leave the subnormal range or
/// overflow: where a directed rounding is easiest to get wrong.
std::vector<Operands> nearExactFloat32(unsigned Count) {
  Lcg G(2026);
  auto Random = [&](int MinExp, int MaxExp) {
    uint32_t Exp =
        uint32_t(127 + MinExp + int(G.next() % (MaxExp - MinExp + 1)));
    return uint32_t(G.next() & 0x807fffff) | Exp << 23;
  };
  auto Nudge = [&](uint32_t Bits) {
    int K = int(G.next() % 5) - 2;
    return (Bits & 0x7fffffff) == 0 && K < 0 ? Bits : uint32_t(Bits + K);
  };
  std::vector<Operands> Out;
  for (unsigned I = 0; I < Count; ++I) {
    uint32_t A = 0, B = 0, C = 0;
    switch (I % 5) {
    case 0: { // c cancels a * b (exactly or within a few ulps)
      A = Random(-30, 30);
      B = G.next() % 2 ? Random(-30, 30) : Random(0, 0) & 0xff800000;
      double P = double(asFloat(A)) * double(asFloat(B));
      C = Nudge(bitsOf(float(-P)));
      break;
    }
    case 1: { // a * b is half an ulp of c, or next to it
      C = Random(-20, 20);
      uint32_t Half = (((C >> 23) & 0xff) - 24) << 23;
      A = Half | (G.next() % 2) << 31;
      B = Nudge(0x3f800000);
      break;
    }
    case 2: // results in the subnormal range
      A = Random(-75, -60);
      B = Random(-75, -60);
      C = G.next() % 2 ? Random(-127, -127) : Random(-140, -126);
      break;
    case 3: // near overflow
      A = Random(60, 66);
      B = Random(60, 66);
      C = Random(120, 127);
      break;
    default:
      A = uint32_t(G.next());
      B = uint32_t(G.next());
      C = uint32_t(G.next());
      break;
    }
    Out.push_back({A, B, C, 0});
  }
  return Out;
}

TEST_F(Arithmetic, Float32DirectedRoundingNearExactResults) {
  std::vector<InstructionCase> Cases;
  for (auto [Mode, Name] : {std::pair{FE_DOWNWARD, "rm"},
                            {FE_UPWARD, "rp"},
                            {FE_TOWARDZERO, "rz"}}) {
    std::string M = Name;
    Cases.push_back({"fma." + M + ".f32 %y, %x0, %x1, %x2;",
                     {32, 32, 32},
                     32,
                     float32(Mode, false, false, fma32)});
    Cases.push_back({"add." + M + ".f32 %y, %x2, %x0;",
                     {32, 32, 32},
                     32,
                     float32(Mode, false, false, [](float A, float, float C) {
                       return add32(C, A, 0);
                     })});
    Cases.push_back({"sub." + M + ".f32 %y, %x2, %x0;",
                     {32, 32, 32},
                     32,
                     float32(Mode, false, false, [](float A, float, float C) {
                       return sub32(C, A, 0);
                     })});
    Cases.push_back({"mul." + M + ".f32 %y, %x0, %x1;",
                     {32, 32, 32},
                     32,
                     float32(Mode, false, false, mul32)});
  }
  check(Cases, nearExactFloat32(20000));
}

TEST_F(Arithmetic, Float64Rounding) {
  auto Add = [](double A, double B, double) {
    volatile double X = A, Y = B;
    return X + Y;
  };
  auto Mul = [](double A, double B, double) {
    volatile double X = A, Y = B;
    return X * Y;
  };
  auto Div = [](double A, double B, double) {
    volatile double X = A, Y = B;
    return X / Y;
  };
  auto Fma = [](double A, double B, double C) {
    volatile double X = A, Y = B, Z = C;
    return std::fma(double(X), double(Y), double(Z));
  };
  check(
      {
          {"add.rn.f64 %y, %x0, %x1;",
           {64, 64},
           64,
           float64(FE_TONEAREST, Add, 2)},
          {"add.rz.f64 %y, %x0, %x1;",
           {64, 64},
           64,
           float64(FE_TOWARDZERO, Add, 2)},
          {"mul.rm.f64 %y, %x0, %x1;",
           {64, 64},
           64,
           float64(FE_DOWNWARD, Mul, 2)},
          {"div.rp.f64 %y, %x0, %x1;",
           {64, 64},
           64,
           float64(FE_UPWARD, Div, 2, true)},
          {"fma.rn.f64 %y, %x0, %x1, %x2;",
           {64, 64, 64},
           64,
           float64(FE_TONEAREST, Fma, 3)},
          {"fma.rz.f64 %y, %x0, %x1, %x2;",
           {64, 64, 64},
           64,
           float64(FE_TOWARDZERO, Fma, 3)},
      },
      combinations(Float64Edges, 3, 500));
}

/// PTX min/max: a NaN operand gives the other; two give a NaN;
/// -0 is below +0.
uint64_t minMax(uint64_t A, uint64_t B, bool Min, bool PropagateNaN,
                unsigned Bits) {
  auto IsNaN = [&](uint64_t X) {
    return Bits == 32 ? std::isnan(asFloat(X)) : std::isnan(asDouble(X));
  };
  // Two NaNs (H200): .f32 the canonical NaN, .f64 b quieted.
  uint64_t NaN = Bits == 32 ? 0x7fffffff
                 : IsNaN(B) ? B | 0x0008000000000000ull
                            : A | 0x0008000000000000ull;
  if (IsNaN(A) && IsNaN(B))
    return NaN;
  if (IsNaN(A) || IsNaN(B))
    return PropagateNaN ? NaN : IsNaN(A) ? B : A;
  double X = Bits == 32 ? asFloat(A) : asDouble(A);
  double Y = Bits == 32 ? asFloat(B) : asDouble(B);
  if (X == Y)
    return Min ? (A | B) : (A & B);
  return (Min ? X < Y : X > Y) ? A : B;
}

TEST_F(Arithmetic, FloatMinMaxAbsNeg) {
  check(
      {
          {"min.f32 %y, %x0, %x1;",
           {32, 32},
           32,
           [](const Ops &O) { return minMax(u32(O[0]), u32(O[1]), 1, 0, 32); }},
          {"max.f32 %y, %x0, %x1;",
           {32, 32},
           32,
           [](const Ops &O) { return minMax(u32(O[0]), u32(O[1]), 0, 0, 32); }},
          {"min.NaN.f32 %y, %x0, %x1;",
           {32, 32},
           32,
           [](const Ops &O) { return minMax(u32(O[0]), u32(O[1]), 1, 1, 32); }},
          {"max.ftz.f32 %y, %x0, %x1;",
           {32, 32},
           32,
           [](const Ops &O) {
             return minMax(flush32(u32(O[0])), flush32(u32(O[1])), 0, 0, 32);
           }},
          {"abs.f32 %y, %x0;",
           {32},
           32,
           [](const Ops &O) {
             return uint64_t(canonical32(std::fabs(asFloat(O[0]))));
           }},
          {"neg.f32 %y, %x0;",
           {32},
           32,
           [](const Ops &O) { return uint64_t(canonical32(-asFloat(O[0]))); }},
          {"neg.ftz.f32 %y, %x0;",
           {32},
           32,
           [](const Ops &O) {
             return uint64_t(canonical32(-asFloat(flush32(u32(O[0])))));
           }},
          {"abs.ftz.f32 %y, %x0;",
           {32},
           32,
           [](const Ops &O) {
             return uint64_t(
                 canonical32(std::fabs(asFloat(flush32(u32(O[0]))))));
           }},
          {"copysign.f32 %y, %x0, %x1;",
           {32, 32},
           32,
           [](const Ops &O) {
             return uint64_t((u32(O[0]) & 0x80000000) |
                             (u32(O[1]) & 0x7fffffff));
           }},
      },
      combinations(Float32Edges, 2, 300, 32));
  check(
      {
          {"min.f64 %y, %x0, %x1;",
           {64, 64},
           64,
           [](const Ops &O) { return minMax(O[0], O[1], 1, 0, 64); }},
          {"max.f64 %y, %x0, %x1;",
           {64, 64},
           64,
           [](const Ops &O) { return minMax(O[0], O[1], 0, 0, 64); }},
          {"neg.f64 %y, %x0;",
           {64},
           64,
           [](const Ops &O) {
             double A = asDouble(O[0]);
             return std::isnan(A) ? O[0] | 0x0008000000000000ull : bitsOf(-A);
           }},
          {"abs.f64 %y, %x0;",
           {64},
           64,
           [](const Ops &O) {
             double A = asDouble(O[0]);
             return std::isnan(A) ? O[0] | 0x0008000000000000ull
                                  : bitsOf(std::fabs(A));
           }},
          {"copysign.f64 %y, %x0, %x1;",
           {64, 64},
           64,
           [](const Ops &O) {
             return (O[0] & 0x8000000000000000ull) |
                    (O[1] & 0x7fffffffffffffffull);
           }},
      },
      combinations(Float64Edges, 2, 200));
}

TEST_F(Arithmetic, DivApproxOfHugeDivisors) {
  // div.approx.f32 is a * (1 / b): for 2^126 < |b| < 2^128 the reciprocal
  // flushes, giving 0, and NaN for an infinite a (PTX ISA, H200).
  std::vector<Operands> Inputs;
  for (uint64_t A : Float32Edges)
    for (uint64_t B : {0x7ec00000u, 0xfe800001u, 0x7f7fffffu, 0xff000000u})
      Inputs.push_back({A, B, 0, 0});
  auto Want = [](const Ops &O) -> uint64_t {
    float A = asFloat(O[0]);
    if (std::isnan(A) || std::isinf(A))
      return 0x7fffffff;
    return (u32(O[0]) ^ u32(O[1])) & 0x80000000u;
  };
  check({{"div.approx.f32 %y, %x0, %x1;", {32, 32}, 32, Want},
         {"div.approx.ftz.f32 %y, %x0, %x1;", {32, 32}, 32, Want}},
        Inputs);
}

TEST_F(Arithmetic, UndefinedFormsAreInvalidPtx) {
  // Forms the PTX ISA does not define: ptxas rejects them, and so does
  // cucpu, with the line in the log, rather than guess a meaning.
  for (const char *Body :
       {"max.NaN.f64 %fd1, %fd1, %fd1;", "add.sat.s64 %rd1, %rd1, %rd1;",
        "fma.f32 %f1, %f1, %f1, %f1;", "mul.wide.u64 %rd1, %rd1, %rd1;",
        "div.f64 %fd1, %fd1, %fd1;", "add.rz.f16 %h1, %h1, %h1;",
        "mad.hi.sat.u32 %r1, %r1, %r1, %r1;", "shf.l.b32 %r1, %r1, %r1, %r1;",
        "bfind.b32 %r1, %r1;", "add.ftz.f64 %fd1, %fd1, %fd1;"}) {
    std::string Ptx = ptxHeader("8.0", "sm_90") +
                      ".visible .entry k()\n{\n"
                      "  .reg .b16 %h<2>;\n  .reg .b32 %r<2>;\n"
                      "  .reg .b64 %rd<2>;\n  .reg .f32 %f<2>;\n"
                      "  .reg .f64 %fd<2>;\n  " +
                      Body + "\n  ret;\n}\n";
    std::string Log;
    EXPECT_EQ(CUDA_ERROR_INVALID_PTX, load(Ptx, &Log))
        << Body << " is not a PTX instruction form";
    EXPECT_NE(std::string::npos, Log.find("line 11")) << Body << ": " << Log;
  }
}

} // namespace
