//===- Sync.cpp - PTX instructions: barriers, fences, nanosleep -----------===//
//
// bar/barrier (sync, arrive, red), bar.warp.sync, membar, fence and
// nanosleep become the NVVM intrinsics cucc's clang emits for
// __syncthreads(), __syncthreads_count/_and/_or, __syncwarp and
// __threadfence*, which the JIT's SyncPass and NvvmMemoryPass lower. The
// warp instructions are in Warp.cpp.
//
// Every bar/barrier is a barrier of the whole block, as SyncPass makes
// llvm.nvvm.barrier.sync(.cnt): named barriers (1-15) and thread counts
// name subsets of the block that this driver does not tell apart, and
// bar.arrive waits where the GPU would go on. Kernels whose threads all
// meet at each barrier (every CUDA C++ kernel, and producer/consumer code
// whose barriers take every thread) run as on the GPU.
//
//===----------------------------------------------------------------------===//

#include "Sync.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"

namespace cucpu::ptx {

namespace {

using llvm::Value;

/// Checks a barrier number operand: a register, or an immediate 0-15.
llvm::Error checkBarrierNumber(FunctionTranslator &F, const Instruction &I,
                               const Operand &Op) {
  if (Op.K == Operand::Kind::Integer && Op.Value > 15)
    return F.error(I, llvm::formatv("barrier number {0} is not in 0-15",
                                    int64_t(Op.Value)));
  return llvm::Error::success();
}

/// bar.sync / barrier.sync / bar.arrive / barrier.arrive a{, b}.
llvm::Error barrierWait(FunctionTranslator &F, const Instruction &I) {
  if (I.Operands.size() != 1 && I.Operands.size() != 2)
    return F.error(I, "takes a barrier number and an optional thread count");
  if (auto E = checkBarrierNumber(F, I, I.Operands[0]))
    return E;
  if (I.has("arrive") && I.Operands.size() != 2)
    return F.error(I, "needs a thread count");
  const Operand &Id = I.Operands[0];
  llvm::Type *I32 = F.B.getInt32Ty();
  if (I.Operands.size() == 1 && Id.K == Operand::Kind::Integer &&
      Id.Value == 0) {
    // __syncthreads().
    callNvvm(F, "llvm.nvvm.barrier0", F.B.getVoidTy(), {});
    return llvm::Error::success();
  }
  auto IdV = F.readAs(I, Id, I32, false);
  if (!IdV)
    return IdV.takeError();
  if (I.Operands.size() == 1) {
    callNvvm(F, "llvm.nvvm.barrier.sync", F.B.getVoidTy(), {*IdV});
    return llvm::Error::success();
  }
  auto Count = F.readAs(I, I.Operands[1], I32, false);
  if (!Count)
    return Count.takeError();
  callNvvm(F, "llvm.nvvm.barrier.sync.cnt", F.B.getVoidTy(), {*IdV, *Count});
  return llvm::Error::success();
}

/// bar.red.popc.u32 d, a{, b}, {!}c; bar.red.{and,or}.pred p, a{, b}, {!}c
/// (__syncthreads_count/_and/_or).
llvm::Error barrierReduce(FunctionTranslator &F, const Instruction &I) {
  if (auto E = onlyModifiers(
          F, I, {"cta", "red", "aligned", "popc", "and", "or", "u32", "pred"}))
    return E;
  if (I.Operands.size() != 3 && I.Operands.size() != 4)
    return F.error(I, "takes a destination, a barrier number, an optional "
                      "thread count and a predicate");
  if (auto E = checkBarrierNumber(F, I, I.Operands[1]))
    return E;
  const char *Op = I.has("popc")  ? "popc"
                   : I.has("and") ? "and"
                   : I.has("or")  ? "or"
                                  : nullptr;
  if (!Op)
    return F.error(I, "needs .popc, .and or .or");
  bool Popc = I.has("popc");
  if (Popc ? !I.has("u32") : !I.has("pred"))
    return F.error(I, Popc ? "bar.red.popc needs .u32" : "needs .pred");
  // Only the count operand's value matters to the GPU; it is read for its
  // errors (see the file comment).
  if (I.Operands.size() == 4)
    if (auto Count = F.readAs(I, I.Operands[2], F.B.getInt32Ty(), false);
        !Count)
      return Count.takeError();
  auto Pred = F.readAs(I, I.Operands.back(), F.B.getInt1Ty(), false);
  if (!Pred)
    return Pred.takeError();
  llvm::Type *I32 = F.B.getInt32Ty();
  Value *R = callNvvm(F, (llvm::Twine("llvm.nvvm.barrier0.") + Op).str(), I32,
                      {F.B.CreateZExt(*Pred, I32)});
  PtxType T;
  if (Popc) {
    T.K = PtxType::Kind::Unsigned;
    return F.write(I, I.Operands[0], R, T);
  }
  T.K = PtxType::Kind::Pred;
  T.Bits = 1;
  return F.write(I, I.Operands[0], F.B.CreateICmpNE(R, F.B.getInt32(0)), T);
}

/// bar, barrier: sync, arrive, red, and bar.warp.sync.
llvm::Error barrier(FunctionTranslator &F, const Instruction &I) {
  if (I.has("warp")) {
    // bar.warp.sync membermask (__syncwarp).
    if (auto E = onlyModifiers(F, I, {"warp", "sync"}))
      return E;
    if (auto E = F.expectOperands(I, 1))
      return E;
    auto Mask = F.readAs(I, I.Operands[0], F.B.getInt32Ty(), false);
    if (!Mask)
      return Mask.takeError();
    callNvvm(F, "llvm.nvvm.bar.warp.sync", F.B.getVoidTy(), {*Mask});
    return llvm::Error::success();
  }
  if (I.has("red"))
    return barrierReduce(F, I);
  if (auto E = onlyModifiers(F, I, {"cta", "sync", "arrive", "aligned"}))
    return E;
  if (I.has("sync") == I.has("arrive"))
    return F.error(I, "needs .sync, .arrive or .red");
  return barrierWait(F, I);
}

/// membar.{cta,gl,sys} and fence.{sc,acq_rel}.scope: the NVVM fences
/// clang emits for __threadfence_block/__threadfence/__threadfence_system.
/// Proxy fences order accesses of the GPU's other proxies (textures,
/// surfaces, asynchronous copies), which are ordinary memory accesses here.
llvm::Error fence(FunctionTranslator &F, const Instruction &I) {
  if (!I.Operands.empty())
    return F.error(I, "takes no operands");
  if (I.Opcode == "fence" && I.has("proxy"))
    return llvm::Error::success();
  const char *Scope = nullptr;
  for (const std::string &M : I.Modifiers) {
    const char *S = llvm::StringSwitch<const char *>(M)
                        .Case("cta", "cta")
                        .Cases("gl", "gpu", "cluster", "gl")
                        .Case("sys", "sys")
                        .Default(nullptr);
    if (S) {
      Scope = S;
      continue;
    }
    if (I.Opcode == "fence" && (M == "sc" || M == "acq_rel" || M == "acquire" ||
                                M == "release" || M == "mbarrier_init"))
      continue;
    return F.error(I, "the modifier ." + M +
                          " is not supported by this driver's PTX JIT");
  }
  if (!Scope)
    return F.error(I, "needs a scope (.cta, .gpu/.gl or .sys)");
  callNvvm(F, (llvm::Twine("llvm.nvvm.membar.") + Scope).str(), F.B.getVoidTy(),
           {});
  return llvm::Error::success();
}

/// nanosleep.u32 t: a hint; the engine lets other threads run.
llvm::Error nanosleep(FunctionTranslator &F, const Instruction &I) {
  if (auto E = F.expectOperands(I, 1))
    return E;
  auto T = F.readAs(I, I.Operands[0], F.B.getInt32Ty(), false);
  if (!T)
    return T.takeError();
  callNvvm(F, "llvm.nvvm.nanosleep", F.B.getVoidTy(), {*T});
  return llvm::Error::success();
}

} // namespace

void addSyncOps(OpTable &T) {
  T["bar"] = barrier;
  T["barrier"] = barrier;
  T["membar"] = fence;
  T["fence"] = fence;
  T["nanosleep"] = nanosleep;
  addWarpOps(T);
}

} // namespace cucpu::ptx
