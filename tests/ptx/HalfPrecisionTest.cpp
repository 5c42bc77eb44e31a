//===- HalfPrecisionTest.cpp - PTX .f16, .bf16 and packed arithmetic -----===//
//
// add, sub, mul, fma, neg, abs, min and max of .f16, .f16x2, .bf16 and
// .bf16x2 with .rn, .ftz, .sat, .relu and .NaN, over edge cases (zeros,
// subnormals, the largest values, infinities, NaNs) and random operands,
// against a model that computes exactly in double and rounds once. The
// model's hard cases (NaN results, .ftz of results tiny before rounding,
// .relu of -0) were measured on an H200 by building this file against
// NVIDIA's driver.
//
//===----------------------------------------------------------------------===//

#include "InstructionTest.h"

#include <cmath>

using namespace cucpu::test;

namespace {

using HalfPrecision = InstructionTest;
using Ops = Operands;

// --- Half precision
// -----------------------------------------------------------

/// \p X rounded to nearest even in a format of \p Mant fraction bits and
/// \p ExpBits exponent bits (NaN: all ones but the sign).
uint64_t roundToFormat(double X, int Mant, int ExpBits) {
  int Bias = (1 << (ExpBits - 1)) - 1;
  uint64_t ExpMax = (1u << ExpBits) - 1;
  if (std::isnan(X))
    return (ExpMax << Mant) | ((1ull << Mant) - 1);
  uint64_t Sign = std::signbit(X) ? 1ull << (Mant + ExpBits) : 0;
  double A = std::fabs(X);
  if (std::isinf(A))
    return Sign | ExpMax << Mant;
  if (A == 0)
    return Sign;
  int E;
  std::frexp(A, &E);
  int MinExp = 1 - Bias;
  int QExp = std::max(E - 1, MinExp) - Mant;
  double Q = std::nearbyint(std::ldexp(A, -QExp));
  if (Q == 0)
    return Sign;
  double V = std::ldexp(Q, QExp);
  std::frexp(V, &E);
  int Exp = E - 1;
  if (Exp > Bias)
    return Sign | ExpMax << Mant;
  if (Exp < MinExp)
    return Sign | uint64_t(Q);
  uint64_t M = uint64_t(std::ldexp(V, Mant - Exp)) - (1ull << Mant);
  return Sign | (uint64_t(Exp + Bias) << Mant) | M;
}

/// A 16-bit value (\p Bf: bfloat16, else IEEE half) as a double.
double widen(uint64_t Bits, bool Bf) {
  Bits &= 0xffff;
  if (Bf)
    return asFloat(Bits << 16);
  int Exp = (Bits >> 10) & 0x1f;
  double M = double(Bits & 0x3ff);
  double V = Exp == 0    ? std::ldexp(M, -24)
             : Exp == 31 ? (M ? NAN : INFINITY)
                         : std::ldexp(1024 + M, Exp - 25);
  return (Bits & 0x8000) ? -V : V;
}

uint64_t narrow(double X, bool Bf) {
  return Bf ? roundToFormat(X, 7, 8) : roundToFormat(X, 10, 5);
}

uint64_t flush16(uint64_t B, bool Bf) {
  return (B & (Bf ? 0x7f80 : 0x7c00)) == 0 ? B & 0x8000 : B & 0xffff;
}

/// A 16-bit operation per lane: exact in double, rounded once.
std::function<uint64_t(const Ops &)>
half(bool Bf, int Lanes, bool Ftz, bool Sat, bool Relu,
     std::function<double(double, double, double)> Op, bool Exact = false) {
  return [=](const Ops &O) -> uint64_t {
    uint64_t R = 0;
    for (int K = 0; K < Lanes; ++K) {
      double V[3];
      for (int J = 0; J < 3; ++J) {
        uint64_t B = (O[J] >> 16 * K) & 0xffff;
        V[J] = widen(Ftz ? flush16(B, Bf) : B, Bf);
      }
      double X = Op(V[0], V[1], V[2]);
      if (Exact) {
        // a * b + c: the product is exact, the sum rounded to odd (TwoSum
        // gives its error), so that rounding to 16 bits is correct.
        double P = V[0] * V[1], S = P + V[2], Bb = S - P;
        double E = (P - (S - Bb)) + (V[2] - Bb);
        uint64_t Bits = bitsOf(S);
        if (std::isfinite(S) && E != 0 && !(Bits & 1))
          S = std::nextafter(S, E > 0 ? INFINITY : -INFINITY);
        X = S;
      }
      // .ftz flushes results tiny before rounding (H200).
      if (Ftz && std::fabs(X) < 0x1p-14)
        X = std::signbit(X) ? -0.0 : 0.0;
      if (Sat)
        X = X > 0 ? (X > 1 ? 1.0 : X) : 0.0;
      if (Relu && X <= 0) // -0 too (H200).
        X = 0;
      uint64_t Bits = narrow(X, Bf);
      R |= (Ftz ? flush16(Bits, Bf) : Bits) << 16 * K;
    }
    return R;
  };
}

std::vector<uint64_t> halfEdges(bool Bf) {
  if (Bf)
    return {0x0000, 0x8000, 0x0001, 0x807f, 0x0080, 0x3f80,
            0xbf81, 0x4049, 0x7f7f, 0xff7f, 0x7f80, 0xff80,
            0x7fc0, 0xffc1, 0x3b80, 0x3c01, 0x4380};
  return {0x0000, 0x8000, 0x0001, 0x83ff, 0x0400, 0x3c00,
          0xbc01, 0x4248, 0x7bff, 0xfbff, 0x7c00, 0xfc00,
          0x7e00, 0xfe01, 0x1400, 0x3801, 0x6400, 0x0200};
}

/// Pairs of 16-bit values in both lanes of 32-bit operands.
std::vector<Operands> packed(const std::vector<uint64_t> &Edges) {
  std::vector<Operands> Out = combinations(Edges, 3, 0);
  for (Operands &O : Out)
    for (uint64_t &V : O)
      V |= ((V * 7 + 3) % 0x10000 & 0xffff) << 16;
  std::vector<Operands> Random = combinations({}, 3, 2000, 32);
  Out.insert(Out.end(), Random.begin(), Random.end());
  return Out;
}

TEST_F(HalfPrecision, Arithmetic) {
  auto Add = [](double A, double B, double) { return A + B; };
  auto Sub = [](double A, double B, double) { return A - B; };
  auto Mul = [](double A, double B, double) { return A * B; };
  auto Fma = [](double A, double B, double C) { return std::fma(A, B, C); };
  for (bool Bf : {false, true}) {
    std::string T = Bf ? "bf16" : "f16";
    std::vector<InstructionCase> Cases = {
        {"add.rn." + T + " %y, %x0, %x1;",
         {16, 16},
         16,
         half(Bf, 1, false, false, false, Add)},
        {"sub." + T + " %y, %x0, %x1;",
         {16, 16},
         16,
         half(Bf, 1, false, false, false, Sub)},
        {"mul." + T + " %y, %x0, %x1;",
         {16, 16},
         16,
         half(Bf, 1, false, false, false, Mul)},
        {"fma.rn." + T + " %y, %x0, %x1, %x2;",
         {16, 16, 16},
         16,
         half(Bf, 1, false, false, false, Fma, true)},
        {"fma.rn.relu." + T + " %y, %x0, %x1, %x2;",
         {16, 16, 16},
         16,
         half(Bf, 1, false, false, true, Fma, true)},
    };
    if (!Bf) {
      Cases.push_back({"add.ftz.sat.f16 %y, %x0, %x1;",
                       {16, 16},
                       16,
                       half(Bf, 1, true, true, false, Add)});
      Cases.push_back({"fma.rn.ftz.f16 %y, %x0, %x1, %x2;",
                       {16, 16, 16},
                       16,
                       half(Bf, 1, true, false, false, Fma, true)});
    }
    check(Cases, combinations(halfEdges(Bf), 3, 1500, 16));
    check(
        {
            {"add." + T + "x2 %y, %x0, %x1;",
             {32, 32},
             32,
             half(Bf, 2, false, false, false, Add)},
            {"mul.rn." + T + "x2 %y, %x0, %x1;",
             {32, 32},
             32,
             half(Bf, 2, false, false, false, Mul)},
            {"fma.rn." + T + "x2 %y, %x0, %x1, %x2;",
             {32, 32, 32},
             32,
             half(Bf, 2, false, false, false, Fma, true)},
            {"neg." + T + "x2 %y, %x0;",
             {32},
             32,
             half(Bf, 2, false, false, false,
                  [](double A, double, double) { return -A; })},
            {"abs." + T + " %y, %x0;",
             {16},
             16,
             half(Bf, 1, false, false, false,
                  [](double A, double, double) { return std::fabs(A); })},
            {"min." + T + "x2 %y, %x0, %x1;",
             {32, 32},
             32,
             [Bf](const Ops &O) {
               uint64_t R = 0;
               for (int K = 0; K < 2; ++K) {
                 uint64_t A = (O[0] >> 16 * K) & 0xffff,
                          B = (O[1] >> 16 * K) & 0xffff;
                 double X = widen(A, Bf), Y = widen(B, Bf);
                 uint64_t V = std::isnan(X) && std::isnan(Y) ? 0x7fff
                              : std::isnan(X)                ? B
                              : std::isnan(Y)                ? A
                              : X == Y                       ? (A | B)
                              : X < Y                        ? A
                                                             : B;
                 R |= V << 16 * K;
               }
               return R;
             }},
            {"max.NaN." + T + " %y, %x0, %x1;",
             {16, 16},
             16,
             [Bf](const Ops &O) {
               uint64_t A = O[0] & 0xffff, B = O[1] & 0xffff;
               double X = widen(A, Bf), Y = widen(B, Bf);
               return uint64_t(std::isnan(X) || std::isnan(Y) ? 0x7fff
                               : X == Y                       ? (A & B)
                               : X > Y                        ? A
                                                              : B);
             }},
        },
        packed(halfEdges(Bf)));
  }
}

/// PTX min/max of 16-bit lanes (as minMax, canonical NaN 0x7fff).
std::function<uint64_t(const Ops &)> halfMinMax(bool Bf, int Lanes, bool Min,
                                                bool PropagateNaN, bool Ftz) {
  return [=](const Ops &O) {
    uint64_t R = 0;
    for (int K = 0; K < Lanes; ++K) {
      uint64_t A = (O[0] >> 16 * K) & 0xffff, B = (O[1] >> 16 * K) & 0xffff;
      if (Ftz) {
        A = flush16(A, Bf);
        B = flush16(B, Bf);
      }
      double X = widen(A, Bf), Y = widen(B, Bf);
      bool NX = std::isnan(X), NY = std::isnan(Y);
      uint64_t V = (NX && NY) || (PropagateNaN && (NX || NY)) ? 0x7fff
                   : NX                                       ? B
                   : NY                                       ? A
                   : X == Y                ? (Min ? (A | B) : (A & B))
                   : (Min ? X < Y : X > Y) ? A
                                           : B;
      R |= V << 16 * K;
    }
    return R;
  };
}

TEST_F(HalfPrecision, Modifiers) {
  auto Add = [](double A, double B, double) { return A + B; };
  auto Sub = [](double A, double B, double) { return A - B; };
  auto Mul = [](double A, double B, double) { return A * B; };
  auto Neg = [](double A, double, double) { return -A; };
  auto Abs = [](double A, double, double) { return std::fabs(A); };
  check(
      {
          {"add.sat.f16x2 %y, %x0, %x1;",
           {32, 32},
           32,
           half(false, 2, false, true, false, Add)},
          {"sub.ftz.sat.f16x2 %y, %x0, %x1;",
           {32, 32},
           32,
           half(false, 2, true, true, false, Sub)},
          {"mul.ftz.f16x2 %y, %x0, %x1;",
           {32, 32},
           32,
           half(false, 2, true, false, false, Mul)},
          {"neg.ftz.f16x2 %y, %x0;",
           {32},
           32,
           half(false, 2, true, false, false, Neg)},
          {"abs.ftz.f16x2 %y, %x0;",
           {32},
           32,
           half(false, 2, true, false, false, Abs)},
          {"abs.bf16x2 %y, %x0;",
           {32},
           32,
           half(true, 2, false, false, false, Abs)},
          {"neg.bf16x2 %y, %x0;",
           {32},
           32,
           half(true, 2, false, false, false, Neg)},
          {"sub.rn.bf16x2 %y, %x0, %x1;",
           {32, 32},
           32,
           half(true, 2, false, false, false, Sub)},
          {"min.ftz.f16x2 %y, %x0, %x1;",
           {32, 32},
           32,
           halfMinMax(false, 2, true, false, true)},
          {"max.ftz.NaN.f16x2 %y, %x0, %x1;",
           {32, 32},
           32,
           halfMinMax(false, 2, false, true, true)},
          {"min.NaN.bf16x2 %y, %x0, %x1;",
           {32, 32},
           32,
           halfMinMax(true, 2, true, true, false)},
          {"max.bf16x2 %y, %x0, %x1;",
           {32, 32},
           32,
           halfMinMax(true, 2, false, false, false)},
          {"fma.rn.sat.f16x2 %y, %x0, %x1, %x2;",
           {32, 32, 32},
           32,
           half(
               false, 2, false, true, false,
               [](double A, double B, double C) { return std::fma(A, B, C); },
               true)},
          {"fma.rn.ftz.relu.f16x2 %y, %x0, %x1, %x2;",
           {32, 32, 32},
           32,
           half(
               false, 2, true, false, true,
               [](double A, double B, double C) { return std::fma(A, B, C); },
               true)},
      },
      packed(halfEdges(false)));
}

} // namespace
