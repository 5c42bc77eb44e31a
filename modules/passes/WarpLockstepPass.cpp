//===- WarpLockstepPass.cpp - Lockstep points before volatile accesses ----===//
//
// Legacy warp-synchronous code (a reduction's last steps done by the first
// warp through a volatile pointer, with no __syncwarp) relies on the lanes
// of a converged warp making each memory access together: every lane's
// `sm[tid] += sm[tid + 16]` reads before any lane writes. The execution
// engines run a warp's lanes one after another between meeting points; a
// lockstep point before each such access makes it a meeting point. Volatile
// accesses are the ones the compiler must keep, in order, as the GPU makes
// them; other accesses that two lanes make to one word without a barrier
// race, and a GPU's compiler would not keep them either.
//
//===----------------------------------------------------------------------===//
#include "WarpLockstepPass.h"

#include "AbiAccess.h"
#include "cucpu/modules/passes/JitServices.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;
using namespace cucpu::modules;

namespace {
/// The NVPTX address space of a thread's private memory.
constexpr unsigned PrivateAddressSpace = 5;

/// Whether \p Ptr reaches only the calling thread's private memory.
bool isPrivate(const Value *Ptr) {
  if (Ptr->getType()->getPointerAddressSpace() == PrivateAddressSpace)
    return true;
  return isa<AllocaInst>(getUnderlyingObject(Ptr, /*MaxLookup=*/0));
}

FunctionCallee lockstepService(Module &M) {
  FunctionCallee Callee = declareJitService(M, JitService::__cucpu_lockstep);
  // Convergent, as the barriers: no copy into paths only some lanes take.
  if (auto *F = dyn_cast<Function>(Callee.getCallee())) {
    F->addFnAttr(Attribute::NoUnwind);
    F->addFnAttr(Attribute::Convergent);
  }
  return Callee;
}

/// Whether \p I is a memory access that the lanes of a converged warp make
/// together, as an NVIDIA GPU does: a volatile load or store of memory other
/// threads can see (not the thread's private memory).
bool isLockstepAccess(const Instruction &I) {
  if (auto *L = dyn_cast<LoadInst>(&I))
    return L->isVolatile() && !isPrivate(L->getPointerOperand());
  if (auto *S = dyn_cast<StoreInst>(&I))
    return S->isVolatile() && !isPrivate(S->getPointerOperand());
  return false;
}
} // namespace

PreservedAnalyses WarpLockstepPass::run(Module &M, ModuleAnalysisManager &) {
  // Each point gets a number, in the order of the module's code: where the
  // lanes of a warp wait at different points, the lowest goes first (the
  // code that comes first, as a GPU runs one side of a branch, then the
  // other, and a loop before what follows it).
  uint32_t NextPoint = 0;
  std::optional<FunctionCallee> Service;
  for (Function &F : M) {
    Value *Thread = F.isDeclaration() ? nullptr : abi::threadArg(F);
    if (!Thread)
      continue;
    for (BasicBlock &BB : F) {
      // The kind of the accesses since the last point: none, reads, a write.
      enum { None, Reads, Write } Since = None;
      for (Instruction &I : BB) {
        if (auto *CB = dyn_cast<CallBase>(&I); CB && !isa<IntrinsicInst>(CB)) {
          Since = None; // A call may meet other lanes itself.
          continue;
        }
        if (!isLockstepAccess(I))
          continue;
        bool Writes = isa<StoreInst>(I);
        if (Since == None || Since == Write || Writes) {
          if (!Service)
            Service = lockstepService(M);
          IRBuilder<> B(&I);
          B.CreateCall(*Service, {Thread, B.getInt32(NextPoint++)});
        }
        Since = Writes ? Write : Reads;
      }
    }
  }
  return NextPoint == 0 ? PreservedAnalyses::all() : PreservedAnalyses::none();
}
