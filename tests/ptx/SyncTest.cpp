//===- SyncTest.cpp - PTX kernels: barriers, fences, nanosleep ------------===//
//
// Shared memory ordered by every form of bar/barrier, the barrier
// reductions (__syncthreads_count/_and/_or), a last-block reduction ordered
// by membar/fence and an atomic counter, bar.warp.sync and nanosleep; the
// forms this driver refuses.
//
//===----------------------------------------------------------------------===//

#include "PtxKernelTest.h"

#include <cstdint>

using namespace cucpu::test;

namespace {

using PtxSync = PtxKernelTest;

TEST_F(PtxSync, BarriersOrderSharedMemory) {
  // Five rounds, each separated by a different barrier form: every thread
  // writes its slot, waits, and reads its neighbour's, which it adds to its
  // own value for the next round. In the fourth, the first warp only
  // produces: it writes and arrives (bar.arrive) while the others wait
  // (bar.sync) and read.
  std::string Ptx = ptxHeader() + R"(
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<30>;
  .reg .b64 %rd<8>;
  .shared .align 4 .b32 s[256];
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, s;
  shl.b32 %r4, %r1, 2;
  add.s32 %r5, %r3, %r4;
  add.s32 %r6, %r1, 1;
  rem.u32 %r7, %r6, %r2;
  shl.b32 %r8, %r7, 2;
  add.s32 %r9, %r3, %r8;
  mov.u32 %r10, %r1;
  mov.u32 %r11, 1;

  st.shared.u32 [%r5], %r10;
  bar.sync 0;
  ld.shared.u32 %r12, [%r9];
  add.s32 %r10, %r10, %r12;
  bar.sync 0, %r2;

  st.shared.u32 [%r5], %r10;
  barrier.sync.aligned 0;
  ld.shared.u32 %r12, [%r9];
  add.s32 %r10, %r10, %r12;
  barrier.sync %r11;

  st.shared.u32 [%r5], %r10;
  bar.cta.sync 1, %r2;
  ld.shared.u32 %r12, [%r9];
  add.s32 %r10, %r10, %r12;
  barrier.cta.sync.aligned 2;

  st.shared.u32 [%r5], %r10;
  setp.lt.u32 %p1, %r1, 32;
  @%p1 bra $producer;
  bar.sync 3, %r2;
  ld.shared.u32 %r12, [%r9];
  add.s32 %r10, %r10, %r12;
  bra.uni $joined;
$producer:
  barrier.arrive.aligned 3, %r2;
$joined:
  barrier.sync 4, %r2;

  st.shared.u32 [%r5], %r10;
  barrier.sync.aligned 15, %r2;
  ld.shared.u32 %r12, [%r9];
  add.s32 %r10, %r10, %r12;

  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r10;
  ret;
}
)";
  ASSERT_TRUE(loads(Ptx));
  for (unsigned Threads : {32u, 96u, 256u}) {
    CUdeviceptr Out = upload(std::vector<uint32_t>(Threads, 0));
    ASSERT_EQ(CUDA_SUCCESS, run("k", 3, Threads, {&Out})) << LastError;
    auto R = download<uint32_t>(Out, Threads);
    // The model: v[t] += v[(t + 1) % n], five times, all reads after all
    // writes of a round (but the first warp's in the fourth).
    std::vector<uint32_t> V(Threads);
    for (unsigned T = 0; T < Threads; ++T)
      V[T] = T;
    for (int Round = 0; Round < 5; ++Round) {
      std::vector<uint32_t> Next(Threads);
      for (unsigned T = 0; T < Threads; ++T)
        Next[T] = V[T] + (Round == 3 && T < 32 ? 0 : V[(T + 1) % Threads]);
      V = Next;
    }
    for (unsigned T = 0; T < Threads; ++T)
      EXPECT_EQ(V[T], R[T]) << "thread " << T << " of " << Threads;
  }
}

TEST_F(PtxSync, BarrierReductions) {
  // bar.red.popc (__syncthreads_count), .and and .or, with plain and
  // negated predicates, in several blocks.
  std::string Ptx = ptxHeader() + R"(
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<10>;
  .reg .b32 %r<20>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  rem.u32 %r3, %r1, 3;
  setp.eq.u32 %p1, %r3, 0;
  bar.red.popc.u32 %r4, 0, %p1;
  barrier.red.popc.u32 %r5, 0, !%p1;
  setp.lt.u32 %p2, %r1, 1000;
  bar.red.and.pred %p3, 0, %p2;
  setp.ne.u32 %p4, %r1, 5;
  bar.red.and.pred %p5, 0, %p4;
  bar.red.or.pred %p6, 0, !%p4;
  setp.gt.u32 %p7, %r1, 1000;
  bar.cta.red.or.pred %p8, 0, %p7;
  setp.eq.u32 %p9, %r1, %r2;
  bar.red.popc.u32 %r6, 0, %ntid.x, %p9;
  selp.u32 %r7, 1, 0, %p3;
  selp.u32 %r8, 1, 0, %p5;
  selp.u32 %r9, 1, 0, %p6;
  selp.u32 %r10, 1, 0, %p8;
  mov.u32 %r11, %ntid.x;
  mad.lo.s32 %r12, %r2, %r11, %r1;
  mul.lo.s32 %r12, %r12, 7;
  mul.wide.u32 %rd2, %r12, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r4;
  st.global.u32 [%rd3+4], %r5;
  st.global.u32 [%rd3+8], %r7;
  st.global.u32 [%rd3+12], %r8;
  st.global.u32 [%rd3+16], %r9;
  st.global.u32 [%rd3+20], %r10;
  st.global.u32 [%rd3+24], %r6;
  ret;
}
)";
  ASSERT_TRUE(loads(Ptx));
  const unsigned Blocks = 3, Threads = 96;
  CUdeviceptr Out = upload(std::vector<uint32_t>(Blocks * Threads * 7, 9));
  ASSERT_EQ(CUDA_SUCCESS, run("k", Blocks, Threads, {&Out})) << LastError;
  auto R = download<uint32_t>(Out, Blocks * Threads * 7);
  for (unsigned B = 0; B < Blocks; ++B)
    for (unsigned T = 0; T < Threads; ++T) {
      const uint32_t *V = &R[(B * Threads + T) * 7];
      EXPECT_EQ(32u, V[0]) << "popc of tid % 3 == 0, thread " << T;
      EXPECT_EQ(64u, V[1]) << "popc of the negated predicate";
      EXPECT_EQ(1u, V[2]) << "and of a predicate every thread holds";
      EXPECT_EQ(0u, V[3]) << "and with thread 5 false";
      EXPECT_EQ(1u, V[4]) << "or with thread 5 true";
      EXPECT_EQ(0u, V[5]) << "or of a predicate no thread holds";
      EXPECT_EQ(1u, V[6]) << "popc with a thread count, block " << B;
    }
}

TEST_F(PtxSync, FencedLastBlockReduction) {
  // threadFenceReduction's shape: each block's thread 0 writes the block's
  // sum, fences, and counts itself in; the block that counts last adds all
  // the sums. Each fence form orders one of the steps.
  std::string Ptx = ptxHeader("7.8", "sm_75") + R"(
.visible .entry k(.param .u64 partial, .param .u64 count, .param .u64 out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<20>;
  .reg .b64 %rd<12>;
  .shared .align 4 .b32 last;
  ld.param.u64 %rd1, [partial];
  ld.param.u64 %rd2, [count];
  ld.param.u64 %rd3, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %nctaid.x;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra $wait;
  add.s32 %r4, %r2, 1;
  mul.lo.s32 %r4, %r4, 10;
  mul.wide.u32 %rd4, %r2, 4;
  add.s64 %rd5, %rd1, %rd4;
  st.volatile.global.u32 [%rd5], %r4;
  membar.gl;
  fence.sc.gpu;
  fence.acq_rel.sys;
  membar.sys;
  add.s32 %r5, %r3, -1;
  atom.global.inc.u32 %r6, [%rd2], %r5;
  setp.eq.u32 %p2, %r6, %r5;
  selp.u32 %r7, 1, 0, %p2;
  st.shared.u32 [last], %r7;
$wait:
  bar.sync 0;
  membar.cta;
  fence.proxy.alias;
  fence.acq_rel.cta;
  @%p1 bra $done;
  ld.shared.u32 %r8, [last];
  setp.eq.u32 %p3, %r8, 0;
  @%p3 bra $done;
  mov.u32 %r9, 0;
  mov.u32 %r10, 0;
$sum:
  mul.wide.u32 %rd6, %r10, 4;
  add.s64 %rd7, %rd1, %rd6;
  ld.volatile.global.u32 %r11, [%rd7];
  add.s32 %r9, %r9, %r11;
  add.s32 %r10, %r10, 1;
  setp.lt.u32 %p2, %r10, %r3;
  @%p2 bra $sum;
  st.global.u32 [%rd3], %r9;
$done:
  ret;
}
)";
  ASSERT_TRUE(loads(Ptx));
  const unsigned Blocks = 20;
  CUdeviceptr Partial = upload(std::vector<uint32_t>(Blocks, 0)),
              Count = upload(std::vector<uint32_t>(1, 0)),
              Out = upload(std::vector<uint32_t>(1, 0));
  ASSERT_EQ(CUDA_SUCCESS, run("k", Blocks, 64, {&Partial, &Count, &Out}))
      << LastError;
  EXPECT_EQ(10u * Blocks * (Blocks + 1) / 2, download<uint32_t>(Out, 1)[0])
      << "the last block saw every block's sum";
  EXPECT_EQ(0u, download<uint32_t>(Count, 1)[0])
      << "atom.inc wrapped back to 0 after the last block";
}

TEST_F(PtxSync, WarpBarrierAndNanosleep) {
  // Lanes write their slot, meet at bar.warp.sync, read their neighbour's
  // in the warp; nanosleep in between.
  std::string Ptx = ptxHeader("7.8", "sm_75") + R"(
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<20>;
  .reg .b64 %rd<8>;
  .shared .align 4 .b32 s[128];
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, s;
  shl.b32 %r3, %r1, 2;
  add.s32 %r4, %r2, %r3;
  mul.lo.s32 %r5, %r1, 3;
  st.shared.u32 [%r4], %r5;
  nanosleep.u32 100;
  bar.warp.sync -1;
  and.b32 %r6, %r1, -32;
  add.s32 %r7, %r1, 1;
  and.b32 %r7, %r7, 31;
  or.b32 %r8, %r6, %r7;
  shl.b32 %r9, %r8, 2;
  add.s32 %r10, %r2, %r9;
  ld.shared.u32 %r11, [%r10];
  mov.u32 %r12, -1;
  bar.warp.sync %r12;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r11;
  nanosleep.u32 %r1;
  ret;
}
)";
  ASSERT_TRUE(loads(Ptx));
  CUdeviceptr Out = upload(std::vector<uint32_t>(128, 0));
  ASSERT_EQ(CUDA_SUCCESS, run("k", 2, 128, {&Out})) << LastError;
  auto R = download<uint32_t>(Out, 128);
  for (unsigned T = 0; T < 128; ++T)
    EXPECT_EQ(3 * ((T & ~31u) | ((T + 1) & 31)), R[T]) << "thread " << T;
}

TEST_F(PtxSync, UnsupportedFormsAreErrors) {
  struct Case {
    const char *Instr, *Expect;
  } Cases[] = {
      {"bar.sync 16;", "not in 0-15"},
      {"bar.arrive 1;", "thread count"},
      {"bar.red.popc.u32 %r1, 0;", "predicate"},
      {"bar.red.popc.pred %p1, 0, %p1;", ".u32"},
      {"bar.red.xor.pred %p1, 0, %p1;", ".xor"},
      {"bar.red.and.u32 %r1, 0, %p1;", ".pred"},
      {"bar 0;", "needs .sync"},
      {"barrier.sync.frob 0;", ".frob"},
      {"membar;", "scope"},
      {"membar.gl %r1;", "no operands"},
      {"fence.sc.frob;", ".frob"},
  };
  for (const Case &C : Cases) {
    std::string Ptx = ptxHeader() +
                      ".visible .entry k()\n{\n"
                      "  .reg .b32 %r<4>;\n  .reg .pred %p<4>;\n"
                      "  " +
                      C.Instr + "\n  ret;\n}\n";
    std::string Log;
    EXPECT_EQ(CUDA_ERROR_INVALID_PTX, load(Ptx, &Log)) << C.Instr;
    EXPECT_NE(std::string::npos, Log.find(C.Expect))
        << C.Instr << ": the log says why: " << Log;
  }
}

} // namespace
