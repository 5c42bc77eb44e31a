//===- BitsTest.cpp - PTX logic, bit manipulation and comparisons ---------===//
//
// Logic (and/or/xor/not/cnot/lop3), shifts (shl/shr/shf), bit counting and
// fields (popc, clz, bfind, brev, bfe, bfi, fns, prmt), and comparisons and
// selections (setp, set, selp, slct, testp), each over edge cases and random
// operands against a C++ model of the PTX ISA's semantics.
//
//===----------------------------------------------------------------------===//

#include "InstructionTest.h"

#include <cmath>

using namespace cucpu::test;

namespace {

using Bits = InstructionTest;
using Ops = Operands;

uint32_t u32(uint64_t V) { return uint32_t(V); }
int32_t s32(uint64_t V) { return int32_t(uint32_t(V)); }

const std::vector<uint64_t> Edges = {
    0,          1,          2,          7,          8,          16,
    31,         32,         33,         63,         64,         65,
    255,        256,        0x1f1f,     0x8000,     0x12345678, 0x7fffffff,
    0x80000000, 0x80000001, 0xfffffffe, 0xffffffff, 0xf0f0f0f0, 0x55aa33cc};

TEST_F(Bits, LogicAndShifts) {
  check(
      {
          {"and.b32 %y, %x0, %x1;",
           {32, 32},
           32,
           [](const Ops &O) { return O[0] & O[1]; }},
          {"or.b64 %y, %x0, %x1;",
           {64, 64},
           64,
           [](const Ops &O) { return O[0] | O[1]; }},
          {"xor.b16 %y, %x0, %x1;",
           {16, 16},
           16,
           [](const Ops &O) { return O[0] ^ O[1]; }},
          {"not.b32 %y, %x0;", {32}, 32, [](const Ops &O) { return ~O[0]; }},
          {"cnot.b32 %y, %x0;",
           {32},
           32,
           [](const Ops &O) { return uint64_t(u32(O[0]) == 0); }},
          {"setp.ne.u32 %p1, %x0, 0; setp.lt.u32 %p2, %x1, 100;"
           " xor.pred %p3, %p1, %p2; and.pred %p3, %p3, %p1;"
           " or.pred %p3, %p3, %p2; not.pred %p3, %p3;"
           " selp.u32 %y, 1, 0, %p3;",
           {32, 32},
           32,
           [](const Ops &O) {
             bool P1 = u32(O[0]) != 0, P2 = u32(O[1]) < 100;
             return uint64_t(!(((P1 ^ P2) && P1) || P2));
           }},
          {"shl.b32 %y, %x0, %x1;",
           {32, 32},
           32,
           [](const Ops &O) {
             return uint64_t(u32(O[1]) >= 32 ? 0 : u32(O[0]) << u32(O[1]));
           }},
          {"shr.u32 %y, %x0, %x1;",
           {32, 32},
           32,
           [](const Ops &O) {
             return uint64_t(u32(O[1]) >= 32 ? 0 : u32(O[0]) >> u32(O[1]));
           }},
          {"shr.s32 %y, %x0, %x1;",
           {32, 32},
           32,
           [](const Ops &O) {
             return uint64_t(
                 uint32_t(s32(O[0]) >> std::min<uint32_t>(u32(O[1]), 31)));
           }},
          {"shr.b16 %y, %x0, %x1;",
           {16, 32},
           16,
           [](const Ops &O) {
             return uint64_t(u32(O[1]) >= 16 ? 0 : uint16_t(O[0]) >> u32(O[1]));
           }},
          {"shl.b64 %y, %x0, %x1;",
           {64, 32},
           64,
           [](const Ops &O) {
             return u32(O[1]) >= 64 ? 0 : O[0] << u32(O[1]);
           }},
          {"shr.s64 %y, %x0, %x1;",
           {64, 32},
           64,
           [](const Ops &O) {
             return uint64_t(int64_t(O[0]) >>
                             std::min<uint32_t>(u32(O[1]), 63));
           }},
          {"shf.l.wrap.b32 %y, %x0, %x1, %x2;",
           {32, 32, 32},
           32,
           [](const Ops &O) {
             uint64_t V = (uint64_t(u32(O[1])) << 32) | u32(O[0]);
             return (V << (u32(O[2]) & 31)) >> 32;
           }},
          {"shf.r.wrap.b32 %y, %x0, %x1, %x2;",
           {32, 32, 32},
           32,
           [](const Ops &O) {
             uint64_t V = (uint64_t(u32(O[1])) << 32) | u32(O[0]);
             return uint64_t(uint32_t(V >> (u32(O[2]) & 31)));
           }},
          {"shf.l.clamp.b32 %y, %x0, %x1, %x2;",
           {32, 32, 32},
           32,
           [](const Ops &O) {
             uint64_t V = (uint64_t(u32(O[1])) << 32) | u32(O[0]);
             return (V << std::min<uint32_t>(u32(O[2]), 32)) >> 32;
           }},
          {"shf.r.clamp.b32 %y, %x0, %x1, %x2;",
           {32, 32, 32},
           32,
           [](const Ops &O) {
             uint64_t V = (uint64_t(u32(O[1])) << 32) | u32(O[0]);
             return uint64_t(uint32_t(V >> std::min<uint32_t>(u32(O[2]), 32)));
           }},
      },
      combinations(Edges, 3, 300, 32));
}

TEST_F(Bits, Lop3) {
  std::vector<InstructionCase> Cases;
  for (unsigned Lut : {0x00u, 0xffu, 0x96u, 0xe8u, 0xf0u, 0xccu, 0xaau, 0x80u,
                       0x01u, 0x6au, 0x1eu, 0xfeu}) {
    Cases.push_back({"lop3.b32 %y, %x0, %x1, %x2, " + std::to_string(Lut) + ";",
                     {32, 32, 32},
                     32,
                     [Lut](const Ops &O) {
                       uint32_t R = 0;
                       for (int Bit = 0; Bit < 32; ++Bit) {
                         unsigned K = ((O[0] >> Bit) & 1) << 2 |
                                      ((O[1] >> Bit) & 1) << 1 |
                                      ((O[2] >> Bit) & 1);
                         R |= ((Lut >> K) & 1u) << Bit;
                       }
                       return uint64_t(R);
                     }});
  }
  check(Cases, combinations(Edges, 3, 200, 32));
}

/// bfe by the PTX ISA's pseudocode.
uint64_t bfe(uint64_t A, uint32_t B, uint32_t C, unsigned Bits, bool Signed) {
  // 64-bit forms read all 32 bits of b and c (H200), 32-bit ones 8.
  uint64_t Msb = Bits - 1;
  uint64_t Pos = Bits == 32 ? B & 0xff : B, Len = Bits == 32 ? C & 0xff : C;
  unsigned SBit = 0;
  if (Signed && Len != 0)
    SBit = (A >> std::min(Pos + Len - 1, Msb)) & 1;
  uint64_t D = 0;
  for (uint64_t I = 0; I <= Msb; ++I) {
    uint64_t Bit = (I < Len && Pos + I <= Msb) ? (A >> (Pos + I)) & 1 : SBit;
    D |= Bit << I;
  }
  return D;
}

/// bfi by the PTX ISA's pseudocode.
uint64_t bfi(uint64_t A, uint64_t B, uint32_t C, uint32_t D, unsigned Bits) {
  uint64_t Msb = Bits - 1;
  uint64_t Pos = Bits == 32 ? C & 0xff : C, Len = Bits == 32 ? D & 0xff : D;
  uint64_t F = B;
  for (uint64_t I = 0; I < Len && Pos + I <= Msb; ++I)
    F = (F & ~(1ull << (Pos + I))) | (((A >> I) & 1) << (Pos + I));
  return Bits == 32 ? uint32_t(F) : F;
}

TEST_F(Bits, Fields) {
  check(
      {
          {"bfe.u32 %y, %x0, %x1, %x2;",
           {32, 32, 32},
           32,
           [](const Ops &O) { return bfe(u32(O[0]), O[1], O[2], 32, false); }},
          {"bfe.s32 %y, %x0, %x1, %x2;",
           {32, 32, 32},
           32,
           [](const Ops &O) { return bfe(u32(O[0]), O[1], O[2], 32, true); }},
          {"bfe.s64 %y, %x0, %x1, %x2;",
           {64, 32, 32},
           64,
           [](const Ops &O) { return bfe(O[0], O[1], O[2], 64, true); }},
          {"bfe.u64 %y, %x0, %x1, %x2;",
           {64, 32, 32},
           64,
           [](const Ops &O) { return bfe(O[0], O[1], O[2], 64, false); }},
          {"bfi.b32 %y, %x0, %x1, %x2, %x3;",
           {32, 32, 32, 32},
           32,
           [](const Ops &O) {
             return bfi(u32(O[0]), u32(O[1]), O[2], O[3], 32);
           }},
          {"bfi.b64 %y, %x0, %x1, %x2, %x3;",
           {64, 64, 32, 32},
           64,
           [](const Ops &O) { return bfi(O[0], O[1], O[2], O[3], 64); }},
      },
      combinations({0, 1, 5, 8, 24, 31, 32, 33, 40, 63, 64, 200, 0x1ff,
                    0xffffffff, 0x80000000, 0x12345678, 0xfedcba9876543210},
                   4, 500));
}

TEST_F(Bits, CountsAndPermutes) {
  auto Bfind = [](uint64_t A, unsigned Bits, bool Signed,
                  bool ShiftAmount) -> uint64_t {
    if (Signed && ((A >> (Bits - 1)) & 1))
      A = ~A;
    if (Bits == 32)
      A &= 0xffffffff;
    for (int I = Bits - 1; I >= 0; --I)
      if ((A >> I) & 1)
        return ShiftAmount ? Bits - 1 - I : I;
    return 0xffffffff;
  };
  auto Fns = [](uint32_t Mask, uint32_t Base, int32_t Offset) -> uint64_t {
    if (Offset == 0)
      return (Mask >> Base) & 1 ? Base : 0xffffffff;
    int Seen = 0;
    if (Offset > 0) {
      for (int I = Base; I < 32; ++I)
        if (((Mask >> I) & 1) && ++Seen == Offset)
          return I;
    } else {
      for (int I = Base; I >= 0; --I)
        if (((Mask >> I) & 1) && ++Seen == -int64_t(Offset))
          return I;
    }
    return 0xffffffff;
  };
  check(
      {
          {"popc.b32 %y, %x0;",
           {32},
           32,
           [](const Ops &O) {
             return uint64_t(__builtin_popcount(u32(O[0])));
           }},
          {"popc.b64 %y, %x0;",
           {64},
           32,
           [](const Ops &O) { return uint64_t(__builtin_popcountll(O[0])); }},
          {"clz.b32 %y, %x0;",
           {32},
           32,
           [](const Ops &O) {
             return uint64_t(u32(O[0]) ? __builtin_clz(u32(O[0])) : 32);
           }},
          {"clz.b64 %y, %x0;",
           {64},
           32,
           [](const Ops &O) {
             return uint64_t(O[0] ? __builtin_clzll(O[0]) : 64);
           }},
          {"brev.b32 %y, %x0;",
           {32},
           32,
           [](const Ops &O) {
             uint32_t R = 0;
             for (int I = 0; I < 32; ++I)
               R |= ((u32(O[0]) >> I) & 1) << (31 - I);
             return uint64_t(R);
           }},
          {"bfind.u32 %y, %x0;",
           {32},
           32,
           [=](const Ops &O) { return Bfind(O[0], 32, false, false); }},
          {"bfind.s32 %y, %x0;",
           {32},
           32,
           [=](const Ops &O) { return Bfind(O[0], 32, true, false); }},
          {"bfind.shiftamt.s64 %y, %x0;",
           {64},
           32,
           [=](const Ops &O) { return Bfind(O[0], 64, true, true); }},
          {"bfind.shiftamt.u64 %y, %x0;",
           {64},
           32,
           [=](const Ops &O) { return Bfind(O[0], 64, false, true); }},
      },
      combinations({0, 1, 2, 3, 5, 31, 32, 0xffffffff, 0xfffffffe, 0x80000000,
                    0x7fffffff, 0x12345678, 0xf0f00f0f, 0x8000000000000000,
                    0xffffffff00000000, 0x00000001ffffffff},
                   3, 2000));
  // fns with the offset INT_MIN is left out: an H200 answers 0 where the
  // search finds nothing, which this model does not explain.
  check(
      {{"and.b32 %r1, %x1, 31; fns.b32 %y, %x0, %r1, %x2;",
        {32, 32, 32},
        32,
        [=](const Ops &O) { return Fns(u32(O[0]), O[1] & 31, s32(O[2])); }}},
      combinations({0, 1, 2, 3, 5, 31, 32, 33, 0xffffffff, 0xfffffffe,
                    0xffffffe0, 0x7fffffff, 0x12345678, 0xf0f00f0f, 0x80000001},
                   3, 2000, 31));
}

TEST_F(Bits, MaskAndExtend) {
  // bmsk and szext by the PTX ISA's pseudocode.
  auto Bmsk = [](uint32_t A, uint32_t B, bool Clamp) -> uint64_t {
    uint32_t A1 = A & 31, B1 = B & 31, Sum = A1 + B1;
    uint32_t Mask0 = ~0u << A1;
    uint32_t Mask1 = Sum >= 32 ? 0 : ~0u << Sum;
    if (Clamp && A >= 32)
      Mask0 = 0;
    if (Clamp && B >= 32)
      Mask1 = 0;
    else if (B1 == 0)
      Mask1 = ~0u;
    return Mask0 & ~Mask1;
  };
  auto Szext = [](uint32_t A, uint32_t B, bool Clamp, bool Signed) -> uint64_t {
    uint32_t N = Clamp ? std::min<uint32_t>(B, 32) : B & 31;
    if (N == 0)
      return 0;
    uint32_t Top = A << (32 - N);
    return Signed ? uint32_t(int32_t(Top) >> (32 - N)) : Top >> (32 - N);
  };
  check({{"bmsk.wrap.b32 %y, %x0, %x1;",
          {32, 32},
          32,
          [=](const Ops &O) { return Bmsk(O[0], O[1], false); }},
         {"bmsk.clamp.b32 %y, %x0, %x1;",
          {32, 32},
          32,
          [=](const Ops &O) { return Bmsk(O[0], O[1], true); }},
         {"szext.wrap.s32 %y, %x0, %x1;",
          {32, 32},
          32,
          [=](const Ops &O) { return Szext(O[0], O[1], false, true); }},
         {"szext.clamp.s32 %y, %x0, %x1;",
          {32, 32},
          32,
          [=](const Ops &O) { return Szext(O[0], O[1], true, true); }},
         {"szext.wrap.u32 %y, %x0, %x1;",
          {32, 32},
          32,
          [=](const Ops &O) { return Szext(O[0], O[1], false, false); }},
         {"szext.clamp.u32 %y, %x0, %x1;",
          {32, 32},
          32,
          [=](const Ops &O) { return Szext(O[0], O[1], true, false); }}},
        combinations({0, 1, 2, 7, 8, 15, 16, 30, 31, 32, 33, 63, 64, 255,
                      0x80000000, 0xffffffff, 0x12345678, 0xdeadbeef},
                     2, 500, 32));
}

/// prmt by the PTX ISA: the four byte selectors, then the bytes of b:a.
uint64_t prmt(uint32_t A, uint32_t B, uint32_t C, const char *Mode) {
  static const struct {
    const char *Name;
    uint16_t Rows[4];
  } Modes[] = {{"f4e", {0x3210, 0x4321, 0x5432, 0x6543}},
               {"b4e", {0x5670, 0x6701, 0x7012, 0x0123}},
               {"rc8", {0x0000, 0x1111, 0x2222, 0x3333}},
               {"ecl", {0x3210, 0x3211, 0x3222, 0x3333}},
               {"ecr", {0x0000, 0x1110, 0x2210, 0x3210}},
               {"rc16", {0x1010, 0x3232, 0x1010, 0x3232}}};
  uint64_t Bytes = (uint64_t(B) << 32) | A;
  uint32_t Selector = C;
  bool Sign = true;
  for (const auto &M : Modes)
    if (Mode && std::string(Mode) == M.Name) {
      Selector = M.Rows[C & 3];
      Sign = false;
    }
  uint32_t R = 0;
  for (int K = 0; K < 4; ++K) {
    unsigned Nibble = (Selector >> 4 * K) & 0xf;
    uint32_t Byte = (Bytes >> 8 * (Nibble & 7)) & 0xff;
    if (Sign && (Nibble & 8))
      Byte = (Byte & 0x80) ? 0xff : 0;
    R |= Byte << 8 * K;
  }
  return R;
}

TEST_F(Bits, Prmt) {
  std::vector<InstructionCase> Cases = {
      {"prmt.b32 %y, %x0, %x1, %x2;", {32, 32, 32}, 32, [](const Ops &O) {
         return prmt(O[0], O[1], O[2], nullptr);
       }}};
  for (const char *Mode : {"f4e", "b4e", "rc8", "ecl", "ecr", "rc16"})
    Cases.push_back(
        {std::string("prmt.b32.") + Mode + " %y, %x0, %x1, %x2;",
         {32, 32, 32},
         32,
         [Mode](const Ops &O) { return prmt(O[0], O[1], O[2], Mode); }});
  check(Cases, combinations({0x03020100, 0x87868584, 0x7654, 0x3210, 0x0, 0x1,
                             0x2, 0x3, 0x8888, 0xfedcba98},
                            3, 2000, 32));
}

// --- Comparisons and selections
// ------------------------------------------------

const std::vector<uint64_t> FloatEdges = {
    0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007fffff, 0x00800000,
    0x3f800000, 0xbf800000, 0x3f800001, 0x7f7fffff, 0x7f800000, 0xff800000,
    0x7fc00000, 0xffc00001, 0x40000000, 0xc0000000};

bool compareFloat(double A, double B, const std::string &Op) {
  bool Unordered = std::isnan(A) || std::isnan(B);
  if (Op == "num")
    return !Unordered;
  if (Op == "nan")
    return Unordered;
  bool U = Op.size() == 3 && Op.back() == 'u';
  std::string Base = U ? Op.substr(0, 2) : Op;
  if (Unordered)
    return U;
  if (Base == "eq")
    return A == B;
  if (Base == "ne")
    return A != B;
  if (Base == "lt")
    return A < B;
  if (Base == "le")
    return A <= B;
  if (Base == "gt")
    return A > B;
  return A >= B;
}

uint32_t flush32(uint32_t B) {
  return (B & 0x7f800000) == 0 ? B & 0x80000000 : B;
}

TEST_F(Bits, FloatComparisons) {
  std::vector<InstructionCase> Cases;
  for (std::string Op : {"eq", "ne", "lt", "le", "gt", "ge", "equ", "neu",
                         "ltu", "leu", "gtu", "geu", "num", "nan"}) {
    Cases.push_back(
        {"setp." + Op + ".f32 %p1, %x0, %x1; selp.u32 %y, 1, 0, %p1;",
         {32, 32},
         32,
         [Op](const Ops &O) {
           return uint64_t(compareFloat(asFloat(O[0]), asFloat(O[1]), Op));
         }});
    Cases.push_back({"setp." + Op +
                         ".ftz.f32 %p1|%p2, %x0, %x1;"
                         " selp.u32 %r1, 1, 0, %p1;"
                         " selp.u32 %r2, 2, 0, %p2;"
                         " or.b32 %y, %r1, %r2;",
                     {32, 32},
                     32,
                     [Op](const Ops &O) {
                       bool P = compareFloat(asFloat(flush32(O[0])),
                                             asFloat(flush32(O[1])), Op);
                       return uint64_t(P ? 1 : 2);
                     }});
  }
  Cases.push_back({"setp.lt.and.f32 %p1|%p2, %x0, %x1, %p3;"
                   " selp.u32 %r1, 1, 0, %p1; selp.u32 %r2, 2, 0, %p2;"
                   " or.b32 %y, %r1, %r2;",
                   {32, 32},
                   32,
                   [](const Ops &) { return uint64_t(0); }});
  Cases.push_back(
      {"set.gtu.or.u32.f32 %y, %x0, %x1, !%p0;", {32, 32}, 32, [](const Ops &) {
         return uint64_t(0xffffffff);
       }});
  Cases.push_back(
      {"set.le.f32.f32 %y, %x0, %x1;", {32, 32}, 32, [](const Ops &O) {
         return uint64_t(
             compareFloat(asFloat(O[0]), asFloat(O[1]), "le") ? 0x3f800000 : 0);
       }});
  Cases.push_back(
      {"slct.u32.f32 %y, %x0, %x1, %x1;", {32, 32}, 32, [](const Ops &O) {
         return asFloat(O[1]) >= 0 ? O[0] : O[1];
       }});
  Cases.push_back(
      {"slct.ftz.u32.f32 %y, %x0, %x1, %x1;", {32, 32}, 32, [](const Ops &O) {
         return asFloat(flush32(O[1])) >= 0 ? O[0] : O[1];
       }});
  Cases.push_back(
      {"slct.s32.s32 %y, %x0, %x1, %x1;", {32, 32}, 32, [](const Ops &O) {
         return s32(O[1]) >= 0 ? O[0] : O[1];
       }});
  for (std::string Test :
       {"finite", "infinite", "number", "notanumber", "normal", "subnormal"})
    Cases.push_back({"testp." + Test + ".f32 %p1, %x0; selp.u32 %y, 1, 0, %p1;",
                     {32},
                     32,
                     [Test](const Ops &O) {
                       float F = asFloat(O[0]);
                       int C = std::fpclassify(F);
                       bool R =
                           Test == "finite"       ? std::isfinite(F)
                           : Test == "infinite"   ? std::isinf(F)
                           : Test == "number"     ? !std::isnan(F)
                           : Test == "notanumber" ? std::isnan(F)
                           : Test == "normal" // An H200 counts zeros as normal.
                               ? C == FP_NORMAL || C == FP_ZERO
                               : C == FP_SUBNORMAL;
                       return uint64_t(R);
                     }});
  for (std::string Test :
       {"finite", "infinite", "notanumber", "normal", "subnormal"})
    Cases.push_back({"shl.b64 %rd1, %x0, 32; or.b64 %rd1, %rd1, %x0; testp." +
                         Test + ".f64 %p1, %rd1; selp.u32 %y, 1, 0, %p1;",
                     {64},
                     32,
                     [Test](const Ops &O) {
                       double D = asDouble(O[0] << 32 | O[0]);
                       int C = std::fpclassify(D);
                       bool R = Test == "finite"       ? std::isfinite(D)
                                : Test == "infinite"   ? std::isinf(D)
                                : Test == "notanumber" ? std::isnan(D)
                                : Test == "normal"
                                    ? C == FP_NORMAL || C == FP_ZERO
                                    : C == FP_SUBNORMAL;
                       return uint64_t(R);
                     }});
  // %p0 and %p3 start false in these kernels: set them first.
  for (InstructionCase &C : Cases)
    C.Body = "setp.ne.u32 %p0, 0, 0; setp.ne.u32 %p3, 0, 0; " + C.Body;
  check(Cases, combinations(FloatEdges, 2, 300, 32));
}

TEST_F(Bits, IntegerAndHalfComparisons) {
  std::vector<InstructionCase> Cases;
  for (std::string Op : {"eq", "ne", "lt", "le", "gt", "ge"}) {
    Cases.push_back(
        {"setp." + Op + ".s32 %p1, %x0, %x1; selp.u32 %y, 1, 0, %p1;",
         {32, 32},
         32,
         [Op](const Ops &O) {
           return uint64_t(compareFloat(s32(O[0]), s32(O[1]), Op));
         }});
    Cases.push_back(
        {"setp." + Op + ".u64 %p1, %x0, %x1; selp.u32 %y, 1, 0, %p1;",
         {64, 64},
         32,
         [Op](const Ops &O) {
           bool R = Op == "eq"   ? O[0] == O[1]
                    : Op == "ne" ? O[0] != O[1]
                    : Op == "lt" ? O[0] < O[1]
                    : Op == "le" ? O[0] <= O[1]
                    : Op == "gt" ? O[0] > O[1]
                                 : O[0] >= O[1];
           return uint64_t(R);
         }});
  }
  for (std::string Op : {"lo", "ls", "hi", "hs"})
    Cases.push_back(
        {"setp." + Op + ".u32 %p1, %x0, %x1; selp.u32 %y, 1, 0, %p1;",
         {32, 32},
         32,
         [Op](const Ops &O) {
           uint32_t A = u32(O[0]), B = u32(O[1]);
           bool R = Op == "lo"   ? A < B
                    : Op == "ls" ? A <= B
                    : Op == "hi" ? A > B
                                 : A >= B;
           return uint64_t(R);
         }});
  // Half precision: each lane compared as a float.
  auto Half = [](uint64_t B) {
    B &= 0xffff;
    int Exp = (B >> 10) & 0x1f;
    double M = double(B & 0x3ff);
    double V = Exp == 0    ? std::ldexp(M, -24)
               : Exp == 31 ? (M ? NAN : INFINITY)
                           : std::ldexp(1024 + M, Exp - 25);
    return (B & 0x8000) ? -V : V;
  };
  for (std::string Op : {"lt", "geu", "ne", "nan"}) {
    Cases.push_back({"setp." + Op +
                         ".f16x2 %p1|%p2, %x0, %x1;"
                         " selp.u32 %r1, 1, 0, %p1;"
                         " selp.u32 %r2, 2, 0, %p2;"
                         " or.b32 %y, %r1, %r2;",
                     {32, 32},
                     32,
                     [=](const Ops &O) {
                       bool Lo = compareFloat(Half(O[0]), Half(O[1]), Op);
                       bool Hi =
                           compareFloat(Half(O[0] >> 16), Half(O[1] >> 16), Op);
                       return uint64_t((Lo ? 1 : 0) | (Hi ? 2 : 0));
                     }});
    Cases.push_back(
        {"set." + Op + ".u32.f16x2 %y, %x0, %x1;",
         {32, 32},
         32,
         [=](const Ops &O) {
           bool Lo = compareFloat(Half(O[0]), Half(O[1]), Op);
           bool Hi = compareFloat(Half(O[0] >> 16), Half(O[1] >> 16), Op);
           return uint64_t((Lo ? 0xffff : 0) | (Hi ? 0xffff0000 : 0));
         }});
    Cases.push_back({"set." + Op + ".f16.f16 %y, %x0, %x1;",
                     {16, 16},
                     16,
                     [=](const Ops &O) {
                       return uint64_t(compareFloat(Half(O[0]), Half(O[1]), Op)
                                           ? 0x3c00
                                           : 0);
                     }});
  }
  auto Bf = [](uint64_t B) { return double(asFloat((B & 0xffff) << 16)); };
  Cases.push_back({"setp.ne.u32 %p0, 0, 0; setp.leu.and.bf16x2 %p1|%p2, %x0, "
                   "%x1, !%p0; selp.u32 %r1, 1, 0, %p1; selp.u32 %r2, 2, 0, "
                   "%p2; or.b32 %y, %r1, %r2;",
                   {32, 32},
                   32,
                   [=](const Ops &O) {
                     bool Lo = compareFloat(Bf(O[0]), Bf(O[1]), "leu");
                     bool Hi =
                         compareFloat(Bf(O[0] >> 16), Bf(O[1] >> 16), "leu");
                     return uint64_t((Lo ? 1 : 0) | (Hi ? 2 : 0));
                   }});
  Cases.push_back(
      {"set.gt.bf16x2.bf16x2 %y, %x0, %x1;", {32, 32}, 32, [=](const Ops &O) {
         bool Lo = compareFloat(Bf(O[0]), Bf(O[1]), "gt");
         bool Hi = compareFloat(Bf(O[0] >> 16), Bf(O[1] >> 16), "gt");
         return uint64_t((Lo ? 0x3f80 : 0) | (Hi ? 0x3f800000 : 0));
       }});
  Cases.push_back(
      {"set.ne.ftz.f16x2.f16x2 %y, %x0, %x1;", {32, 32}, 32, [=](const Ops &O) {
         auto Flush = [](uint64_t B) {
           B &= 0xffff;
           return (B & 0x7c00) == 0 ? B & 0x8000 : B;
         };
         bool Lo = compareFloat(Half(Flush(O[0])), Half(Flush(O[1])), "ne");
         bool Hi = compareFloat(Half(Flush(O[0] >> 16)),
                                Half(Flush(O[1] >> 16)), "ne");
         return uint64_t((Lo ? 0x3c00 : 0) | (Hi ? 0x3c000000 : 0));
       }});
  Cases.push_back({"setp.ne.b32 %p1, %x1, 0; selp.b32 %y, %x0, %x1, %p1;",
                   {32, 32},
                   32,
                   [](const Ops &O) { return u32(O[1]) != 0 ? O[0] : O[1]; }});
  Cases.push_back(
      {"setp.gt.s32 %p1, %x1, 0; selp.f32 %y, %x0, 0f3F800000, %p1;",
       {32, 32},
       32,
       [](const Ops &O) {
         return s32(O[1]) > 0 ? O[0] : uint64_t(0x3f800000);
       }});
  check(Cases, combinations({0, 1, 0x8000, 0x3c00, 0xbc00, 0x7c00, 0x7e00,
                             0x0001, 0x80000000, 0x7fffffff, 0xffffffff,
                             0x3c007c00, 0xfc000001, 0x123456789},
                            2, 300, 32));
}

} // namespace
