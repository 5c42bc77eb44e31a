//===- BlockFunctionTest.cpp - Kernels compiled into block functions ------===//
//
// NVVM IR kernels with barriers and warp operations, compiled by JitModule
// and run through their block function (JitAbi.h, CucpuBlockEntry) with the
// engine's real services.
//
//===----------------------------------------------------------------------===//
#include "IrBitcode.h"
#include "core/ExecutionEngine.h"
#include "cucpu/modules/JitModule.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <numeric>
#include <vector>

using namespace cucpu;
using namespace cucpu::modules;

namespace {

const char *Header = R"(
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()
declare i32 @llvm.nvvm.barrier0.popc(i32)
declare i32 @llvm.nvvm.shfl.sync.down.i32(i32, i32, i32, i32)
declare i32 @llvm.nvvm.activemask()
)";

/// Tree reduction of 64 ints in shared memory: a barrier inside a loop,
/// then thread 0 writes the sum and __syncthreads_count of odd values.
const char *Reduce = R"(
@buf = internal addrspace(3) global [64 x i32] undef, align 4
define void @reduce(ptr %in, ptr %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %idx = zext i32 %tid to i64
  %pin = getelementptr i32, ptr %in, i64 %idx
  %v = load i32, ptr %pin
  %ps = getelementptr [64 x i32], ptr addrspace(3) @buf, i64 0, i64 %idx
  store i32 %v, ptr addrspace(3) %ps
  %odd = and i32 %v, 1
  %count = call i32 @llvm.nvvm.barrier0.popc(i32 %odd)
  br label %loop
loop:
  %s = phi i32 [ 32, %entry ], [ %s2, %next ]
  %lt = icmp ult i32 %tid, %s
  br i1 %lt, label %add, label %next
add:
  %j = add i32 %tid, %s
  %jx = zext i32 %j to i64
  %pj = getelementptr [64 x i32], ptr addrspace(3) @buf, i64 0, i64 %jx
  %a = load i32, ptr addrspace(3) %pj
  %b = load i32, ptr addrspace(3) %ps
  %c = add i32 %a, %b
  store i32 %c, ptr addrspace(3) %ps
  br label %next
next:
  call void @llvm.nvvm.barrier0()
  %s2 = lshr i32 %s, 1
  %more = icmp ne i32 %s2, 0
  br i1 %more, label %loop, label %done
done:
  %is0 = icmp eq i32 %tid, 0
  br i1 %is0, label %write, label %exit
write:
  %r0 = load i32, ptr addrspace(3) @buf
  store i32 %r0, ptr %out
  %pc = getelementptr i32, ptr %out, i64 1
  store i32 %count, ptr %pc
  br label %exit
exit:
  ret void
}

; Threads 32.. exit at once; warp 0 sums its lanes with shuffles.
define void @warpsum(ptr %in, ptr %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %first = icmp ult i32 %tid, 32
  br i1 %first, label %warp, label %exit
warp:
  %idx = zext i32 %tid to i64
  %pin = getelementptr i32, ptr %in, i64 %idx
  %v0 = load i32, ptr %pin
  %d16 = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %v0, i32 16, i32 31)
  %v1 = add i32 %v0, %d16
  %d8 = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %v1, i32 8, i32 31)
  %v2 = add i32 %v1, %d8
  %d4 = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %v2, i32 4, i32 31)
  %v3 = add i32 %v2, %d4
  %d2 = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %v3, i32 2, i32 31)
  %v4 = add i32 %v3, %d2
  %d1 = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %v4, i32 1, i32 31)
  %v5 = add i32 %v4, %d1
  %pout = getelementptr i32, ptr %out, i64 %idx
  store i32 %v5, ptr %pout
  br label %exit
exit:
  ret void
}

; Half of the threads wait at one __syncthreads, half at another.
define void @diverge(ptr %in, ptr %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %idx = zext i32 %tid to i64
  %pout = getelementptr i32, ptr %out, i64 %idx
  %lt = icmp ult i32 %tid, 16
  br i1 %lt, label %a, label %b
a:
  store i32 1, ptr %pout
  call void @llvm.nvvm.barrier0()
  store i32 3, ptr %pout
  br label %end
b:
  store i32 2, ptr %pout
  call void @llvm.nvvm.barrier0()
  store i32 4, ptr %pout
  br label %end
end:
  ret void
}

; Each thread sums in[0..63] * (tid + 1): a uniform loop without barriers.
define void @dot(ptr %in, ptr %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t1 = add i32 %tid, 1
  %scale = sitofp i32 %t1 to float
  br label %loop
loop:
  %j = phi i32 [ 0, %entry ], [ %j2, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc2, %loop ]
  %jx = zext i32 %j to i64
  %p = getelementptr float, ptr %in, i64 %jx
  %v = load float, ptr %p
  %m = fmul float %v, %scale
  %sq = fmul float %m, 0.5
  %acc1 = fadd float %acc, %m
  %acc2 = fadd float %acc1, %sq
  %j2 = add i32 %j, 1
  %more = icmp ult i32 %j2, 64
  br i1 %more, label %loop, label %done
done:
  %idx = zext i32 %tid to i64
  %po = getelementptr float, ptr %out, i64 %idx
  store float %acc2, ptr %po
  ret void
}

; Threads 0..15 run a loop inside a divergent branch, then all meet at a
; barrier and read a neighbour's result: the loop's barrier must not let the
; others past the kernel's barrier early.
@sums = internal addrspace(3) global [32 x float] undef, align 4
define void @halfdot(ptr %in, ptr %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %idx = zext i32 %tid to i64
  %ps = getelementptr [32 x float], ptr addrspace(3) @sums, i64 0, i64 %idx
  store float -1.0, ptr addrspace(3) %ps
  %lt = icmp ult i32 %tid, 16
  br i1 %lt, label %loop, label %meet
loop:
  %j = phi i32 [ 0, %entry ], [ %j2, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc2, %loop ]
  %jx = zext i32 %j to i64
  %p = getelementptr float, ptr %in, i64 %jx
  %v = load float, ptr %p
  %sq = fmul float %v, %v
  %eighth = fmul float %sq, 0.125
  %acc1 = fadd float %acc, %v
  %acc2 = fadd float %acc1, %eighth
  %j2 = add i32 %j, 1
  %more = icmp ult i32 %j2, 64
  br i1 %more, label %loop, label %store
store:
  store float %acc2, ptr addrspace(3) %ps
  br label %meet
meet:
  call void @llvm.nvvm.barrier0()
  %n = add i32 %tid, 1
  %nm = and i32 %n, 15
  %nx = zext i32 %nm to i64
  %pn = getelementptr [32 x float], ptr addrspace(3) @sums, i64 0, i64 %nx
  %r = load float, ptr addrspace(3) %pn
  %po = getelementptr float, ptr %out, i64 %idx
  store float %r, ptr %po
  ret void
}

define void @lanes(ptr %in, ptr %out) {
  %m = call i32 @llvm.nvvm.activemask()
  store i32 %m, ptr %out
  ret void
}

!nvvm.annotations = !{!0, !1, !2, !3, !4, !5}
!0 = !{ptr @reduce, !"kernel", i32 1}
!1 = !{ptr @warpsum, !"kernel", i32 1}
!2 = !{ptr @diverge, !"kernel", i32 1}
!3 = !{ptr @lanes, !"kernel", i32 1}
!4 = !{ptr @dot, !"kernel", i32 1}
!5 = !{ptr @halfdot, !"kernel", i32 1}
)";

/// Bitcode of \p Body (NVVM IR after Header).
std::vector<uint8_t> bitcode(const std::string &Body) {
  return cucpu::testing::bitcodeOf(std::string(Header) + Body);
}

/// Kernels with two pointer parameters.
loader::KernelInfo twoPointers(std::string Name) {
  loader::KernelInfo K;
  K.Name = std::move(Name);
  K.Params = {{0, 8, 8}, {8, 8, 8}};
  K.ParamBytes = 16;
  return K;
}

class BlockFunctionTest : public ::testing::Test {
protected:
  void SetUp() override {
    loader::ModuleImage Image;
    Image.Producer = "BlockFunctionTest";
    Image.TargetArch = "sm_75";
    for (const char *K :
         {"reduce", "warpsum", "diverge", "lanes", "dot", "halfdot"})
      Image.Kernels.push_back(twoPointers(K));
    Image.Bitcode = bitcode(Reduce);
    JitOptions Options;
    Options.CacheEnabled = false;
    Options.RuntimeSymbols = ExecutionEngine::runtimeSymbols();
    auto M = JitModule::load(std::move(Image), Options);
    ASSERT_TRUE(bool(M)) << llvm::toString(M.takeError());
    Module = std::move(*M);
  }

  /// Runs one block of \p Threads threads of \p Name's block function.
  int32_t runBlock(const char *Name, unsigned Threads, const int *In,
                   int *Out) {
    auto K = Module->kernel(Name);
    EXPECT_TRUE(bool(K));
    if (!K || !K->Block) {
      ADD_FAILURE() << Name << " has no block function";
      return -1;
    }
    struct {
      const int *In;
      int *Out;
    } Params{In, Out};
    std::vector<char> Shared(4096);
    CucpuBlock Block{};
    Block.BlockDim[0] = Threads;
    Block.BlockDim[1] = Block.BlockDim[2] = 1;
    Block.GridDim[0] = Block.GridDim[1] = Block.GridDim[2] = 1;
    Block.Shared = Shared.data();
    Block.Params = reinterpret_cast<const char *>(&Params);
    std::vector<CucpuThread> Thread(Threads);
    for (unsigned I = 0; I < Threads; ++I) {
      Thread[I].ThreadIdx[0] = I;
      Thread[I].LaneId = I % 32;
      Thread[I].WarpId = I / 32;
      Thread[I].Block = &Block;
    }
    size_t Bytes = std::max<size_t>(64, size_t(K->FrameBytes) * Threads);
    char *Frame =
        static_cast<char *>(std::aligned_alloc(64, (Bytes + 63) / 64 * 64));
    int32_t Status = K->Block(&Block, Thread.data(), Frame);
    std::free(Frame);
    return Status;
  }

  std::unique_ptr<JitModule> Module;
};

} // namespace

TEST_F(BlockFunctionTest, BarrierInALoop) {
  std::vector<int> In(64), Out(2, -1);
  std::iota(In.begin(), In.end(), 1);
  ASSERT_EQ(runBlock("reduce", 64, In.data(), Out.data()), CucpuBlockDone);
  EXPECT_EQ(Out[0], 64 * 65 / 2) << "the tree reduction sums the block";
  EXPECT_EQ(Out[1], 32) << "__syncthreads_count counts the odd values";
}

TEST_F(BlockFunctionTest, WarpShufflesAfterEarlyExits) {
  std::vector<int> In(32), Out(32, -1);
  std::iota(In.begin(), In.end(), 0);
  ASSERT_EQ(runBlock("warpsum", 96, In.data(), Out.data()), CucpuBlockDone);
  EXPECT_EQ(Out[0], 31 * 32 / 2) << "lane 0 holds the warp's sum";
  EXPECT_EQ(Out[31], 31 << 5)
      << "lane 31 has no lane above it: each shuffle gives it its own value";
}

TEST_F(BlockFunctionTest, ThreadsAtDifferentBarriersMeet) {
  std::vector<int> Out(32, 0);
  ASSERT_EQ(runBlock("diverge", 32, nullptr, Out.data()), CucpuBlockDone)
      << "as on NVIDIA, threads waiting at two different __syncthreads() "
         "(undefined in CUDA) are released together";
  for (int T = 0; T < 32; ++T)
    EXPECT_EQ(Out[T], T < 16 ? 3 : 4) << "thread " << T;
}

TEST_F(BlockFunctionTest, ActiveMaskKeepsTheFiberEngine) {
  auto K = Module->kernel("lanes");
  ASSERT_TRUE(bool(K));
  EXPECT_EQ(K->Block, nullptr)
      << "__activemask() needs threads that run side by side";
  EXPECT_NE(K->Entry, nullptr);
}

TEST_F(BlockFunctionTest, UniformLoopBecomesRegions) {
  std::vector<float> In(64), Out(64, -1);
  for (int J = 0; J < 64; ++J)
    In[J] = float(J % 5);
  auto K = Module->kernel("dot");
  ASSERT_TRUE(bool(K));
  EXPECT_GT(K->FrameBytes, 0u)
      << "the loop's header got a barrier: values cross it in the frame";
  ASSERT_EQ(runBlock("dot", 64, reinterpret_cast<int *>(In.data()),
                     reinterpret_cast<int *>(Out.data())),
            CucpuBlockDone);
  for (int T = 0; T < 64; ++T) {
    float Want = 0;
    for (int J = 0; J < 64; ++J) {
      float M = In[J] * float(T + 1);
      Want = (Want + M) + M * 0.5f;
    }
    EXPECT_EQ(Out[T], Want) << "thread " << T;
  }
}

TEST_F(BlockFunctionTest, LoopUnderADivergentBranchKeepsTheBarrierSemantics) {
  std::vector<float> In(64), Out(32, 0);
  for (int J = 0; J < 64; ++J)
    In[J] = float(J % 3);
  ASSERT_EQ(runBlock("halfdot", 32, reinterpret_cast<int *>(In.data()),
                     reinterpret_cast<int *>(Out.data())),
            CucpuBlockDone);
  float Sum = 0;
  for (int J = 0; J < 64; ++J)
    Sum = (Sum + In[J]) + In[J] * In[J] * 0.125f;
  for (int T = 0; T < 32; ++T)
    EXPECT_EQ(Out[T], Sum) << "thread " << T
                           << " reads a sum finished before the barrier";
}
