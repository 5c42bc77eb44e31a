//===- WarpTest.cpp - PTX kernels: shfl, vote, match, redux, activemask ---===//
//
// Warp-synchronous code: shuffles of every mode with segment widths and
// clamps, register and immediate operands and the d|p destination, checked
// against the PTX ISA's definition of the source lane; shuffles, ballots and
// reductions with partial masks in divergent code; the legacy forms without
// .sync; match and redux; the warp's special registers; and the forms this
// driver refuses.
//
//===----------------------------------------------------------------------===//

#include "PtxKernelTest.h"

#include <cstdint>
#include <utility>

using namespace cucpu::test;

namespace {

class PtxWarp : public PtxKernelTest {
protected:
  /// Runs \p Ptx's kernel k(out) on one warp; thread t's word of out must
  /// be \p Want(t).
  template <class WantFn>
  void expectPerLane(const std::string &Ptx, WantFn Want) {
    ASSERT_EQ(CUDA_SUCCESS, load(Ptx)) << LastError;
    CUdeviceptr Out = upload(std::vector<uint32_t>(32, 0));
    ASSERT_EQ(CUDA_SUCCESS, run("k", 1, 32, {&Out})) << LastError;
    auto R = download<uint32_t>(Out, 32);
    for (unsigned T = 0; T < 32; ++T)
      EXPECT_EQ(Want(T), R[T]) << "thread " << T;
  }
};

enum class Mode { Up, Down, Bfly, Idx };

/// PTX ISA, shfl.sync: the lane a lane reads and whether it is in range
/// (otherwise the lane reads its own value).
std::pair<unsigned, bool> shuffleSource(Mode M, unsigned Lane, unsigned B,
                                        unsigned C) {
  unsigned BVal = B & 31, Clamp = C & 31, SegMask = (C >> 8) & 31;
  unsigned MinLane = Lane & SegMask;
  unsigned MaxLane = MinLane | (Clamp & ~SegMask);
  int J = 0;
  bool P = false;
  switch (M) {
  case Mode::Up:
    J = int(Lane) - int(BVal);
    P = J >= int(MaxLane);
    break;
  case Mode::Down:
    J = int(Lane + BVal);
    P = J <= int(MaxLane);
    break;
  case Mode::Bfly:
    J = int(Lane ^ BVal);
    P = J <= int(MaxLane);
    break;
  case Mode::Idx:
    J = int(MinLane | (BVal & ~SegMask));
    P = J <= int(MaxLane);
    break;
  }
  return {P ? unsigned(J) : Lane, P};
}

TEST_F(PtxWarp, ShuffleModesWidthsAndClamps) {
  struct Case {
    Mode M;
    const char *Name;
    unsigned B, C;
    bool RegisterB, RegisterC;
  } Cases[] = {
      {Mode::Idx, "idx", 3, 0x1f, false, false},
      {Mode::Idx, "idx", 40, 0x1f, true, false},
      {Mode::Idx, "idx", 5, 0x101f, false, true},
      {Mode::Idx, "idx", 20, 0x0f, false, false},
      {Mode::Idx, "idx", 13, 0x181f, true, true},
      {Mode::Up, "up", 1, 0, false, false},
      {Mode::Up, "up", 3, 0x1800, true, false},
      {Mode::Up, "up", 2, 0x5, false, false},
      {Mode::Down, "down", 2, 0x1f, false, false},
      {Mode::Down, "down", 5, 0x101f, false, true},
      {Mode::Down, "down", 1, 0x1c1f, true, false},
      {Mode::Down, "down", 4, 0x17, false, false},
      {Mode::Bfly, "bfly", 4, 0x1f, false, false},
      {Mode::Bfly, "bfly", 16, 0x1f, true, true},
      {Mode::Bfly, "bfly", 1, 0x1c1f, false, false},
      {Mode::Bfly, "bfly", 9, 0x0b, false, false},
  };
  unsigned Count = sizeof Cases / sizeof Cases[0];
  std::string Body;
  for (unsigned K = 0; K < Count; ++K) {
    const Case &C = Cases[K];
    std::string B = C.RegisterB ? "%r10" : std::to_string(C.B);
    std::string Cv = C.RegisterC ? "%r11" : std::to_string(C.C);
    if (C.RegisterB)
      Body += "  mov.u32 %r10, " + std::to_string(C.B) + ";\n";
    if (C.RegisterC)
      Body += "  mov.u32 %r11, " + std::to_string(C.C) + ";\n";
    // Half the cases take the mask from a register, and the value from a
    // .f32 register (the bits move unchanged).
    std::string Mask = K % 2 ? "%r12" : "-1";
    std::string Src = K % 3 == 0 ? "%f1" : "%r2";
    std::string Dst = K % 3 == 0 ? "%f2" : "%r3";
    Body += std::string("  shfl.sync.") + C.Name + ".b32 " + Dst + "|%p1, " +
            Src + ", " + B + ", " + Cv + ", " + Mask + ";\n";
    if (K % 3 == 0)
      Body += "  mov.b32 %r3, %f2;\n";
    Body += "  selp.u32 %r4, 1, 0, %p1;\n"
            "  st.global.u32 [%rd3+" +
            std::to_string(8 * K) +
            "], %r3;\n"
            "  st.global.u32 [%rd3+" +
            std::to_string(8 * K + 4) + "], %r4;\n";
  }
  std::string Ptx = ptxHeader() + R"(
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<20>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mad.lo.s32 %r2, %r1, 3, 1;
  mov.b32 %f1, %r2;
  mov.u32 %r12, -1;
  mul.lo.s32 %r5, %r1, )" +
                    std::to_string(8 * Count) + R"(;
  cvt.u64.u32 %rd2, %r5;
  add.s64 %rd3, %rd1, %rd2;
)" + Body + R"(
  ret;
}
)";
  ASSERT_TRUE(loads(Ptx));
  const unsigned Threads = 64;
  CUdeviceptr Out = upload(std::vector<uint32_t>(Threads * Count * 2, 0));
  ASSERT_EQ(CUDA_SUCCESS, run("k", 2, Threads, {&Out})) << LastError;
  auto R = download<uint32_t>(Out, Threads * Count * 2);
  for (unsigned T = 0; T < Threads; ++T)
    for (unsigned K = 0; K < Count; ++K) {
      const Case &C = Cases[K];
      auto [Src, InRange] = shuffleSource(C.M, T % 32, C.B, C.C);
      unsigned SrcThread = (T & ~31u) | Src;
      EXPECT_EQ(SrcThread * 3 + 1, R[(T * Count + K) * 2])
          << "shfl." << C.Name << " b=" << C.B << " c=" << C.C << ", thread "
          << T;
      EXPECT_EQ(InRange ? 1u : 0u, R[(T * Count + K) * 2 + 1])
          << "the predicate of shfl." << C.Name << " b=" << C.B << " c=" << C.C
          << ", thread " << T;
    }
}

TEST_F(PtxWarp, DivergentPartialMasks) {
  // Lanes 0-15 shuffle among themselves (mask 0xffff) or, in the second
  // run, lanes 16-31 (0xffff0000) while the others wait; odd lanes ballot
  // and even lanes vote with their own masks; lanes below 10 read
  // activemask and reduce; the whole warp shuffles again. Block barriers
  // separate the steps: without them the engines mix the operations of
  // lanes that wait at different ones (see the disabled tests below).
  std::string Ptx = ptxHeader("7.8", "sm_80") + R"(
.visible .entry k(.param .u64 out, .param .u32 high)
{
  .reg .pred %p<12>;
  .reg .b32 %r<30>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 31;
  mul.lo.s32 %r3, %r1, 8;
  mul.wide.u32 %rd2, %r3, 4;
  add.s64 %rd3, %rd1, %rd2;
  mad.lo.s32 %r4, %r1, 5, 2;
  mov.u32 %r20, 0;
  mov.u32 %r21, 0;
  mov.u32 %r22, 0;
  mov.u32 %r23, 0;
  mov.u32 %r6, %r4;
  mov.u32 %r7, %r4;
  setp.ne.u32 %p2, %r4, %r4;
  ld.param.u32 %r26, [high];
  setp.ne.u32 %p11, %r26, 0;
  setp.lt.u32 %p1, %r2, 16;
  @%p11 bra $high;
  @!%p1 bra $joined;
  add.s32 %r5, %r2, 1;
  and.b32 %r5, %r5, 15;
  shfl.sync.idx.b32 %r6, %r4, %r5, 31, 0xffff;
  shfl.sync.down.b32 %r7|%p2, %r4, 1, 15, 0xffff;
  bra.uni $joined;
$high:
  @%p1 bra $joined;
  shfl.sync.bfly.b32 %r6, %r4, 1, 31, 0xffff0000;
  shfl.sync.up.b32 %r7|%p2, %r4, 1, 16, 0xffff0000;
$joined:
  bar.sync 0;
  selp.u32 %r8, 1, 0, %p2;
  and.b32 %r9, %r2, 1;
  setp.eq.u32 %p3, %r9, 1;
  @!%p3 bra $even;
  and.b32 %r10, %r2, 3;
  setp.eq.u32 %p4, %r10, 1;
  vote.sync.ballot.b32 %r20, %p4, 0xaaaaaaaa;
  vote.sync.ballot.b32 %r21, !%p4, 0xaaaaaaaa;
  bra.uni $voted;
$even:
  setp.eq.u32 %p5, %r2, 6;
  vote.sync.any.pred %p6, %p5, 0x55555555;
  setp.lt.u32 %p7, %r2, 8;
  vote.sync.uni.pred %p8, %p7, 0x55555555;
  vote.sync.all.pred %p9, !%p5, 0x55555555;
  selp.u32 %r20, 1, 0, %p6;
  selp.u32 %r21, 2, 0, %p8;
  selp.u32 %r22, 4, 0, %p9;
$voted:
  bar.sync 0;
  setp.lt.u32 %p10, %r2, 10;
  @!%p10 bra $tail;
  activemask.b32 %r23;
  redux.sync.add.u32 %r24, %r2, 0x3ff;
  add.s32 %r23, %r23, %r24;
$tail:
  bar.sync 0;
  shfl.sync.idx.b32 %r25, %r6, 0, 31, -1;
  st.global.u32 [%rd3], %r6;
  st.global.u32 [%rd3+4], %r7;
  st.global.u32 [%rd3+8], %r8;
  st.global.u32 [%rd3+12], %r20;
  st.global.u32 [%rd3+16], %r21;
  st.global.u32 [%rd3+20], %r22;
  st.global.u32 [%rd3+24], %r23;
  st.global.u32 [%rd3+28], %r25;
  ret;
}
)";
  ASSERT_TRUE(loads(Ptx));
  const unsigned Threads = 64;
  for (unsigned High : {0u, 1u}) {
    CUdeviceptr Out = upload(std::vector<uint32_t>(Threads * 8, 7));
    ASSERT_EQ(CUDA_SUCCESS, run("k", 1, Threads, {&Out, &High})) << LastError;
    auto R = download<uint32_t>(Out, Threads * 8);
    auto Value = [](unsigned Thread) { return Thread * 5 + 2; };
    for (unsigned T = 0; T < Threads; ++T) {
      unsigned Lane = T % 32, Warp = T & ~31u;
      const uint32_t *V = &R[T * 8];
      bool Shuffles = High ? Lane >= 16 : Lane < 16;
      unsigned Shfl = !Shuffles   ? Value(T)
                      : Lane < 16 ? Value(Warp | ((Lane + 1) & 15))
                                  : Value(T ^ 1);
      EXPECT_EQ(Shfl, V[0])
          << "shuffle within the half-warp, thread " << T << ", high " << High;
      bool InRange = Shuffles && (Lane < 16 ? Lane + 1 <= 15 : Lane >= 17);
      EXPECT_EQ(InRange ? Value(Lane < 16 ? T + 1 : T - 1) : Value(T), V[1])
          << "down/up with a clamp, thread " << T << ", high " << High;
      EXPECT_EQ(InRange ? 1u : 0u, V[2]) << "its predicate, thread " << T;
      if (Lane % 2) {
        EXPECT_EQ(0x22222222u, V[3]) << "ballot of the odd lanes, thread " << T;
        EXPECT_EQ(0x88888888u, V[4]) << "ballot of !p, thread " << T;
        EXPECT_EQ(0u, V[5]);
      } else {
        EXPECT_EQ(1u, V[3]) << "any: lane 6 holds it, thread " << T;
        EXPECT_EQ(0u, V[4]) << "uni: lanes 0-6 hold it, 8-30 do not";
        EXPECT_EQ(0u, V[5]) << "all of !p: lane 6 does not hold it";
      }
      EXPECT_EQ(Lane < 10 ? 0x3ffu + 45u : 0u, V[6])
          << "activemask + redux.add of lanes 0-9, thread " << T;
      EXPECT_EQ(High ? Value(Warp) : Value(Warp | 1), V[7])
          << "lane 0's result, read by the whole warp, thread " << T;
    }
  }
}

// Lanes that diverged to different warp operations must not mix their
// operands: the two halves shuffle on the two sides of a branch, then the
// whole warp votes (a lane released at the first operation its mask's
// lanes wait at gave 0xffffaaaa and 0xaaaa0000). Values from the H200.
TEST_F(PtxWarp, BothSidesOfABranchThenTheWholeWarp) {
  expectPerLane(ptxHeader() + R"(
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<10>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 31;
  setp.lt.u32 %p1, %r2, 16;
  @!%p1 bra $high;
  shfl.sync.idx.b32 %r3, %r1, 0, 31, 0xffff;
  bra.uni $joined;
$high:
  shfl.sync.idx.b32 %r3, %r1, 16, 31, 0xffff0000;
$joined:
  and.b32 %r4, %r2, 1;
  setp.ne.u32 %p2, %r4, 0;
  vote.sync.ballot.b32 %r5, %p2, -1;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r5;
  ret;
}
)",
                [](unsigned) { return 0xaaaaaaaau; });
}

// As above: odd lanes ballot twice, even lanes vote three times, then
// lanes 0-9 shuffle with mask 0x3ff, across both groups (mixing them read
// 0 10 1 30 0 50 1 70 0 90). Values from the H200.
TEST_F(PtxWarp, DivergentVotesThenAMaskAcrossBothGroups) {
  expectPerLane(ptxHeader() + R"(
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<8>;
  .reg .b32 %r<20>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 31;
  mov.u32 %r9, 0;
  and.b32 %r3, %r2, 1;
  setp.eq.u32 %p1, %r3, 1;
  setp.eq.u32 %p2, %r2, 6;
  @!%p1 bra $even;
  vote.sync.ballot.b32 %r4, %p2, 0xaaaaaaaa;
  vote.sync.ballot.b32 %r4, !%p2, 0xaaaaaaaa;
  bra.uni $voted;
$even:
  vote.sync.any.pred %p3, %p2, 0x55555555;
  vote.sync.uni.pred %p3, %p2, 0x55555555;
  vote.sync.all.pred %p3, %p2, 0x55555555;
$voted:
  bar.warp.sync -1;
  setp.lt.u32 %p4, %r2, 10;
  @!%p4 bra $done;
  mul.lo.s32 %r5, %r2, 10;
  add.s32 %r6, %r2, 1;
  rem.u32 %r7, %r6, 10;
  shfl.sync.idx.b32 %r9, %r5, %r7, 31, 0x3ff;
$done:
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r9;
  ret;
}
)",
                [](unsigned T) { return T < 10 ? (T + 1) % 10 * 10 : 0; });
}

TEST_F(PtxWarp, LegacyFormsWithoutSync) {
  std::string Ptx = ptxHeader("6.0", "sm_60") + R"(
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<8>;
  .reg .b32 %r<20>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 31;
  mul.lo.s32 %r3, %r1, 6;
  mul.wide.u32 %rd2, %r3, 4;
  add.s64 %rd3, %rd1, %rd2;
  setp.lt.u32 %p1, %r2, 4;
  vote.ballot.b32 %r4, %p1;
  vote.any.pred %p2, %p1;
  vote.all.pred %p3, %p1;
  vote.uni.pred %p4, !%p1;
  selp.u32 %r5, 1, 0, %p2;
  selp.u32 %r6, 2, 0, %p3;
  selp.u32 %r7, 4, 0, %p4;
  or.b32 %r5, %r5, %r6;
  or.b32 %r5, %r5, %r7;
  shfl.idx.b32 %r8, %r1, 7, 31;
  shfl.up.b32 %r9|%p5, %r1, 2, 0;
  shfl.down.b32 %r10, %r1, 30, 31;
  shfl.bfly.b32 %r11, %r1, 31, 31;
  selp.u32 %r12, 1, 0, %p5;
  add.s32 %r9, %r9, %r12;
  st.global.u32 [%rd3], %r4;
  st.global.u32 [%rd3+4], %r5;
  st.global.u32 [%rd3+8], %r8;
  st.global.u32 [%rd3+12], %r9;
  st.global.u32 [%rd3+16], %r10;
  st.global.u32 [%rd3+20], %r11;
  ret;
}
)";
  ASSERT_TRUE(loads(Ptx));
  const unsigned Threads = 64;
  CUdeviceptr Out = upload(std::vector<uint32_t>(Threads * 6, 0));
  ASSERT_EQ(CUDA_SUCCESS, run("k", 1, Threads, {&Out})) << LastError;
  auto R = download<uint32_t>(Out, Threads * 6);
  for (unsigned T = 0; T < Threads; ++T) {
    unsigned Lane = T % 32, Warp = T & ~31u;
    const uint32_t *V = &R[T * 6];
    EXPECT_EQ(0xfu, V[0]) << "vote.ballot, thread " << T;
    EXPECT_EQ(1u, V[1]) << "any, not all, not uniform, thread " << T;
    EXPECT_EQ(Warp | 7, V[2]) << "shfl.idx, thread " << T;
    EXPECT_EQ(Lane >= 2 ? T - 2 + 1 : T, V[3]) << "shfl.up|p, thread " << T;
    EXPECT_EQ(Lane + 30 <= 31 ? T + 30 : T, V[4]) << "shfl.down, thread " << T;
    EXPECT_EQ(Warp | (Lane ^ 31), V[5]) << "shfl.bfly, thread " << T;
  }
}

TEST_F(PtxWarp, MatchAndRedux) {
  std::string Ptx = ptxHeader("7.8", "sm_80") + R"(
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<40>;
  .reg .b64 %rd<12>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 31;
  mul.lo.s32 %r3, %r1, 15;
  mul.wide.u32 %rd2, %r3, 4;
  add.s64 %rd3, %rd1, %rd2;
  mov.u32 %r30, -1;
  shr.u32 %r4, %r2, 2;
  match.any.sync.b32 %r5, %r4, -1;
  and.b32 %r6, %r2, 1;
  cvt.u64.u32 %rd4, %r6;
  shl.b64 %rd5, %rd4, 40;
  match.any.sync.b64 %r7, %rd5, %r30;
  match.all.sync.b32 %r8|%p1, 7, -1;
  selp.u32 %r9, 1, 0, %p1;
  match.all.sync.b32 %r10|%p2, %r2, -1;
  selp.u32 %r11, 1, 0, %p2;
  mov.u64 %rd6, 81985529216486895;
  match.all.sync.b64 %r12, %rd6, -1;
  redux.sync.add.u32 %r13, %r2, -1;
  add.s32 %r14, %r2, -10;
  redux.sync.min.s32 %r15, %r14, -1;
  redux.sync.max.s32 %r16, %r14, %r30;
  add.s32 %r17, %r2, 5;
  redux.sync.min.u32 %r18, %r17, -1;
  redux.sync.max.u32 %r19, %r17, -1;
  or.b32 %r20, %r2, 256;
  redux.sync.and.b32 %r21, %r20, -1;
  mov.u32 %r22, 1;
  shl.b32 %r23, %r22, %r2;
  redux.sync.or.b32 %r24, %r23, -1;
  mul.lo.s32 %r25, %r2, %r2;
  redux.sync.xor.b32 %r26, %r25, -1;
  st.global.u32 [%rd3], %r5;
  st.global.u32 [%rd3+4], %r7;
  st.global.u32 [%rd3+8], %r8;
  st.global.u32 [%rd3+12], %r9;
  st.global.u32 [%rd3+16], %r10;
  st.global.u32 [%rd3+20], %r11;
  st.global.u32 [%rd3+24], %r12;
  st.global.u32 [%rd3+28], %r13;
  st.global.u32 [%rd3+32], %r15;
  st.global.u32 [%rd3+36], %r16;
  st.global.u32 [%rd3+40], %r18;
  st.global.u32 [%rd3+44], %r19;
  st.global.u32 [%rd3+48], %r21;
  st.global.u32 [%rd3+52], %r24;
  st.global.u32 [%rd3+56], %r26;
  ret;
}
)";
  ASSERT_TRUE(loads(Ptx));
  const unsigned Threads = 64;
  CUdeviceptr Out = upload(std::vector<uint32_t>(Threads * 15, 0));
  ASSERT_EQ(CUDA_SUCCESS, run("k", 1, Threads, {&Out})) << LastError;
  auto R = download<uint32_t>(Out, Threads * 15);
  uint32_t Xor = 0;
  for (uint32_t L = 0; L < 32; ++L)
    Xor ^= L * L;
  for (unsigned T = 0; T < Threads; ++T) {
    unsigned Lane = T % 32;
    const uint32_t *V = &R[T * 15];
    EXPECT_EQ(0xfu << (Lane & ~3u), V[0]) << "match.any.b32, thread " << T;
    EXPECT_EQ(Lane % 2 ? 0xaaaaaaaau : 0x55555555u, V[1])
        << "match.any.b64, thread " << T;
    EXPECT_EQ(0xffffffffu, V[2]) << "match.all of a uniform value";
    EXPECT_EQ(1u, V[3]) << "its predicate";
    EXPECT_EQ(0u, V[4]) << "match.all of the lane id";
    EXPECT_EQ(0u, V[5]) << "its predicate";
    EXPECT_EQ(0xffffffffu, V[6]) << "match.all.b64 without a predicate";
    EXPECT_EQ(496u, V[7]) << "redux.add";
    EXPECT_EQ(uint32_t(-10), V[8]) << "redux.min.s32";
    EXPECT_EQ(21u, V[9]) << "redux.max.s32";
    EXPECT_EQ(5u, V[10]) << "redux.min.u32";
    EXPECT_EQ(36u, V[11]) << "redux.max.u32";
    EXPECT_EQ(256u, V[12]) << "redux.and";
    EXPECT_EQ(0xffffffffu, V[13]) << "redux.or";
    EXPECT_EQ(Xor, V[14]) << "redux.xor";
  }
}

TEST_F(PtxWarp, SpecialRegisters) {
  std::string Ptx = ptxHeader() + R"(
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<20>;
  .reg .b64 %rd<12>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mul.lo.s32 %r2, %r1, 9;
  mul.wide.u32 %rd2, %r2, 4;
  add.s64 %rd3, %rd1, %rd2;
  mov.u32 %r3, %laneid;
  mov.u32 %r4, %lanemask_eq;
  mov.u32 %r5, %lanemask_lt;
  mov.u32 %r6, %lanemask_le;
  mov.u32 %r7, %lanemask_gt;
  mov.u32 %r8, %lanemask_ge;
  mov.u32 %r9, %warpid;
  mov.u32 %r10, %nwarpid;
  setp.lt.u32 %p1, %r9, %r10;
  selp.u32 %r11, 1, 0, %p1;
  mov.u64 %rd4, %clock64;
  mov.u32 %r12, %clock;
  mov.u64 %rd5, %clock64;
  setp.ge.u64 %p2, %rd5, %rd4;
  selp.u32 %r13, 1, 0, %p2;
  mov.u64 %rd6, %globaltimer;
  setp.ne.u64 %p3, %rd6, 0;
  selp.u32 %r14, 1, 0, %p3;
  st.global.u32 [%rd3], %r3;
  st.global.u32 [%rd3+4], %r4;
  st.global.u32 [%rd3+8], %r5;
  st.global.u32 [%rd3+12], %r6;
  st.global.u32 [%rd3+16], %r7;
  st.global.u32 [%rd3+20], %r8;
  st.global.u32 [%rd3+24], %r11;
  st.global.u32 [%rd3+28], %r13;
  st.global.u32 [%rd3+32], %r14;
  ret;
}
)";
  ASSERT_TRUE(loads(Ptx));
  const unsigned Threads = 96;
  CUdeviceptr Out = upload(std::vector<uint32_t>(Threads * 9, 7));
  ASSERT_EQ(CUDA_SUCCESS, run("k", 1, Threads, {&Out})) << LastError;
  auto R = download<uint32_t>(Out, Threads * 9);
  for (unsigned T = 0; T < Threads; ++T) {
    unsigned Lane = T % 32;
    const uint32_t *V = &R[T * 9];
    uint64_t Eq = uint64_t(1) << Lane;
    EXPECT_EQ(Lane, V[0]) << "%laneid, thread " << T;
    EXPECT_EQ(uint32_t(Eq), V[1]) << "%lanemask_eq";
    EXPECT_EQ(uint32_t(Eq - 1), V[2]) << "%lanemask_lt";
    EXPECT_EQ(uint32_t(2 * Eq - 1), V[3]) << "%lanemask_le";
    EXPECT_EQ(uint32_t(~(2 * Eq - 1)), V[4]) << "%lanemask_gt";
    EXPECT_EQ(uint32_t(~(Eq - 1)), V[5]) << "%lanemask_ge";
    EXPECT_EQ(1u, V[6]) << "%warpid < %nwarpid";
    EXPECT_EQ(1u, V[7]) << "%clock64 does not go back";
    EXPECT_EQ(1u, V[8]) << "%globaltimer is running";
  }
}

TEST_F(PtxWarp, UnsupportedFormsAreErrors) {
  struct Case {
    const char *Instr, *Expect;
  } Cases[] = {
      {"shfl.sync.rot.b32 %r1, %r1, 1, 31, -1;", ".rot"},
      {"shfl.sync.up.b64 %r1, %r1, 1, 0, -1;", ".b64"},
      {"shfl.sync.up.b32 %r1, %r1, 1, 0;", "operands"},
      {"vote.sync.ballot.pred %p1, %p1, -1;", ".b32"},
      {"vote.sync.all.b32 %r1, %p1, -1;", ".pred"},
      {"vote.sync.pred %p1, %p1, -1;", "needs .all"},
      {"match.any.sync.b32 %r1|%p1, %r1, -1;", "no predicate"},
      {"match.all.b32 %r1, %r1;", ".sync"},
      {"redux.sync.add.b32 %r1, %r1, -1;", ".u32 or .s32"},
      {"redux.sync.and.u32 %r1, %r1, -1;", ".b32"},
      {"redux.sync.min.f32 %r1, %r1, -1;", ".f32"},
      {"activemask.b64 %r1;", ".b64"},
  };
  for (const Case &C : Cases) {
    std::string Ptx = ptxHeader("7.8", "sm_80") +
                      ".visible .entry k()\n{\n"
                      "  .reg .b32 %r<4>;\n  .reg .pred %p<4>;\n  " +
                      C.Instr + "\n  ret;\n}\n";
    std::string Log;
    EXPECT_EQ(CUDA_ERROR_INVALID_PTX, load(Ptx, &Log)) << C.Instr;
    EXPECT_NE(std::string::npos, Log.find(C.Expect))
        << C.Instr << ": the log says why: " << Log;
  }
}

} // namespace
