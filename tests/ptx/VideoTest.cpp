//===- VideoTest.cpp - The SIMD video instructions ------------------------===//
//
// vadd2/4 ... vset2/4 on values worked out by hand from the PTX ISA's
// pseudocode, and the forms the JIT must refuse. Every form against the
// H200 is `ptx.video.forms` (video_forms.cpp).
//
//===----------------------------------------------------------------------===//

#include "OneInstruction.h"

namespace {

using namespace cucpu::test::single;

using PtxVideo = OneInstructionTest;

/// %d = Instr over one pair (a, b), c being a as well.
uint32_t one(PtxVideo &T, const std::string &Instr, uint32_t A, uint32_t B) {
  std::vector<uint32_t> As{A}, Bs{B};
  std::vector<uint32_t> D = T.apply<uint32_t>(Instr, As, &Bs);
  return D.empty() ? 0xdeadbeef : D[0];
}

TEST_F(PtxVideo, SumOfAbsoluteDifferencesAccumulates) {
  // stereoDisparity's form: |1-4| + |200-100| + |0-255| + |7-7| onto c = a.
  uint32_t A = 0x07'00'c8'01, B = 0x07'ff'64'04;
  EXPECT_EQ(one(*this, "vabsdiff4.u32.u32.u32.add %d, %a, %b, %a;", A, B),
            A + 3 + 100 + 255 + 0);
  // Signed half-words: |-1 - 1| + |-32768 - 32767|.
  EXPECT_EQ(one(*this, "vabsdiff2.s32.s32.s32.add %d, %a, %b, %a;", 0x8000'ffff,
                0x7fff'0001),
            0x8000'ffffu + 2 + 65535);
}

TEST_F(PtxVideo, SaturationClampsEachLaneToTheDestinationType) {
  // Bytes 0x7f + 0x01 (signed: 128 -> 127), 0x80 + 0xff (-129 -> -128).
  EXPECT_EQ(one(*this, "vadd4.s32.s32.s32.sat %d, %a, %b, %a;", 0x00'00'80'7f,
                0x00'00'ff'01),
            0x00'00'80'7fu);
  // Unsigned: 0xf0 + 0x20 -> 0xff; 0x10 - 0x20 -> 0 with vsub.
  EXPECT_EQ(one(*this, "vadd4.u32.u32.u32.sat %d, %a, %b, %a;", 0xf0, 0x20),
            0xffu);
  EXPECT_EQ(one(*this, "vsub4.u32.u32.u32.sat %d, %a, %b, %a;", 0x10, 0x20),
            0u);
  // Without .sat the lanes wrap on their own: 0xff + 1 does not carry.
  EXPECT_EQ(one(*this, "vadd4.u32.u32.u32 %d, %a, %b, %a;", 0x00ff, 0x0001),
            0x0000u);
}

TEST_F(PtxVideo, AverageRoundsHalvesAwayFromZero) {
  // 1 + 2 = 3 -> 2; -1 + -2 = -3 -> -2 (0xfe); -1 + 0 = -1 -> -1 (0xff).
  EXPECT_EQ(one(*this, "vavrg4.s32.s32.s32 %d, %a, %b, %a;", 0x00'ff'ff'01,
                0x00'00'fe'02),
            0x00'ff'fe'02u);
}

TEST_F(PtxVideo, SelectorsPickFromBothOperands) {
  // a.h23 takes b's half-words (lane 1 <- b.lo, lane 0 <- b.hi); b.h01
  // takes a's, swapped: d = (b.hi + a.hi, b.lo + a.lo) swapped.
  EXPECT_EQ(one(*this, "vadd2.u32.u32.u32 %d, %a.h23, %b.h01, %a;", 0x0001'0002,
                0x0010'0020),
            0x0022'0011u);
  // Bytes: a.b0000 repeats a's low byte; b.b7654 is b itself.
  EXPECT_EQ(one(*this, "vadd4.u32.u32.u32 %d, %a.b0000, %b.b7654, %a;",
                0x00'00'00'05, 0x04'03'02'01),
            0x09'08'07'06u);
}

TEST_F(PtxVideo, TheMaskMergesWithC) {
  // Lanes 0 and 2 from the minimum, 1 and 3 from c (= a here).
  EXPECT_EQ(one(*this, "vmin4.u32.u32.u32 %d.b20, %a, %b, %a;", 0x44'33'22'11,
                0x01'01'01'01),
            0x44'01'22'01u);
  // With .add, only the masked lanes are summed onto c.
  EXPECT_EQ(one(*this, "vset2.u32.u32.eq.add %d.h1, %a, %b, %a;", 0x0005'0007,
                0x0005'0007),
            0x0005'0007u + 1);
}

TEST_F(PtxVideo, SetComparesTheOperandsByTheirOwnTypes) {
  // 0xff is -1 as .s32 and 255 as .u32: below 1, or not.
  EXPECT_EQ(one(*this, "vset4.s32.u32.lt %d, %a, %b, %a;", 0xff, 0x01), 1u);
  EXPECT_EQ(one(*this, "vset4.u32.u32.lt %d, %a, %b, %a;", 0xff, 0x01), 0u);
}

TEST_F(PtxVideo, InvalidFormsAreRejected) {
  const std::string Regs = ".reg .b32 %r<4>;\n.reg .f32 %f1;";
  EXPECT_TRUE(rejects("vadd2.u32.u32.u32 %r1, %r2.h4, %r3, %r0;", Regs))
      << "a half-word past 3";
  EXPECT_TRUE(rejects("vadd4.u32.u32.u32 %r1, %r2.b012, %r3, %r0;", Regs))
      << "three bytes for four lanes";
  EXPECT_TRUE(rejects("vadd4.u32.u32.u32 %r1, %r2.h10, %r3, %r0;", Regs))
      << "half-words in a byte form";
  EXPECT_TRUE(rejects("vmax2.u32.u32.u32 %r1.h2, %r2, %r3, %r0;", Regs))
      << "a mask lane past 1";
  EXPECT_TRUE(rejects("vadd2.u32.u32.u32.sat.add %r1, %r2, %r3, %r0;", Regs))
      << ".sat with .add";
  EXPECT_TRUE(rejects("vset2.u32.u32 %r1, %r2, %r3, %r0;", Regs))
      << "no comparison";
  EXPECT_TRUE(rejects("vadd2.f32.f32.f32 %r1, %r2, %r3, %r0;", Regs))
      << "a float type";
  EXPECT_TRUE(rejects("vadd2.u32.u32 %r1, %r2, %r3, %r0;", Regs))
      << "two types on a vop2";
  EXPECT_TRUE(rejects("vadd2.u32.u32.u32 %r1, %r2, %r3, %r0.h10;", Regs))
      << "a selector on c";
  EXPECT_TRUE(rejects("vadd2.u32.u32.u32 %r1, %r2, %r3;", Regs))
      << "three operands";
}

} // namespace
