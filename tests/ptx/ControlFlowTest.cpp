//===- ControlFlowTest.cpp - PTX kernels: loads, stores, branches, calls --===//

#include "PtxKernelTest.h"

using namespace cucpu::test;

namespace {

using PtxControlFlow = PtxKernelTest;

TEST_F(PtxControlFlow, GuardedStoreAndBranch) {
  // out[i] = i < n ? 2 * in[i] + 1 : -1, with a guard and a branch.
  std::string Ptx = ptxHeader() + R"(
.visible .entry k(.param .u64 out, .param .u64 in, .param .u32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [in];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %tid.x;
  mul.wide.u32 %rd3, %r2, 4;
  add.s64 %rd4, %rd1, %rd3;
  setp.ge.u32 %p1, %r2, %r1;
  @%p1 bra $L_skip;
  add.s64 %rd5, %rd2, %rd3;
  ld.global.u32 %r3, [%rd5];
  mad.lo.s32 %r4, %r3, 2, 1;
  st.global.u32 [%rd4], %r4;
  ret;
$L_skip:
  mov.u32 %r5, -1;
  st.global.u32 [%rd4], %r5;
  ret;
}
)";
  ASSERT_TRUE(loads(Ptx));
  std::vector<int> In(64);
  for (int I = 0; I < 64; ++I)
    In[I] = I * 3;
  CUdeviceptr Out = upload(std::vector<int>(64, 0)), InP = upload(In);
  unsigned N = 40;
  ASSERT_EQ(CUDA_SUCCESS, run("k", 1, 64, {&Out, &InP, &N}));
  auto Result = download<int>(Out, 64);
  for (int I = 0; I < 64; ++I)
    EXPECT_EQ(I < 40 ? 6 * I + 1 : -1, Result[I]) << "thread " << I;
}

TEST_F(PtxControlFlow, CallWithParamMemory) {
  // A .func taking and returning .param values, called with call.uni.
  std::string Ptx = ptxHeader() + R"(
.func (.param .b32 ret) twice_plus(.param .b32 a, .param .b32 b)
{
  .reg .b32 %r<4>;
  ld.param.b32 %r1, [a];
  ld.param.b32 %r2, [b];
  shl.b32 %r3, %r1, 1;
  add.s32 %r3, %r3, %r2;
  st.param.b32 [ret], %r3;
  ret;
}
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  {
    .param .b32 param0;
    st.param.b32 [param0], %r1;
    .param .b32 param1;
    st.param.b32 [param1], 7;
    .param .b32 retval0;
    call.uni (retval0), twice_plus, (param0, param1);
    ld.param.b32 %r2, [retval0];
  }
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r2;
  ret;
}
)";
  ASSERT_TRUE(loads(Ptx));
  CUdeviceptr Out = upload(std::vector<int>(32, 0));
  ASSERT_EQ(CUDA_SUCCESS, run("k", 1, 32, {&Out}));
  auto Result = download<int>(Out, 32);
  for (int I = 0; I < 32; ++I)
    EXPECT_EQ(2 * I + 7, Result[I]) << "thread " << I;
}

TEST_F(PtxControlFlow, MalformedPtxIsInvalidPtxWithTheLine) {
  std::string Log;
  EXPECT_EQ(CUDA_ERROR_INVALID_PTX,
            load(ptxHeader() + ".visible .entry k()\n{\n  frobnicate.u32 "
                               "%r1;\n}\n",
                 &Log))
      << "an unknown instruction is invalid PTX";
  EXPECT_NE(std::string::npos, Log.find("line 6"))
      << "the log names the line: " << Log;
}

} // namespace
