//===- AsyncCopyTest.cpp - PTX kernels: cp.async -------------------------===//
//
// cp.async from global to shared memory in every size, with zero fill by an
// immediate or register src-size and by the ignore-src predicate, under
// commit_group, wait_group and wait_all (nvcc's code for sm_80 and newer:
// the pipeline primitives, memcpy_async); the forms this driver refuses.
//
//===----------------------------------------------------------------------===//

#include "PtxKernelTest.h"

#include <cstdint>

using namespace cucpu::test;

namespace {

using PtxAsyncCopy = PtxKernelTest;

TEST_F(PtxAsyncCopy, CopiesAndZeroFillsThenWaits) {
  // 64 threads, each owning 16 bytes of shared memory at 16 t. Thread t
  // copies its 16 input bytes in pieces: bytes 0-3 with a 4-byte copy
  // whose src-size register is t % 5 (so t % 5 bytes, then zeros), bytes
  // 4-11 with an 8-byte .ca copy whose src-size is 8 or 3, bytes 12-15 with
  // a 4-byte .cg-less .ca copy that ignore-src zeroes for odd t. The block
  // then writes its neighbour's 16 bytes out.
  std::string Ptx = ptxHeader("8.0", "sm_80") + R"(
.visible .entry k(.param .u64 in, .param .u64 out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<20>;
  .reg .b64 %rd<12>;
  .shared .align 16 .b8 s[1024];
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd2, %rd2;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, s;
  shl.b32 %r3, %r1, 4;
  add.s32 %r4, %r2, %r3;
  cvt.u64.u32 %rd3, %r3;
  add.s64 %rd4, %rd1, %rd3;
  rem.u32 %r5, %r1, 5;
  cp.async.ca.shared.global [%r4], [%rd4], 4, %r5;
  and.b32 %r6, %r1, 1;
  setp.eq.u32 %p1, %r6, 1;
  selp.u32 %r7, 3, 8, %p1;
  cp.async.ca.shared::cta.global [%r4+4], [%rd4+4], 8, %r7;
  cp.async.commit_group;
  cp.async.ca.shared.global [%r4+12], [%rd4+12], 4, %p1;
  cp.async.commit_group;
  cp.async.wait_group 1;
  cp.async.wait_all;
  bar.sync 0;
  add.s32 %r8, %r1, 1;
  and.b32 %r8, %r8, 63;
  shl.b32 %r9, %r8, 4;
  add.s32 %r10, %r2, %r9;
  ld.shared.v4.u32 {%r11, %r12, %r13, %r14}, [%r10];
  add.s64 %rd5, %rd2, %rd3;
  st.global.v4.u32 [%rd5], {%r11, %r12, %r13, %r14};
  ret;
}
)";
  ASSERT_TRUE(loads(Ptx)) << LastError;
  std::vector<uint8_t> In(1024);
  for (size_t I = 0; I < In.size(); ++I)
    In[I] = static_cast<uint8_t>(I * 37 % 251 + 1);
  CUdeviceptr DIn = upload(In);
  CUdeviceptr DOut = upload(std::vector<uint8_t>(1024, 0xAA));
  ASSERT_EQ(CUDA_SUCCESS, run("k", 1, 64, {&DIn, &DOut})) << LastError;
  auto Out = download<uint8_t>(DOut, 1024);
  for (unsigned T = 0; T < 64; ++T) {
    unsigned Src = (T + 1) % 64; // The thread whose bytes T wrote out.
    for (unsigned B = 0; B < 16; ++B) {
      uint8_t Byte = In[16 * Src + B];
      bool Copied = B < 4    ? B < Src % 5
                    : B < 12 ? B - 4 < (Src % 2 ? 3u : 8u)
                             : Src % 2 == 0;
      EXPECT_EQ(Copied ? Byte : 0, Out[16 * T + B])
          << "thread " << Src << ", byte " << B;
    }
  }
}

TEST_F(PtxAsyncCopy, SixteenByteCopiesWithACachePolicy) {
  // cp.async.cg of 16 bytes with an immediate src-size and an L2 cache
  // policy from createpolicy, as nvcc writes __pipeline_memcpy_async(dst,
  // src, 16, 8) under an access-property hint.
  std::string Ptx = ptxHeader("8.0", "sm_80") + R"(
.visible .entry k(.param .u64 in, .param .u64 out)
{
  .reg .b32 %r<12>;
  .reg .b64 %rd<8>;
  .shared .align 16 .b8 s[512];
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, s;
  shl.b32 %r3, %r1, 4;
  add.s32 %r4, %r2, %r3;
  cvt.u64.u32 %rd3, %r3;
  add.s64 %rd4, %rd1, %rd3;
  createpolicy.fractional.L2::evict_last.b64 %rd6, 1.0;
  cp.async.cg.shared.global.L2::cache_hint [%r4], [%rd4], 16, 8, %rd6;
  cp.async.commit_group;
  cp.async.wait_group 0;
  ld.shared.v4.u32 {%r5, %r6, %r7, %r8}, [%r4];
  add.s64 %rd5, %rd2, %rd3;
  st.global.v4.u32 [%rd5], {%r5, %r6, %r7, %r8};
  ret;
}
)";
  ASSERT_TRUE(loads(Ptx)) << LastError;
  std::vector<uint32_t> In(128);
  for (size_t I = 0; I < In.size(); ++I)
    In[I] = static_cast<uint32_t>(I * 2654435761u);
  CUdeviceptr DIn = upload(In);
  CUdeviceptr DOut = upload(std::vector<uint32_t>(128, 7));
  ASSERT_EQ(CUDA_SUCCESS, run("k", 1, 32, {&DIn, &DOut})) << LastError;
  auto Out = download<uint32_t>(DOut, 128);
  for (unsigned I = 0; I < 128; ++I)
    EXPECT_EQ(I % 4 < 2 ? In[I] : 0u, Out[I]) << "word " << I;
}

TEST_F(PtxAsyncCopy, UnsupportedFormsAreErrors) {
  struct Case {
    const char *Instr, *Expect;
  } Cases[] = {
      {"cp.async.ca.shared.global [%r1], [%rd1], 12;", "4, 8 or 16"},
      {"cp.async.ca.shared.global [%r1], [%rd1];", "cp-size"},
      {"cp.async.mbarrier.arrive.b64 [%rd1];", "mbarrier"},
      {"cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes "
       "[%r1], [%rd1], 16, [%rd2];",
       "bulk"},
  };
  for (const Case &C : Cases) {
    std::string Ptx = ptxHeader("8.0", "sm_90") +
                      ".visible .entry k()\n{\n"
                      "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
                      "  " +
                      C.Instr + "\n  ret;\n}\n";
    std::string Log;
    EXPECT_EQ(CUDA_ERROR_INVALID_PTX, load(Ptx, &Log)) << C.Instr;
    EXPECT_NE(std::string::npos, Log.find(C.Expect))
        << C.Instr << ": the log says why: " << Log;
  }
}

} // namespace
